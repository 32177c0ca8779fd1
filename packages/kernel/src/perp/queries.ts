// Read-only views of perpetuals for the engine and server (which never read `state.perp`).

import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { positionView } from "./engine.ts";
import type { PerpPositionView } from "./kernel-types.ts";
import { sideOf } from "./kernel-state.ts";

/** An open perpetual order as the kernel holds it. */
export interface PerpOrderView {
  orderId: number;
  clientOrderId: string;
  marketId: string;
  mode: Mode;
  ownerId: string;
  side: "buy" | "sell";
  orderType: "limit" | "market";
  timeInForce: "gtc" | "ioc" | "fok" | "post_only";
  priceTicks: number;
  quantityLots: number;
  filledLots: number;
  reduceOnly: boolean;
  heldAmount: bigint;
  createdAtMs: number;
}

/** The owner's positions (and records with leverage and margin mode) in every perpetual. */
export function getPerpPositions(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): PerpPositionView[] {
  const accounts = state.perp.byOwner.get(mode + "|" + ownerId) ?? [];
  return [...accounts]
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((account) => positionView(state, account));
}

/** The owner's open perpetual orders, oldest first. */
export function getPerpOpenOrders(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): PerpOrderView[] {
  const views: PerpOrderView[] = [];
  for (const account of state.perp.byOwner.get(mode + "|" + ownerId) ?? []) {
    for (const id of account.orders) {
      const o = state.perp.orders.get(id)!;
      views.push({
        orderId: o.orderId,
        clientOrderId: o.clientOrderId,
        marketId: account.side.market.params.marketId,
        mode,
        ownerId,
        side: o.side,
        orderType: o.orderType,
        timeInForce: o.timeInForce,
        priceTicks: o.priceTicks,
        quantityLots: o.quantityLots,
        filledLots: o.filledLots,
        reduceOnly: o.reduceOnly,
        heldAmount: o.heldAmount,
        createdAtMs: o.createdAtMs,
      });
    }
  }
  return views.sort((a, b) => a.orderId - b.orderId);
}

/** The mark of a perpetual in one mode and the tape tick ids it came from, or null. */
export function getPerpMark(
  state: KernelState,
  marketId: string,
  mode: Mode,
): { markTicks: bigint; indexTicks: bigint; tickIds: string[] } | null {
  const market = state.perp.markets.get(marketId);
  const mark = market === undefined ? null : sideOf(market, mode).mark;
  if (mark === null) return null;
  return { markTicks: mark.priceTicks, indexTicks: mark.indexTicks, tickIds: [...mark.tickIds] };
}
