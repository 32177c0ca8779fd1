import type {
  PlaceSpotConditionalOrderBody,
  PlaceSpotOrderBody,
  SpotFillView,
  SpotOrderView,
} from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { callEndpoint, endpointUrl } from "../../../lib/api-client.ts";
import { spotTradingEndpoints } from "./endpoints.ts";

/*
 * The orders API of issue 8 (contract: packages/contract/src/spot.ts). Every view and body is
 * the contract's own type; `callEndpoint` types each call by the contract's endpoint.
 */

/** Real money or demo (simulated) money: the mode an order was placed in. */
export type AccountMode = SpotOrderView["mode"];

/** Every query key of spot trading. Prefixes (`openOrdersAll`, …) invalidate every pair. */
export const spotTradingKeys = {
  all: ["spot-trading"] as const,
  markets: () => [...spotTradingKeys.all, "markets"] as const,
  openOrdersAll: () => [...spotTradingKeys.all, "open-orders"] as const,
  openOrders: (instrumentId: string) => [...spotTradingKeys.openOrdersAll(), instrumentId] as const,
  historyAll: () => [...spotTradingKeys.all, "history"] as const,
  history: (instrumentId: string) => [...spotTradingKeys.historyAll(), instrumentId] as const,
  order: (orderId: string) => [...spotTradingKeys.all, "order", orderId] as const,
  conditionalAll: () => [...spotTradingKeys.all, "conditional"] as const,
  conditional: (instrumentId: string, status: "pending" | "finished") =>
    [...spotTradingKeys.conditionalAll(), instrumentId, status] as const,
};

/** Marks the user's orders (every pair) and the balances stale after a change. */
export function useRefreshOrders(onFundsChanged: () => void) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: spotTradingKeys.openOrdersAll() });
    void queryClient.invalidateQueries({ queryKey: spotTradingKeys.historyAll() });
    void queryClient.invalidateQueries({ queryKey: spotTradingKeys.conditionalAll() });
    onFundsChanged();
  }, [queryClient, onFundsChanged]);
}

/** GET /api/v1/spot/markets: steps, limits, fees and price-warning rates of every pair. */
export function fetchSpotMarkets() {
  return callEndpoint(spotTradingEndpoints.spotMarkets);
}

export function placeSpotOrder(body: PlaceSpotOrderBody) {
  return callEndpoint(spotTradingEndpoints.placeSpotOrder, { body });
}

/** A stop, take-profit or OCO order: its funds are held now, a tape tick fires it. */
export function placeSpotConditionalOrder(body: PlaceSpotConditionalOrderBody) {
  return callEndpoint(spotTradingEndpoints.placeSpotConditionalOrder, { body });
}

export function fetchConditionalOrders(instrumentId: string, status: "pending" | "finished") {
  return callEndpoint(spotTradingEndpoints.spotConditionalOrders, {
    query: { instrumentId, status, limit: 50 },
  });
}

export function cancelConditionalOrder(orderId: string) {
  return callEndpoint(spotTradingEndpoints.cancelSpotConditionalOrder, { params: { orderId } });
}

/** Size-only amend: a smaller size keeps the order's place in the queue. */
export function amendSpotOrder(orderId: string, quantity: string) {
  return callEndpoint(spotTradingEndpoints.amendSpotOrder, {
    params: { orderId },
    body: { quantity },
  });
}

export function cancelSpotOrder(orderId: string) {
  return callEndpoint(spotTradingEndpoints.cancelSpotOrder, { params: { orderId } });
}

export function cancelAllSpotOrders(instrumentId?: string) {
  return callEndpoint(spotTradingEndpoints.cancelAllSpotOrders, {
    body: instrumentId ? { instrumentId } : {},
  });
}

export function fetchOpenOrders(instrumentId?: string) {
  return callEndpoint(spotTradingEndpoints.openSpotOrders, { query: { instrumentId } });
}

export function fetchOrderHistory(input: {
  instrumentId?: string;
  cursor?: string;
  limit?: number;
}) {
  return callEndpoint(spotTradingEndpoints.spotOrderHistory, { query: input });
}

export function fetchOrderDetail(orderId: string) {
  return callEndpoint(spotTradingEndpoints.spotOrderDetail, { params: { orderId } });
}

/**
 * The public tape's page that lists a fill and the tick it used: GET /api/v1/tape over the
 * fill's journal sequence.
 */
export function tapeLink(fill: SpotFillView, mode: AccountMode): string | undefined {
  if (!fill.sequence) return undefined;
  return endpointUrl(
    spotTradingEndpoints.tapeEndpoint.path,
    {},
    { from: fill.sequence, to: fill.sequence, mode },
  );
}
