// Conditional orders on perpetuals beyond a position's TP/SL (issue 19): stop-market, stop-limit
// and take-profit, optionally reduce-only, fired by the MARK price through the side's sorted
// trigger index (ids `C|<conditionalId>`), so a tick costs O(log n + fired). As on Binance
// USDⓈ-M, a waiting conditional order holds no margin: when it fires, the order it places is
// checked like any new order (margin, reduce-only, band) and either placed or refused, and the
// outcome is recorded with the mark's tick ids. Type codes 49 (place) and 80 (cancel).

import { selfTradeModes, type SelfTradeMode } from "../book/types.ts";
import { emit } from "../events.ts";
import type { Handler } from "../module.ts";
import { fail, type RejectCode } from "../reject-codes.ts";
import { ok } from "../results.ts";
import type { KernelState } from "../state.ts";
import type { CommandBase, Mode } from "../types.ts";
import { commandedAccount, placePerpOrder } from "./handlers.ts";
import type { PlacePerpOrderCommand } from "./kernel-types.ts";
import type { PerpAccount, PerpSide } from "./kernel-state.ts";
import { PRICE_MAX } from "./markets.ts";
import type { TriggerDirection } from "./trigger-index.ts";

export type PerpConditionalKind = "stop" | "take_profit";
export type Side = "buy" | "sell";
export type Tif = "gtc" | "ioc" | "fok" | "post_only";

export interface PerpConditional {
  conditionalId: number;
  clientOrderId: string;
  account: PerpAccount;
  kind: PerpConditionalKind;
  side: Side;
  /** The order it places when it fires. */
  orderType: "limit" | "market";
  timeInForce: Tif;
  triggerTicks: number;
  priceTicks: number | null;
  quantityLots: number;
  reduceOnly: boolean;
  selfTradeMode: SelfTradeMode;
  createdAtMs: number;
  /** The other leg of its OCO pair (oco.ts), which ends when this one fires or is cancelled;
   * else 0. */
  ocoWith: number;
}

/**
 * A stop or take-profit order on a perpetual. It fires when the mark reaches `triggerTicks` (a
 * buy stop and a sell take-profit at or above, a sell stop and a buy take-profit at or below)
 * and then places `orderType` (market: IOC at the band edge; limit: `priceTicks` with
 * `timeInForce`). Refused when the current mark already reaches the trigger.
 */
export interface PlacePerpConditionalCommand extends CommandBase {
  type: "place_perp_conditional_order";
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  kind: string;
  orderType: "limit" | "market";
  timeInForce: Tif;
  triggerTicks: number;
  priceTicks: number | null;
  quantityLots: number;
  reduceOnly: boolean;
  selfTradeMode: string;
}

export interface CancelPerpConditionalCommand extends CommandBase {
  type: "cancel_perp_conditional_order";
  ownerId: string;
  mode: Mode;
  conditionalId: number;
}

export interface PerpConditionalPlacedEvent {
  type: "perp_conditional_placed";
  conditionalId: number;
  clientOrderId: string;
  marketId: string;
  mode: Mode;
  ownerId: string;
  kind: PerpConditionalKind;
  side: Side;
  orderType: "limit" | "market";
  timeInForce: Tif;
  triggerTicks: number;
  priceTicks: number | null;
  quantityLots: number;
  reduceOnly: boolean;
  selfTradeMode: SelfTradeMode;
  /** The other leg of its OCO pair; null when it is not one. */
  ocoConditionalId: number | null;
}

/**
 * A conditional order ended: `triggered` (it placed `orderId`), `rejected` (it fired but the
 * order was refused: `rejectCode`) or `cancelled` (`reason`: `user`, `demo_reset`, `oco`: the
 * other leg of its OCO pair fired or was cancelled). A fired one
 * names the mark and the tape tick ids the mark came from.
 */
export interface PerpConditionalDoneEvent {
  type: "perp_conditional_done";
  conditionalId: number;
  marketId: string;
  mode: Mode;
  ownerId: string;
  kind: PerpConditionalKind;
  side: Side;
  triggerTicks: number;
  quantityLots: number;
  status: "triggered" | "rejected" | "cancelled";
  reason: string | null;
  markTicks: bigint | null;
  tickIds: string[];
  orderId: number | null;
  rejectCode: string | null;
}

declare module "../types.ts" {
  interface CommandMap {
    place_perp_conditional_order: PlacePerpConditionalCommand;
    cancel_perp_conditional_order: CancelPerpConditionalCommand;
  }
  interface ResultMap {
    /** `orderId` is the conditional order's id (its own sequence, not a book order's). */
    place_perp_conditional_order: { orderId: number };
    cancel_perp_conditional_order: { orderId: number };
  }
  interface EventMap {
    perp_conditional_placed: PerpConditionalPlacedEvent;
    perp_conditional_done: PerpConditionalDoneEvent;
  }
}

export const perpConditionalCodecs = {
  place_perp_conditional_order: {
    typeCode: 49,
    fields: [
      ["ownerId", "string"],
      ["mode", "mode"],
      ["marketId", "string"],
      ["side", "side"],
      ["kind", "string"],
      ["orderType", "order_type"],
      ["timeInForce", "tif"],
      ["triggerTicks", "int"],
      ["priceTicks", "int?"],
      ["quantityLots", "int"],
      ["reduceOnly", "bool"],
      ["selfTradeMode", "string"],
    ],
    result: ["orderId"],
  },
  cancel_perp_conditional_order: {
    typeCode: 80,
    fields: [
      ["ownerId", "string"],
      ["mode", "mode"],
      ["conditionalId", "int"],
    ],
    result: ["orderId"],
  },
} as const;

const KINDS: readonly string[] = ["stop", "take_profit"];

/** When a conditional order fires: a buy stop and a sell take-profit when the mark rises. */
export function perpDirectionOf(kind: PerpConditionalKind, side: Side): TriggerDirection {
  return (kind === "stop") === (side === "buy") ? "at_or_above" : "at_or_below";
}

export function conditionalTriggerId(conditionalId: number): string {
  return `C|${conditionalId}`;
}

/** Puts a waiting conditional order in its side's trigger index. */
export function indexConditional(c: PerpConditional): void {
  c.account.side.triggers.upsert({
    id: conditionalTriggerId(c.conditionalId),
    priceTicks: BigInt(c.triggerTicks),
    direction: perpDirectionOf(c.kind, c.side),
  });
}

function orderTermsCode(command: ConditionalTerms): RejectCode | null {
  const lots = command.quantityLots;
  if (!Number.isSafeInteger(lots) || lots <= 0) return "quantity_must_be_positive";
  const trigger = command.triggerTicks;
  if (!Number.isSafeInteger(trigger) || trigger <= 0) return "price_must_be_positive";
  if (trigger > PRICE_MAX) return "price_too_high";
  if (command.orderType === "limit") {
    if (command.priceTicks === null) return "command_malformed";
    if (!Number.isSafeInteger(command.priceTicks) || command.priceTicks <= 0) {
      return "price_must_be_positive";
    }
    if (command.priceTicks > PRICE_MAX) return "price_too_high";
  } else {
    if (command.priceTicks !== null) return "order_type_invalid";
    if (command.timeInForce !== "ioc") return "time_in_force_invalid";
  }
  return null;
}

/** One conditional order's terms: a `place_perp_conditional_order`, or one leg of an OCO. */
export type ConditionalTerms = Omit<PlacePerpConditionalCommand, "type" | "atMs">;

/**
 * Why `terms` cannot wait on `account` (the mark, the market's limits, the trigger against the
 * mark), or null. Changes nothing.
 */
export function conditionalTermsCode(
  account: PerpAccount,
  terms: ConditionalTerms,
): RejectCode | null {
  if (!KINDS.includes(terms.kind)) return "conditional_kind_invalid";
  if (!selfTradeModes.includes(terms.selfTradeMode as SelfTradeMode)) {
    return "self_trade_mode_invalid";
  }
  const side = account.side;
  const params = side.market.params;
  if (side.mark === null) return "no_reference_price";
  const code = orderTermsCode(terms);
  if (code !== null) return code;
  if (terms.quantityLots < params.quantityLotsMin) return "quantity_below_minimum";
  if (terms.quantityLots > params.quantityLotsMax) return "quantity_too_high";
  const direction = perpDirectionOf(terms.kind as PerpConditionalKind, terms.side);
  const mark = side.mark.priceTicks;
  const trigger = BigInt(terms.triggerTicks);
  if (direction === "at_or_above" ? mark >= trigger : mark <= trigger) {
    return "trigger_would_fire_now";
  }
  return null;
}

/** Puts checked `terms` waiting on `account` under the next conditional id; returns it. */
export function addConditional(
  state: KernelState,
  account: PerpAccount,
  terms: ConditionalTerms,
  ocoWith: number,
): PerpConditional {
  const c: PerpConditional = {
    conditionalId: state.perp.conditionalIdNext++,
    clientOrderId: terms.id,
    account,
    kind: terms.kind as PerpConditionalKind,
    side: terms.side,
    orderType: terms.orderType,
    timeInForce: terms.timeInForce,
    triggerTicks: terms.triggerTicks,
    priceTicks: terms.priceTicks,
    quantityLots: terms.quantityLots,
    reduceOnly: terms.reduceOnly,
    selfTradeMode: terms.selfTradeMode as SelfTradeMode,
    createdAtMs: state.nowMs,
    ocoWith,
  };
  state.perp.conditionals.set(c.conditionalId, c);
  account.conditionals.add(c.conditionalId);
  indexConditional(c);
  emit(state, {
    type: "perp_conditional_placed",
    conditionalId: c.conditionalId,
    clientOrderId: c.clientOrderId,
    marketId: account.side.market.params.marketId,
    mode: account.side.mode,
    ownerId: account.owner.ownerId,
    kind: c.kind,
    side: c.side,
    orderType: c.orderType,
    timeInForce: c.timeInForce,
    triggerTicks: c.triggerTicks,
    priceTicks: c.priceTicks,
    quantityLots: c.quantityLots,
    reduceOnly: c.reduceOnly,
    selfTradeMode: c.selfTradeMode,
    ocoConditionalId: ocoWith === 0 ? null : ocoWith,
  });
  return c;
}

export const placePerpConditional: Handler<"place_perp_conditional_order"> = (state, command) => {
  const account = commandedAccount(state, command);
  if (typeof account === "string") return fail(account);
  const code = conditionalTermsCode(account, command);
  if (code !== null) return fail(code);
  if (account.conditionals.size >= state.options.openOrdersPerOwnerMax) {
    return fail("too_many_open_orders");
  }
  return ok({ orderId: addConditional(state, account, command, 0).conditionalId });
};

function drop(state: KernelState, c: PerpConditional): void {
  state.perp.conditionals.delete(c.conditionalId);
  c.account.conditionals.delete(c.conditionalId);
  c.account.side.triggers.remove(conditionalTriggerId(c.conditionalId));
}

function done(
  state: KernelState,
  c: PerpConditional,
  fields: Pick<
    PerpConditionalDoneEvent,
    "status" | "reason" | "markTicks" | "tickIds" | "orderId" | "rejectCode"
  >,
): void {
  emit(state, {
    type: "perp_conditional_done",
    conditionalId: c.conditionalId,
    marketId: c.account.side.market.params.marketId,
    mode: c.account.side.mode,
    ownerId: c.account.owner.ownerId,
    kind: c.kind,
    side: c.side,
    triggerTicks: c.triggerTicks,
    quantityLots: c.quantityLots,
    ...fields,
  });
}

function cancel(state: KernelState, c: PerpConditional, reason: string): void {
  drop(state, c);
  done(state, c, {
    status: "cancelled",
    reason,
    markTicks: null,
    tickIds: [],
    orderId: null,
    rejectCode: null,
  });
}

/** Ends the other leg of `c`'s OCO pair, if it is waiting (reason `oco`). */
function cancelPartner(state: KernelState, c: PerpConditional): void {
  if (c.ocoWith === 0) return;
  const partner = state.perp.conditionals.get(c.ocoWith);
  if (partner !== undefined) cancel(state, partner, "oco");
}

export const cancelPerpConditional: Handler<"cancel_perp_conditional_order"> = (state, command) => {
  const c = state.perp.conditionals.get(command.conditionalId);
  if (c === undefined || c.account.owner.ownerId !== command.ownerId) {
    return fail("order_not_found");
  }
  if (c.account.side.mode !== command.mode) return fail("mode_mismatch");
  cancel(state, c, "user");
  cancelPartner(state, c);
  return ok({ orderId: c.conditionalId });
};

/**
 * Fires a conditional order the mark reached (called from the tick's trigger loop): places its
 * order as a new order would be placed, and records the outcome with the mark's tick ids.
 */
export function fireConditional(state: KernelState, side: PerpSide, conditionalId: number): void {
  const c = state.perp.conditionals.get(conditionalId);
  if (c === undefined) return;
  drop(state, c);
  // The other leg ends before this one's order is placed, so it can never fire too.
  cancelPartner(state, c);
  const mark = side.mark!;
  const command: PlacePerpOrderCommand = {
    type: "place_perp_order",
    id: c.clientOrderId,
    atMs: state.nowMs,
    ownerId: c.account.owner.ownerId,
    mode: side.mode,
    marketId: side.market.params.marketId,
    side: c.side,
    orderType: c.orderType,
    timeInForce: c.timeInForce,
    priceTicks: c.priceTicks,
    quantityLots: c.quantityLots,
    reduceOnly: c.reduceOnly,
  };
  const result = placePerpOrder(state, command, c.selfTradeMode);
  done(state, c, {
    status: result.ok ? "triggered" : "rejected",
    reason: null,
    markTicks: mark.priceTicks,
    tickIds: [...mark.tickIds],
    orderId: result.ok ? result.value.orderId : null,
    rejectCode: result.ok ? null : result.code,
  });
}

/** A demo reset ends the owner's demo conditional orders (module.ts `onDemoReset`). */
export function cancelConditionalsOf(state: KernelState, account: PerpAccount): number {
  const ids = [...account.conditionals].sort((a, b) => a - b);
  for (const id of ids) cancel(state, state.perp.conditionals.get(id)!, "demo_reset");
  return ids.length;
}

/** An owner's waiting conditional perpetual orders, oldest first. */
export function getPerpConditionalOrders(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): Omit<PerpConditionalPlacedEvent, "type" | "mode" | "ownerId">[] {
  return [...state.perp.conditionals.values()]
    .filter((c) => c.account.owner.ownerId === ownerId && c.account.side.mode === mode)
    .sort((a, b) => a.conditionalId - b.conditionalId)
    .map((c) => ({
      conditionalId: c.conditionalId,
      clientOrderId: c.clientOrderId,
      marketId: c.account.side.market.params.marketId,
      kind: c.kind,
      side: c.side,
      orderType: c.orderType,
      timeInForce: c.timeInForce,
      triggerTicks: c.triggerTicks,
      priceTicks: c.priceTicks,
      quantityLots: c.quantityLots,
      reduceOnly: c.reduceOnly,
      selfTradeMode: c.selfTradeMode,
      ocoConditionalId: c.ocoWith === 0 ? null : c.ocoWith,
    }));
}
