import type { TickerView } from "@candor/contract";
import { useEffect, useState } from "react";
import { marketSocket, type SocketState } from "../../../lib/ws-client.ts";

/** Live tickers of the given instruments over the WebSocket, by instrument id. */
export function useTickers(instrumentIds: readonly string[]) {
  const [tickers, setTickers] = useState<ReadonlyMap<string, TickerView>>(new Map());
  const [state, setState] = useState<SocketState>(marketSocket().state);
  const key = instrumentIds.join(",");
  useEffect(() => {
    const socket = marketSocket();
    const offState = socket.onState(setState);
    const offs = (key ? key.split(",") : []).map((instrumentId) =>
      socket.subscribe({ channel: "ticker", instrumentId }, (message) => {
        if (message.type !== "ticker") return;
        setTickers((previous) => new Map(previous).set(message.data.instrumentId, message.data));
      }),
    );
    return () => {
      offState();
      for (const off of offs) off();
    };
  }, [key]);
  return { tickers, state };
}
