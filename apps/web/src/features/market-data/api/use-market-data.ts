import type { TickerView, TradeView } from "@candor/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { marketSocket, type SocketState } from "../../../lib/ws-client.ts";
import { reduceDepth, type DepthBook } from "../lib/depth-book.ts";
import { nextTicker, type ShownTicker } from "../lib/ticker-order.ts";
import { followTrade } from "../lib/trade-tape.ts";
import { marketDataKeys, type AccountMode } from "./market-data-api.ts";
import { fetchTicker, fetchTrades } from "./pair-api.ts";

/** The socket's state for a "live" / "reconnecting" label. */
export function useSocketState(): SocketState {
  const [state, setState] = useState<SocketState>(marketSocket().state);
  useEffect(() => marketSocket().onState(setState), []);
  return state;
}

/**
 * The pair's ticker: the REST answer first, then every update over the WebSocket, except one
 * older than the ticker shown (`nextTicker`: a late one, or another node's after a reconnect).
 */
export function useTicker(instrumentId: string) {
  const initial = useQuery({
    queryKey: marketDataKeys.ticker(instrumentId),
    queryFn: () => fetchTicker(instrumentId),
  });
  const [live, setLive] = useState<ShownTicker<TickerView> | undefined>();
  useEffect(() => {
    setLive(undefined);
    return marketSocket().subscribe({ channel: "ticker", instrumentId }, (message) => {
      if (message.type === "ticker") setLive((shown) => nextTicker(shown, message));
    });
  }, [instrumentId]);
  return { ticker: live?.data ?? initial.data, error: live ? null : initial.error };
}

/** Most recent trades kept on screen. */
const tradesShownMax = 30;

/**
 * Recent trades of the pair's tape, newest first: REST, then live prints. When a print does
 * not follow on from the last one seen (`followTrade`: a dropped message, a reconnect, another
 * node), the REST list is fetched again and the prints go on from there.
 */
export function useRecentTrades(instrumentId: string) {
  const initial = useQuery({
    queryKey: marketDataKeys.trades(instrumentId),
    queryFn: () => fetchTrades(instrumentId),
  });
  const [live, setLive] = useState<TradeView[]>([]);
  const queryClient = useQueryClient();
  useEffect(() => {
    setLive([]);
    let last: number | null = null;
    return marketSocket().subscribe({ channel: "trades", instrumentId }, (message) => {
      if (message.type !== "trade") return;
      const step = followTrade(last, message);
      last = step.last;
      if (step.gap) {
        setLive([message.data]);
        void queryClient.refetchQueries({ queryKey: marketDataKeys.trades(instrumentId) });
        return;
      }
      setLive((previous) => [message.data, ...previous].slice(0, tradesShownMax));
    });
  }, [instrumentId, queryClient]);
  const seen = new Set(live.map((trade) => trade.id));
  const trades = [...live, ...(initial.data ?? []).filter((trade) => !seen.has(trade.id))].slice(
    0,
    tradesShownMax,
  );
  return { trades, isPending: initial.isPending && live.length === 0, error: initial.error };
}

/**
 * The order book of a pair and mode, live: the socket sends a snapshot on subscribing, then
 * diffs; on a gap the hook subscribes again for a fresh snapshot.
 */
export function useDepth(instrumentId: string, mode: AccountMode) {
  const [book, setBook] = useState<DepthBook | undefined>();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current: DepthBook | undefined;
    setBook(undefined);
    const off = marketSocket().subscribe({ channel: "depth", instrumentId, mode }, (message) => {
      const next = reduceDepth(current, message);
      if (next === "gap") {
        setGeneration((value) => value + 1);
        return;
      }
      if (next !== current) {
        current = next;
        setBook(next);
      }
    });
    return off;
  }, [instrumentId, mode, generation]);
  return book;
}
