import type { TickerView } from "@candor/contract";
import { useEffect, useState } from "react";
import { marketSocket, type SocketState } from "../../../lib/ws-client.ts";
import { nextTicker, type ShownTicker } from "../lib/ticker-order.ts";

/**
 * Live tickers of the given instruments over the WebSocket, by instrument id; a ticker older
 * than the one shown (`nextTicker`) is dropped.
 */
export function useTickers(instrumentIds: readonly string[]) {
  const [tickers, setTickers] = useState<ReadonlyMap<string, TickerView>>(new Map());
  const [state, setState] = useState<SocketState>(marketSocket().state);
  const key = instrumentIds.join(",");
  useEffect(() => {
    const socket = marketSocket();
    const offState = socket.onState(setState);
    // The sequence each shown ticker came with (the map above holds what screens read).
    const shown = new Map<string, ShownTicker<TickerView>>();
    const offs = (key ? key.split(",") : []).map((instrumentId) =>
      socket.subscribe({ channel: "ticker", instrumentId }, (message) => {
        if (message.type !== "ticker") return;
        const id = message.data.instrumentId;
        const before = shown.get(id);
        const next = nextTicker(before, message);
        if (next === before) return;
        shown.set(id, next);
        setTickers((previous) => new Map(previous).set(id, next.data));
      }),
    );
    return () => {
      offState();
      for (const off of offs) off();
    };
  }, [key]);
  return { tickers, state };
}
