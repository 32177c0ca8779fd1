// Operator changes of a perpetual market's terms (issue 17, product configuration): maker and
// taker fees and the leverage cap.
//
// - Fees apply to orders placed after the change, never to fills already made: the market
//   keeps the rates that applied before each change, with the first order id they no longer
//   cover, while an order placed before it is open (its fee reserve was held at those rates).
// - The leverage cap can be lowered, and raised again up to the market's defined cap (the
//   first row of its maintenance table, whose rates were set for it). A lower cap never changes
//   an existing position or order: the owner keeps their leverage, margin and orders; while
//   their leverage is above the cap, orders that would open or grow a position are refused
//   (`leverage_invalid`) until they choose a leverage within it. Reducing and closing work as
//   before. Maintenance margins come from the tier table, which does not change, so a lower
//   cap never liquidates anyone.
// Nothing here sets a balance, a price, a fill or a position.

import { assert } from "../assert.ts";
import { emit } from "../events.ts";
import type { CommandCodecEntry, Handler, Json } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import type { KernelState } from "../state.ts";
import type { CommandBase, NoValue } from "../types.ts";
import type { PerpMarketState, PerpOrder } from "./kernel-state.ts";

/** The highest fee an operator may set, in basis points (1 %). */
export const PERP_FEE_BPS_CHANGE_MAX = 100;
const EPOCHS_MAX = 64;

export interface PerpFeeEpoch {
  orderIdBelow: number;
  feeBpsMaker: number;
  feeBpsTaker: number;
}

/** Operator: a perpetual market's fees and leverage cap, for orders placed from now on. */
export interface SetPerpMarketTermsCommand extends CommandBase {
  type: "set_perp_market_terms";
  marketId: string;
  feeBpsMaker: number;
  feeBpsTaker: number;
  leverageMax: number;
  operatorId: string | null;
}

export interface PerpMarketTermsSetEvent {
  type: "perp_market_terms_set";
  marketId: string;
  feeBpsMaker: number;
  feeBpsTaker: number;
  leverageMax: number;
  /** Orders with this id or higher pay the new rates. */
  orderIdFrom: number;
  operatorId: string | null;
  atMs: number;
}

declare module "../types.ts" {
  interface CommandMap {
    set_perp_market_terms: SetPerpMarketTermsCommand;
  }
  interface ResultMap {
    set_perp_market_terms: NoValue;
  }
  interface EventMap {
    perp_market_terms_set: PerpMarketTermsSetEvent;
  }
}

declare module "./kernel-state.ts" {
  interface PerpMarketState {
    /** Earlier rates still owed to open orders, oldest first (absent: none). */
    feeEpochs?: PerpFeeEpoch[];
    /** Set once an operator changed the terms (snapshots then carry them). */
    termsChanged?: boolean;
  }
}

export const setPerpMarketTermsCodec: CommandCodecEntry = {
  typeCode: 23,
  fields: [
    ["marketId", "string"],
    ["feeBpsMaker", "int"],
    ["feeBpsTaker", "int"],
    ["leverageMax", "int"],
    ["operatorId", "string?"],
  ],
  result: [],
};

function feeInRange(bps: number): boolean {
  return Number.isInteger(bps) && bps >= 0 && bps <= PERP_FEE_BPS_CHANGE_MAX;
}

/** The cap the market was defined with: a changed cap may not go above it. */
export function definedLeverageMax(market: PerpMarketState): number {
  return market.definition.leverageMax as number;
}

/** The maker or taker rate of `order`'s fills: the rates in force when it was placed. */
export function perpFeeBpsOf(order: PerpOrder, role: "maker" | "taker"): number {
  const market = order.account.side.market;
  const epochs = market.feeEpochs;
  if (epochs !== undefined) {
    for (const epoch of epochs) {
      if (order.orderId < epoch.orderIdBelow) {
        return role === "maker" ? epoch.feeBpsMaker : epoch.feeBpsTaker;
      }
    }
  }
  return role === "maker" ? market.params.feeBpsMaker : market.params.feeBpsTaker;
}

function oldestOrderId(state: KernelState, market: PerpMarketState): number | null {
  let oldest: number | null = null;
  for (const order of state.perp.orders.values()) {
    if (order.account.side.market !== market) continue;
    if (oldest === null || order.orderId < oldest) oldest = order.orderId;
  }
  return oldest;
}

/** Applies new terms to a market's parameters (the handler, and snapshot restore). */
function applyTerms(
  market: PerpMarketState,
  terms: { feeBpsMaker: number; feeBpsTaker: number; leverageMax: number },
): void {
  const params = market.params;
  params.feeBpsMaker = terms.feeBpsMaker;
  params.feeBpsTaker = terms.feeBpsTaker;
  params.leverageMax = terms.leverageMax;
  params.leverageDefault = Math.min(market.definition.leverageDefault as number, terms.leverageMax);
  market.termsChanged = true;
}

export const setPerpMarketTerms: Handler<"set_perp_market_terms"> = (state, command) => {
  const market = state.perp.markets.get(command.marketId);
  if (market === undefined) return fail("market_not_found");
  if (!feeInRange(command.feeBpsMaker) || !feeInRange(command.feeBpsTaker)) {
    return fail("market_invalid");
  }
  const cap = command.leverageMax;
  if (!Number.isInteger(cap) || cap < 1 || cap > definedLeverageMax(market)) {
    return fail("perp_leverage_invalid");
  }
  const orderIdFrom = state.perp.orderIdNext;
  const oldest = oldestOrderId(state, market);
  const kept = (market.feeEpochs ?? []).filter(
    (epoch) => oldest !== null && oldest < epoch.orderIdBelow,
  );
  if (oldest !== null && oldest < orderIdFrom) {
    kept.push({
      orderIdBelow: orderIdFrom,
      feeBpsMaker: market.params.feeBpsMaker,
      feeBpsTaker: market.params.feeBpsTaker,
    });
  }
  while (kept.length > EPOCHS_MAX) kept.shift();
  if (kept.length > 0) market.feeEpochs = kept;
  else delete market.feeEpochs;
  applyTerms(market, command);
  emit(state, {
    type: "perp_market_terms_set",
    marketId: market.params.marketId,
    feeBpsMaker: command.feeBpsMaker,
    feeBpsTaker: command.feeBpsTaker,
    leverageMax: cap,
    orderIdFrom,
    operatorId: command.operatorId,
    atMs: state.nowMs,
  });
  return DONE;
};

/** A market's snapshot entry `terms`: absent until an operator changed them (hash unchanged). */
export function writeTerms(market: PerpMarketState): Json | undefined {
  if (market.termsChanged !== true) return undefined;
  const p = market.params;
  return [
    p.feeBpsMaker,
    p.feeBpsTaker,
    p.leverageMax,
    (market.feeEpochs ?? []).map((e): Json => [e.orderIdBelow, e.feeBpsMaker, e.feeBpsTaker]),
  ];
}

export function readTerms(market: PerpMarketState, json: Json | undefined): void {
  if (json === undefined) return;
  const [maker, taker, cap, epochs] = json as [number, number, number, [number, number, number][]];
  applyTerms(market, { feeBpsMaker: maker, feeBpsTaker: taker, leverageMax: cap });
  if (epochs.length > 0) {
    market.feeEpochs = epochs.map(([orderIdBelow, feeBpsMaker, feeBpsTaker]) => ({
      orderIdBelow,
      feeBpsMaker,
      feeBpsTaker,
    }));
  }
}

/** Changed terms stay within their bounds; epochs are ordered and not from the future. */
export function checkTerms(state: KernelState): void {
  for (const market of state.perp.markets.values()) {
    const p = market.params;
    assert(p.leverageMax >= 1 && p.leverageMax <= definedLeverageMax(market), "perp cap bounds");
    assert(p.leverageDefault >= 1 && p.leverageDefault <= p.leverageMax, "perp default lev");
    const epochs = market.feeEpochs;
    if (epochs === undefined) continue;
    assert(epochs.length > 0 && epochs.length <= EPOCHS_MAX, "perp fee epochs: empty or many");
    let previous = 0;
    for (const epoch of epochs) {
      assert(epoch.orderIdBelow > previous, "perp fee epochs out of order");
      assert(epoch.orderIdBelow <= state.perp.orderIdNext, "perp fee epoch from the future");
      previous = epoch.orderIdBelow;
    }
  }
}

/** The terms an operator sees and changes, for every perpetual market, sorted by id. */
export interface PerpMarketTermsView {
  marketId: string;
  feeBpsMaker: number;
  feeBpsTaker: number;
  leverageMax: number;
  leverageMaxDefined: number;
}

export function getPerpMarketTerms(state: KernelState): PerpMarketTermsView[] {
  return [...state.perp.markets.values()]
    .map((m) => ({
      marketId: m.params.marketId,
      feeBpsMaker: m.params.feeBpsMaker,
      feeBpsTaker: m.params.feeBpsTaker,
      leverageMax: m.params.leverageMax,
      leverageMaxDefined: definedLeverageMax(m),
    }))
    .sort((a, b) => (a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : 0));
}
