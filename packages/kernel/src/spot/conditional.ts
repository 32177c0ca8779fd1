// Conditional spot orders (stop, take-profit, OCO) and the size-only amend. Triggers use the
// perpetuals' sorted trigger index, so a tick costs O(log n + triggered), and fire only from
// ticks of the recorded tape (record_tick), never from trades.

import { parseAmount, SCALE_MAX } from "../amount/amount.ts";
import { assert } from "../assert.ts";
import { selfTradeModes, type SelfTradeMode } from "../book/types.ts";
import { emit } from "../events.ts";
import { accountOf, availableOf } from "../ledger/accounts.ts";
import { amountCode, hold, release } from "../ledger/post.ts";
import type { OwnerState } from "../ledger/state.ts";
import { PRICE_TICKS_MAX } from "../market-units.ts";
import type { Handler } from "../module.ts";
import type { TriggerDirection } from "../perp/trigger-index.ts";
import type { MarketState } from "../reference/state.ts";
import type { Tick } from "../reference/types.ts";
import { fail, type RejectCode } from "../reject-codes.ts";
import { ok } from "../results.ts";
import type { KernelState } from "../state.ts";
import { holdFor, limitCode, lotsCode } from "./holds.ts";
import { commandedOrder, openOrdersMax, traderOwner } from "./orders.ts";
import { placeWith } from "./place.ts";
import { replaceOrder } from "./replace.ts";
import { cancelOpenOrder, dropConditional, triggerId, triggersOf } from "./settle.ts";
import { conditionalIds, setHeld, type ConditionalState } from "./state.ts";
import type { ConditionalKind, OrderType, PlaceOrderCommand, Side, TimeInForce } from "./types.ts";
import { conditionalView } from "./views.ts";

/** When a conditional order fires: a buy stop and a sell take-profit when the price rises. */
export function directionOf(kind: ConditionalKind, side: Side): TriggerDirection {
  return (kind === "stop") === (side === "buy") ? "at_or_above" : "at_or_below";
}

/** A tick price in the tape's scaled units (the scale of `priceStepScaled`). */
function scaledPrice(price: string): bigint {
  const parsed = parseAmount(price, SCALE_MAX);
  assert(parsed.ok, "tick price was validated");
  return parsed.value;
}

/** The trigger price in the tape's scaled units. */
export function triggerScaled(market: MarketState, triggerTicks: number): bigint {
  return BigInt(triggerTicks) * market.priceStepScaled;
}

/** True when the last tick already reaches the trigger (so it would fire at once). */
function firesNow(
  state: KernelState,
  market: MarketState,
  direction: TriggerDirection,
  triggerTicks: number,
): boolean {
  const tick = state.reference.ticks.get(market.instrumentId);
  assert(tick !== undefined, "a market with a tick id has a last tick");
  const last = scaledPrice(tick.price);
  const trigger = triggerScaled(market, triggerTicks);
  return direction === "at_or_above" ? last >= trigger : last <= trigger;
}

function triggerCode(triggerTicks: number): RejectCode | null {
  if (triggerTicks <= 0) return "price_must_be_positive";
  if (triggerTicks > PRICE_TICKS_MAX) return "price_too_high";
  return null;
}

interface Terms {
  orderType: OrderType;
  timeInForce: TimeInForce;
  priceTicks: number | null;
  quantityLots: number | null;
  quoteAmount: bigint | null;
  hold: bigint;
}

/** Validates the order a conditional will place and what it holds until then. */
function termsOf(
  market: MarketState,
  side: Side,
  orderType: OrderType,
  timeInForce: TimeInForce,
  priceTicks: number | null,
  quantityLots: number | null,
  quoteAmount: bigint | null,
): Terms | RejectCode {
  const isBuy = side === "buy";
  if (orderType === "limit") {
    if (priceTicks === null || quantityLots === null) return "command_malformed";
    if (quoteAmount !== null) return "order_type_invalid";
    const code = limitCode(market, priceTicks, quantityLots);
    if (code !== null) return code;
    const hold = holdFor(market, isBuy, priceTicks, quantityLots);
    return { orderType, timeInForce, priceTicks, quantityLots, quoteAmount: null, hold };
  }
  if (timeInForce !== "ioc") return "time_in_force_invalid";
  if (priceTicks !== null) return "order_type_invalid";
  if (isBuy) {
    // The price a market buy will pay is unknown until it fires: it spends a quote amount,
    // held in full now.
    if (quoteAmount === null || quantityLots !== null) return "order_type_invalid";
    const code = amountCode(market.quote, quoteAmount);
    if (code !== null) return code;
    return {
      orderType,
      timeInForce,
      priceTicks: null,
      quantityLots: null,
      quoteAmount,
      hold: quoteAmount,
    };
  }
  if (quantityLots === null || quoteAmount !== null) return "order_type_invalid";
  const code = lotsCode(market, quantityLots);
  if (code !== null) return code;
  const hold = holdFor(market, false, 0, quantityLots);
  return { orderType, timeInForce, priceTicks: null, quantityLots, quoteAmount: null, hold };
}

/** The owner may keep one more pending conditional order. */
function roomFor(state: KernelState, owner: OwnerState): boolean {
  return conditionalIds(state.spot, owner).size < openOrdersMax(state, owner);
}

function addConditional(state: KernelState, order: ConditionalState): void {
  const spot = state.spot;
  spot.conditionals.set(order.orderId, order);
  conditionalIds(spot, order.owner).add(order.orderId);
  triggersOf(state, order.market.marketId, order.owner.mode).upsert({
    id: triggerId(order.orderId),
    priceTicks: triggerScaled(order.market, order.triggerTicks),
    direction: order.direction,
  });
}

export const placeConditionalOrder: Handler<"place_conditional_order"> = (state, command) => {
  const market = state.reference.markets.get(command.marketId);
  if (market === undefined) return fail("market_not_found");
  const owner = traderOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (!market.open) return fail("market_closed");
  const kind = command.kind as ConditionalKind;
  if (kind !== "stop" && kind !== "take_profit") return fail("conditional_kind_invalid");
  const selfTradeMode = command.selfTradeMode as SelfTradeMode;
  if (!selfTradeModes.includes(selfTradeMode)) return fail("self_trade_mode_invalid");
  const code = triggerCode(command.triggerTicks);
  if (code !== null) return fail(code);
  const terms = termsOf(
    market,
    command.side,
    command.orderType,
    command.timeInForce,
    command.priceTicks,
    command.quantityLots,
    command.quoteAmount,
  );
  if (typeof terms === "string") return fail(terms);
  if (market.tickId === null) return fail("no_reference_price");
  const direction = directionOf(kind, command.side);
  if (firesNow(state, market, direction, command.triggerTicks)) {
    return fail("trigger_would_fire_now");
  }
  const isBuy = command.side === "buy";
  const holdAssetId = isBuy ? market.quote.assetId : market.base.assetId;
  if (availableOf(owner, "fund", holdAssetId) < terms.hold) return fail("insufficient_balance");
  if (!roomFor(state, owner)) return fail("too_many_open_orders");

  const holdAccount = accountOf(state, owner, "fund", holdAssetId);
  hold(state, holdAccount, terms.hold);
  const order: ConditionalState = {
    orderId: state.spot.orderIdNext++,
    clientOrderId: command.id,
    owner,
    market,
    side: command.side,
    kind,
    orderType: terms.orderType,
    timeInForce: terms.timeInForce,
    triggerTicks: command.triggerTicks,
    direction,
    priceTicks: terms.priceTicks,
    quantityLots: terms.quantityLots,
    quoteAmount: terms.quoteAmount,
    selfTradeMode,
    heldAmount: terms.hold,
    holdAccount,
    ocoOrderId: 0,
    createdAtMs: command.atMs,
  };
  addConditional(state, order);
  emit(state, { type: "conditional_accepted", order: conditionalView(order) });
  return ok({ orderId: order.orderId });
};

export const placeOcoOrder: Handler<"place_oco_order"> = (state, command) => {
  const market = state.reference.markets.get(command.marketId);
  if (market === undefined) return fail("market_not_found");
  const owner = traderOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (!market.open) return fail("market_closed");
  const selfTradeMode = command.selfTradeMode as SelfTradeMode;
  if (!selfTradeModes.includes(selfTradeMode)) return fail("self_trade_mode_invalid");
  const isBuy = command.side === "buy";
  const limit = limitCode(market, command.limitPriceTicks, command.quantityLots);
  if (limit !== null) return fail(limit);
  const code = triggerCode(command.triggerTicks);
  if (code !== null) return fail(code);
  const stopIsLimit = command.stopPriceTicks !== null;
  // A market buy needs a quote amount, which the pair's shared quantity cannot give.
  if (!stopIsLimit && isBuy) return fail("order_type_invalid");
  const terms = termsOf(
    market,
    command.side,
    stopIsLimit ? "limit" : "market",
    stopIsLimit ? "gtc" : "ioc",
    command.stopPriceTicks,
    command.quantityLots,
    null,
  );
  if (typeof terms === "string") return fail(terms);
  if (market.tickId === null) return fail("no_reference_price");
  const direction = directionOf("stop", command.side);
  if (firesNow(state, market, direction, command.triggerTicks)) {
    return fail("trigger_would_fire_now");
  }
  // The pair holds the larger of its legs' needs: the limit leg its own, the stop leg the rest.
  const limitHold = holdFor(market, isBuy, command.limitPriceTicks, command.quantityLots);
  const extra = terms.hold > limitHold ? terms.hold - limitHold : 0n;
  const holdAssetId = isBuy ? market.quote.assetId : market.base.assetId;
  if (availableOf(owner, "fund", holdAssetId) < limitHold + extra) {
    return fail("insufficient_balance");
  }
  if (!roomFor(state, owner)) return fail("too_many_open_orders");
  // The limit leg is post-only (Binance's LIMIT_MAKER): it rests or the pair is refused.
  const placed = placeWith(
    state,
    {
      type: "place_order",
      id: command.id,
      atMs: command.atMs,
      ownerId: command.ownerId,
      mode: command.mode,
      marketId: command.marketId,
      side: command.side,
      orderType: "limit",
      timeInForce: "post_only",
      priceTicks: command.limitPriceTicks,
      quantityLots: command.quantityLots,
      quoteAmount: null,
    },
    selfTradeMode,
    0,
  );
  if (!placed.ok) return placed;
  assert(placed.value.orderStatus === "open", "a post-only leg that was accepted rests");
  const leg = state.spot.orders.get(placed.value.orderId)!;
  const holdAccount = leg.holdAccount;
  if (extra > 0n) hold(state, holdAccount, extra);
  const order: ConditionalState = {
    orderId: state.spot.orderIdNext++,
    clientOrderId: command.id,
    owner,
    market,
    side: command.side,
    kind: "stop",
    orderType: terms.orderType,
    timeInForce: terms.timeInForce,
    triggerTicks: command.triggerTicks,
    direction,
    priceTicks: terms.priceTicks,
    quantityLots: terms.quantityLots,
    quoteAmount: null,
    selfTradeMode,
    heldAmount: extra,
    holdAccount,
    ocoOrderId: leg.orderId,
    createdAtMs: command.atMs,
  };
  leg.ocoConditionalId = order.orderId;
  addConditional(state, order);
  emit(state, { type: "conditional_accepted", order: conditionalView(order) });
  return ok({ orderId: order.orderId });
};

/** record_tick: fire the conditional orders of the tick's markets that the price reached. */
export function fireConditionals(state: KernelState, tick: Tick): void {
  const spot = state.spot;
  if (spot.conditionals.size === 0) return;
  const markets = state.reference.marketsByInstrument.get(tick.instrumentId);
  if (markets === undefined) return;
  const price = scaledPrice(tick.price);
  for (const market of markets) {
    for (const mode of ["real", "demo"] as const) {
      const index = spot.triggers.get(market.marketId + "|" + mode);
      if (index === undefined || index.size === 0) continue;
      for (const trigger of index.fire(price)) {
        const order = spot.conditionals.get(Number(trigger.id));
        // An earlier trigger of this tick may have cancelled it (an OCO leg's fill).
        if (order === undefined) continue;
        fire(state, order, tick);
      }
    }
  }
}

/** Places a conditional order's order: its hold is released and taken again by the order. */
function fire(state: KernelState, order: ConditionalState, tick: Tick): void {
  dropConditional(state, order);
  // An OCO pair: the limit leg goes first, so its hold is free for the stop leg's order.
  const legId = order.ocoOrderId;
  if (legId !== 0) {
    order.ocoOrderId = 0;
    const leg = state.spot.orders.get(legId);
    if (leg !== undefined) {
      leg.ocoConditionalId = 0;
      cancelOpenOrder(state, leg, "oco");
    }
  }
  const released = order.heldAmount;
  if (released > 0n) release(state, order.holdAccount, released);
  order.heldAmount = 0n;
  emit(state, {
    type: "conditional_triggered",
    orderId: order.orderId,
    tickId: tick.tickId,
    tickPrice: tick.price,
    releasedAmount: released,
  });
  const command: PlaceOrderCommand = {
    type: "place_order",
    id: order.clientOrderId,
    atMs: state.nowMs,
    ownerId: order.owner.ownerId,
    mode: order.owner.mode,
    marketId: order.market.marketId,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    priceTicks: order.priceTicks,
    quantityLots: order.quantityLots,
    quoteAmount: order.quoteAmount,
  };
  const placed = placeWith(state, command, order.selfTradeMode, order.orderId);
  emit(state, {
    type: "conditional_done",
    orderId: order.orderId,
    status: placed.ok ? "triggered" : "rejected",
    reason: null,
    resultOrderId: placed.ok ? placed.value.orderId : null,
    rejectCode: placed.ok ? null : placed.code,
    tickId: tick.tickId,
    releasedAmount: 0n,
  });
}

/** What a pending conditional order must hold (see `PlaceOcoOrderCommand` for OCO). */
export function expectedConditionalHold(state: KernelState, order: ConditionalState): bigint {
  const market = order.market;
  const isBuy = order.side === "buy";
  const own =
    order.orderType === "limit"
      ? holdFor(market, isBuy, order.priceTicks!, order.quantityLots!)
      : isBuy
        ? order.quoteAmount!
        : holdFor(market, false, 0, order.quantityLots!);
  if (order.ocoOrderId === 0) return own;
  const leg = state.spot.orders.get(order.ocoOrderId);
  assert(leg !== undefined, `OCO stop ${order.orderId} lost its limit leg`);
  return own > leg.heldAmount ? own - leg.heldAmount : 0n;
}

/** amend_order_size: see `AmendOrderSizeCommand`. */
export const amendOrderSize: Handler<"amend_order_size"> = (state, command) => {
  const order = commandedOrder(state, command.ownerId, command.mode, command.orderId);
  if (typeof order === "string") return fail(order);
  const market = order.market;
  if (!market.open) return fail("market_closed");
  if (order.ocoConditionalId !== 0) return fail("order_type_invalid");
  const lots = command.quantityLots;
  const code = lotsCode(market, lots);
  if (code !== null) return fail(code);
  const remaining = order.quantityLots - order.filledLots;
  if (lots > remaining) {
    // Larger: a replace at the same price, which loses the time priority.
    return replaceOrder(state, {
      type: "replace_order",
      id: command.id,
      atMs: command.atMs,
      ownerId: command.ownerId,
      mode: command.mode,
      orderId: command.orderId,
      priceTicks: order.priceTicks,
      quantityLots: lots,
    });
  }
  if (lots < remaining) {
    const resting = order.book.reduce(order.orderId, lots);
    assert(resting !== undefined, "an open order was not in its book");
    order.quantityLots = order.filledLots + lots;
    const needed = holdFor(market, order.side === "buy", order.priceTicks, lots);
    const released = order.heldAmount - needed;
    assert(released >= 0n, "a smaller order needs a larger hold");
    if (released > 0n) release(state, order.holdAccount, released);
    setHeld(order, needed);
    emit(state, {
      type: "order_amended",
      orderId: order.orderId,
      remainingLots: lots,
      heldAmount: needed,
      releasedAmount: released,
    });
  }
  return ok({ orderId: order.orderId, orderStatus: "open", filledLots: 0, restingLots: lots });
};
