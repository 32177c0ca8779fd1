import type {
  PlacePerpConditionalOrderBody,
  PlacePerpOcoOrderBody,
  PlacePerpOrderBody,
} from "@candor/contract";
import { callEndpoint } from "../../../lib/api-client.ts";
import { perpEndpoints } from "./endpoints.ts";

/*
 * Perpetual contracts of issue 19 (contract: packages/contract/src/perp.ts): markets with the
 * loss disclosure, positions, orders, position actions and history.
 */

type Mode = "real" | "demo";
type Page = { marketId?: string; cursor?: string; limit?: number };

export const perpKeys = {
  all: ["perp"] as const,
  markets: (mode: Mode) => [...perpKeys.all, "markets", mode] as const,
  positions: () => [...perpKeys.all, "positions"] as const,
  openOrders: () => [...perpKeys.all, "open-orders"] as const,
  conditionalOrders: () => [...perpKeys.all, "conditional-orders"] as const,
  history: (kind: string) => [...perpKeys.all, "history", kind] as const,
  book: (mode: Mode, marketId: string) => [...perpKeys.all, "book", mode, marketId] as const,
};

export const fetchPerpMarkets = (mode: Mode) =>
  callEndpoint(perpEndpoints.perpMarkets, { query: { mode } });
export const fetchPerpBook = (marketId: string, mode: Mode, levels: number) =>
  callEndpoint(perpEndpoints.perpBook, { params: { marketId }, query: { mode, levels } });
export const fetchPerpPositions = () => callEndpoint(perpEndpoints.perpPositions);
export const fetchPerpOpenOrders = () => callEndpoint(perpEndpoints.perpOpenOrders, { query: {} });
export const fetchPerpOrderHistory = (query: Page = {}) =>
  callEndpoint(perpEndpoints.perpOrderHistory, { query });
export const fetchPerpFills = (query: Page = {}) =>
  callEndpoint(perpEndpoints.perpFills, { query });
export const fetchPerpForcedEvents = (query: Page = {}) =>
  callEndpoint(perpEndpoints.perpForcedEvents, { query });
export const fetchPerpFunding = (query: Page = {}) =>
  callEndpoint(perpEndpoints.perpFundingHistory, { query });

export const placePerpOrder = (body: PlacePerpOrderBody) =>
  callEndpoint(perpEndpoints.placePerpOrder, { body });
/** A stop or take-profit order: fired by the mark price, no margin held until then. */
export const placePerpConditionalOrder = (body: PlacePerpConditionalOrderBody) =>
  callEndpoint(perpEndpoints.placePerpConditionalOrder, { body });
export const placePerpOcoOrder = (body: PlacePerpOcoOrderBody) =>
  callEndpoint(perpEndpoints.placePerpOcoOrder, { body });
export const cancelPerpConditionalOrder = (orderId: string) =>
  callEndpoint(perpEndpoints.cancelPerpConditionalOrder, { params: { orderId } });
export const fetchPerpConditionalOrders = () =>
  callEndpoint(perpEndpoints.perpConditionalOrders, { query: {} });
export const cancelPerpOrder = (orderId: string) =>
  callEndpoint(perpEndpoints.cancelPerpOrder, { params: { orderId } });
/** Lowers an open order's size; it keeps its place in the queue. */
export const amendPerpOrder = (orderId: string, contracts: number) =>
  callEndpoint(perpEndpoints.amendPerpOrder, { params: { orderId }, body: { contracts } });
export const setPerpLeverage = (marketId: string, leverage: number) =>
  callEndpoint(perpEndpoints.setPerpLeverage, { params: { marketId }, body: { leverage } });
export const setPerpMarginMode = (marketId: string, marginMode: "cross" | "isolated") =>
  callEndpoint(perpEndpoints.setPerpMarginMode, { params: { marketId }, body: { marginMode } });
export const changePerpMargin = (
  marketId: string,
  body: { direction: "add" | "remove"; amount: string; tradePassword?: string },
) => callEndpoint(perpEndpoints.changePerpMargin, { params: { marketId }, body });
export const setPerpTpSl = (
  marketId: string,
  body: { takeProfitPrice?: string; stopLossPrice?: string; tradePassword?: string },
) => callEndpoint(perpEndpoints.setPerpTpSl, { params: { marketId }, body });
export const closePerpPosition = (
  marketId: string,
  body: { requestId: string; tradePassword?: string },
) => callEndpoint(perpEndpoints.closePerpPosition, { params: { marketId }, body });
export const reversePerpPosition = (
  marketId: string,
  body: { requestId: string; tradePassword?: string },
) => callEndpoint(perpEndpoints.reversePerpPosition, { params: { marketId }, body });
export const closeAllPerpPositions = (body: { requestId: string; tradePassword?: string }) =>
  callEndpoint(perpEndpoints.closeAllPerpPositions, { body });

/** The route of the public tape's page of one tick. */
export function tickRoute(instrumentId: string, tickId: string): string {
  return `/tape/${encodeURIComponent(instrumentId)}/${encodeURIComponent(tickId)}`;
}
