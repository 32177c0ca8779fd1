// Operator fee changes of a spot market (issue 17, product configuration).
//
// A change applies to orders placed after it and never to fills already made: each market keeps
// the rates that applied before each change, with the first order id they no longer cover, for
// as long as an open order or pending conditional placed before the change exists. A fill takes
// each side's rate from the epoch of that side's order (a triggered conditional counts from
// when the conditional was placed). Operators can change rates within 0..FEE_BPS_CHANGE_MAX
// only; nothing here sets a balance, a price or a fill.

import { assert } from "../assert.ts";
import type { CommandCodecEntry, Handler, Json } from "../module.ts";
import { emit } from "../events.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import type { MarketState } from "../reference/state.ts";
import type { KernelState } from "../state.ts";
import type { CommandBase, NoValue } from "../types.ts";
import type { OrderState } from "./state.ts";

/** The highest fee an operator may set, in basis points (1 %). */
export const FEE_BPS_CHANGE_MAX = 100;
/** The most fee epochs a market keeps (older orders then pay the oldest kept epoch's rates). */
const EPOCHS_MAX = 64;

/** Rates that applied to orders with ids below `orderIdBelow`. */
export interface FeeEpoch {
  orderIdBelow: number;
  feeBpsMaker: number;
  feeBpsTaker: number;
}

/** Operator: new maker and taker fees of a spot market, for orders placed from now on. */
export interface SetMarketFeesCommand extends CommandBase {
  type: "set_market_fees";
  marketId: string;
  feeBpsMaker: number;
  feeBpsTaker: number;
  operatorId: string | null;
}

/** The change, for the read models and the audit trail. */
export interface MarketFeesSetEvent {
  type: "market_fees_set";
  marketId: string;
  feeBpsMaker: number;
  feeBpsTaker: number;
  /** Orders with this id or higher pay the new rates. */
  orderIdFrom: number;
  operatorId: string | null;
  atMs: number;
}

declare module "../types.ts" {
  interface CommandMap {
    set_market_fees: SetMarketFeesCommand;
  }
  interface ResultMap {
    set_market_fees: NoValue;
  }
  interface EventMap {
    market_fees_set: MarketFeesSetEvent;
  }
}

declare module "../reference/state.ts" {
  interface MarketState {
    /** Earlier rates still owed to open orders, oldest first (absent: none). */
    feeEpochs?: FeeEpoch[];
  }
}

export const setMarketFeesCodec: CommandCodecEntry = {
  typeCode: 22,
  fields: [
    ["marketId", "string"],
    ["feeBpsMaker", "int"],
    ["feeBpsTaker", "int"],
    ["operatorId", "string?"],
  ],
  result: [],
};

function feeInRange(bps: number): boolean {
  return Number.isInteger(bps) && bps >= 0 && bps <= FEE_BPS_CHANGE_MAX;
}

/** The id an order's fee epoch is found by: its conditional's, when a conditional placed it. */
function placedIdOf(order: OrderState): number {
  return order.fromConditionalId !== 0 ? order.fromConditionalId : order.orderId;
}

/** The maker or taker rate that applies to `order`'s fills. */
export function feeBpsOf(order: OrderState, role: "maker" | "taker"): number {
  const market = order.market;
  const epochs = market.feeEpochs;
  if (epochs !== undefined) {
    const placedId = placedIdOf(order);
    for (const epoch of epochs) {
      if (placedId < epoch.orderIdBelow) {
        return role === "maker" ? epoch.feeBpsMaker : epoch.feeBpsTaker;
      }
    }
  }
  return role === "maker" ? market.feeBpsMaker : market.feeBpsTaker;
}

/** The lowest id of an open order or pending conditional of `market`, or null. */
function oldestPlacedId(state: KernelState, market: MarketState): number | null {
  let oldest: number | null = null;
  for (const order of state.spot.orders.values()) {
    if (order.market !== market) continue;
    const id = placedIdOf(order);
    if (oldest === null || id < oldest) oldest = id;
  }
  for (const conditional of state.spot.conditionals.values()) {
    if (conditional.market !== market) continue;
    if (oldest === null || conditional.orderId < oldest) oldest = conditional.orderId;
  }
  return oldest;
}

export const setMarketFees: Handler<"set_market_fees"> = (state, command) => {
  const market = state.reference.markets.get(command.marketId);
  if (market === undefined) return fail("market_not_found");
  if (!feeInRange(command.feeBpsMaker) || !feeInRange(command.feeBpsTaker)) {
    return fail("market_invalid");
  }
  const orderIdFrom = state.spot.orderIdNext;
  // Keep only the epochs some open order still needs, then the rates being replaced.
  const oldest = oldestPlacedId(state, market);
  const kept = (market.feeEpochs ?? []).filter(
    (epoch) => oldest !== null && oldest < epoch.orderIdBelow,
  );
  if (oldest !== null && oldest < orderIdFrom) {
    kept.push({
      orderIdBelow: orderIdFrom,
      feeBpsMaker: market.feeBpsMaker,
      feeBpsTaker: market.feeBpsTaker,
    });
  }
  while (kept.length > EPOCHS_MAX) kept.shift();
  if (kept.length > 0) market.feeEpochs = kept;
  else delete market.feeEpochs;
  market.feeBpsMaker = command.feeBpsMaker;
  market.feeBpsTaker = command.feeBpsTaker;
  emit(state, {
    type: "market_fees_set",
    marketId: market.marketId,
    feeBpsMaker: command.feeBpsMaker,
    feeBpsTaker: command.feeBpsTaker,
    orderIdFrom,
    operatorId: command.operatorId,
    atMs: state.nowMs,
  });
  return DONE;
};

/** Snapshot field `spotFeeEpochs`: absent while no market keeps an epoch (hash unchanged). */
export function writeFeeEpochs(state: KernelState): Json | undefined {
  const rows: Json[] = [];
  const markets = [...state.reference.markets.values()].sort((a, b) =>
    a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : 0,
  );
  for (const market of markets) {
    if (market.feeEpochs === undefined) continue;
    rows.push([
      market.marketId,
      market.feeEpochs.map((e): Json => [e.orderIdBelow, e.feeBpsMaker, e.feeBpsTaker]),
    ]);
  }
  return rows.length > 0 ? rows : undefined;
}

export function readFeeEpochs(state: KernelState, json: Json | undefined): void {
  if (json === undefined || json === null) return;
  for (const row of json as [string, [number, number, number][]][]) {
    const market = state.reference.markets.get(row[0]);
    assert(market !== undefined, "snapshot fee epochs of an unknown market");
    market.feeEpochs = row[1].map(([orderIdBelow, feeBpsMaker, feeBpsTaker]) => ({
      orderIdBelow,
      feeBpsMaker,
      feeBpsTaker,
    }));
  }
}

/** Epochs are ordered, below the next order id, and within the fee bounds. */
export function checkFeeEpochs(state: KernelState): void {
  for (const market of state.reference.markets.values()) {
    const epochs = market.feeEpochs;
    if (epochs === undefined) continue;
    assert(epochs.length > 0 && epochs.length <= EPOCHS_MAX, "fee epochs: empty or too many");
    let previous = 0;
    for (const epoch of epochs) {
      assert(epoch.orderIdBelow > previous, "fee epochs out of order");
      assert(epoch.orderIdBelow <= state.spot.orderIdNext, "fee epoch from the future");
      assert(epoch.feeBpsMaker >= 0 && epoch.feeBpsMaker <= 1000, "fee epoch maker rate");
      assert(epoch.feeBpsTaker >= 0 && epoch.feeBpsTaker <= 1000, "fee epoch taker rate");
      previous = epoch.orderIdBelow;
    }
  }
}
