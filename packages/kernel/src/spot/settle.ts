// Settling what the book reports: fills (trade and fee postings out of the holds), self-trade
// cancels, and orders that rest, fill, expire or are cancelled.

import { divCeil } from "../amount/amount.ts";
import { assert } from "../assert.ts";
import type { BookFill, BookListener } from "../book/types.ts";
import { post, release, releaseUnitsOnly } from "../ledger/post.ts";
import type { OwnerState } from "../ledger/state.ts";
import type { KernelState } from "../state.ts";
import { holdFor, holdUnits } from "./holds.ts";
import {
  conditionalIds,
  openOrderIds,
  setHeld,
  setHeldUnits,
  type ConditionalState,
  type OrderState,
} from "./state.ts";
import type { CancelReason } from "./types.ts";
import { emit } from "../events.ts";
import { createTriggerIndex, type TriggerIndex } from "../perp/trigger-index.ts";
import { collectFee } from "../funds/fee.ts";
import { feeBpsOf } from "./fees.ts";
import { recordVipVolume, vipFee } from "../vip/apply.ts";
import { recordAgentVolume } from "../agent/handlers.ts";

const BPS = 10_000n;

/** The kernel's one book listener: settles fills of `state.spot.taker` and self-trade cancels. */
export function createListener(state: KernelState): BookListener {
  return {
    onFill(fill: BookFill): void {
      settleFill(state, state.spot.taker!, fill);
    },
    onSelfTradeCancel(restingOrderId: number, remainingLots: number): void {
      const order = state.spot.orders.get(restingOrderId);
      assert(order !== undefined, "self-trade cancel of an unknown order");
      assert(order.quantityLots - order.filledLots === remainingLots, "resting lots disagree");
      finishCancelled(state, order, "self_trade");
    },
  };
}

/** Fee on what a side receives, rounded up: the venue never under-collects (≤ 1 unit). */
function feeOf(amount: bigint, feeBps: number): bigint {
  if (feeBps === 0) return 0n;
  return divCeil(amount * BigInt(feeBps), BPS);
}

function settleFill(state: KernelState, taker: OrderState, fill: BookFill): void {
  const spot = state.spot;
  const maker = spot.orders.get(fill.makerOrderId);
  assert(maker !== undefined, "fill against an unknown order");
  const market = taker.market;
  const baseAmount = holdFor(market, false, 0, fill.quantityLots);
  const quoteAmount = holdFor(market, true, fill.priceTicks, fill.quantityLots);
  const fillId = spot.fillIdNext++;
  const tickId = market.tickId;
  const takerBuys = taker.side === "buy";
  const buyer = takerBuys ? taker : maker;
  const seller = takerBuys ? maker : taker;
  const buyerRefs = { orderId: buyer.orderId, fillId, tickId };
  const sellerRefs = { orderId: seller.orderId, fillId, tickId };
  // Both legs come out of the holds placed when each order was accepted.
  post(state, {
    debit: buyer.quoteAccount,
    credit: seller.quoteAccount,
    amount: quoteAmount,
    debitHeld: true,
    reason: "trade",
    refs: buyerRefs,
  });
  setHeld(buyer, buyer.heldAmount - quoteAmount);
  post(state, {
    debit: seller.baseAccount,
    credit: buyer.baseAccount,
    amount: baseAmount,
    debitHeld: true,
    reason: "trade",
    refs: sellerRefs,
  });
  setHeld(seller, seller.heldAmount - baseAmount);
  assert(buyer.heldAmount >= 0n && seller.heldAmount >= 0n, "order hold went negative");
  // Each side pays its fee in what it receives: the buyer in base, the seller in quote.
  const makerAccount = takerBuys ? maker.quoteAccount : maker.baseAccount;
  const takerAccount = takerBuys ? taker.baseAccount : taker.quoteAccount;
  // Each order pays the rates in force when it was placed (operator changes: fees.ts), less its
  // owner's VIP discount (issue 23).
  const mode = taker.owner.mode;
  const feeMaker = vipFee(state, mode, maker.owner.ownerId, feeOf(takerBuys ? quoteAmount : baseAmount, feeBpsOf(maker, "maker"))); // prettier-ignore
  const feeTaker = vipFee(state, mode, taker.owner.ownerId, feeOf(takerBuys ? baseAmount : quoteAmount, feeBpsOf(taker, "taker"))); // prettier-ignore
  collectFee(state, {
    product: "spot",
    mode: taker.owner.mode,
    payer: makerAccount,
    amount: feeMaker,
    reason: "fee_maker",
    refs: takerBuys ? sellerRefs : buyerRefs,
  });
  collectFee(state, {
    product: "spot",
    mode: taker.owner.mode,
    payer: takerAccount,
    amount: feeTaker,
    reason: "fee_taker",
    refs: takerBuys ? buyerRefs : sellerRefs,
  });
  // Both sides traded `quoteAmount` of the quote asset: it counts to their 30-day VIP volume.
  recordVipVolume(state, mode, maker.owner.ownerId, buyer.quoteAccount.assetId, quoteAmount);
  recordVipVolume(state, mode, taker.owner.ownerId, buyer.quoteAccount.assetId, quoteAmount);
  // And to their inviters' team volume (agents, issue 23).
  recordAgentVolume(state, mode, maker.owner.ownerId, buyer.quoteAccount.assetId, quoteAmount);
  recordAgentVolume(state, mode, taker.owner.ownerId, buyer.quoteAccount.assetId, quoteAmount);
  maker.filledLots += fill.quantityLots;
  taker.filledLots += fill.quantityLots;
  // The first fill of an OCO limit leg cancels its stop leg (Binance does the same).
  if (maker.ocoConditionalId !== 0) breakOco(state, maker);
  if (taker.ocoConditionalId !== 0) breakOco(state, taker);
  assert(
    maker.quantityLots - maker.filledLots === fill.makerRemainingLots,
    "maker lots disagree with the book",
  );
  emit(state, {
    type: "fill",
    fillId,
    marketId: market.marketId,
    mode: taker.owner.mode,
    makerOrderId: maker.orderId,
    takerOrderId: taker.orderId,
    makerOwnerId: maker.owner.ownerId,
    takerOwnerId: taker.owner.ownerId,
    takerSide: taker.side,
    priceTicks: fill.priceTicks,
    quantityLots: fill.quantityLots,
    baseAmount,
    quoteAmount,
    feeMaker,
    feeMakerAssetId: makerAccount.assetId,
    feeTaker,
    feeTakerAssetId: takerAccount.assetId,
    tickId,
    atMs: state.nowMs,
  });
  if (fill.makerRemainingLots === 0) {
    assert(maker.heldAmount === 0n, "a filled maker still holds funds");
    removeOpenOrder(state, maker, "filled");
  }
}

export function removeOpenOrder(
  state: KernelState,
  order: OrderState,
  status: "filled" | "cancelled" | "expired",
): void {
  order.status = status;
  state.spot.orders.delete(order.orderId);
  openOrderIds(state.spot, order.owner).delete(order.orderId);
  emit(state, {
    type: "order_done",
    orderId: order.orderId,
    status,
    filledLots: order.filledLots,
  });
  // The limit leg of an OCO pair left the book: its stop leg goes with it.
  if (order.ocoConditionalId !== 0) breakOco(state, order);
}

/** The limit leg of an OCO pair traded or left: cancel its pending stop leg. */
function breakOco(state: KernelState, order: OrderState): void {
  const conditionalId = order.ocoConditionalId;
  order.ocoConditionalId = 0;
  const conditional = state.spot.conditionals.get(conditionalId);
  if (conditional !== undefined) {
    conditional.ocoOrderId = 0;
    cancelConditional(state, conditional, "oco");
  }
}

/**
 * The incoming order met its owner's resting order under `cancel_incoming` or `cancel_both`:
 * what it did not fill is cancelled (reason `self_trade`), never rested.
 */
export function settleSelfTradeStopped(state: KernelState, order: OrderState): void {
  finishCancelled(state, order, "self_trade");
}

/** Releases an open (already out of the book) order's hold and reports it cancelled. */
function finishCancelled(state: KernelState, order: OrderState, reason: CancelReason): void {
  const released = order.heldAmount;
  // The hold's exact double (when it is one) lets `release` skip the BigInt arithmetic.
  const units = order.heldUnits;
  if (units > 0 || (units < 0 && released > 0n)) {
    release(state, order.holdAccount, released, units >= 0 ? units : Number.NaN);
  }
  setHeld(order, 0n);
  emit(state, {
    type: "order_cancelled",
    orderId: order.orderId,
    reason,
    remainingLots: order.quantityLots - order.filledLots,
    releasedAmount: released,
  });
  removeOpenOrder(state, order, "cancelled");
}

export function cancelOpenOrder(state: KernelState, order: OrderState, reason: CancelReason): void {
  const resting = order.book.cancel(order.orderId);
  assert(resting !== undefined, "an open order was not in its book");
  finishCancelled(state, order, reason);
}

/** Cancels an owner's open orders (in one market, or all), oldest first; returns how many. */
export function cancelOwnerOrders(
  state: KernelState,
  owner: OwnerState,
  marketId: string | null,
  reason: CancelReason,
): number {
  const ids = [...openOrderIds(state.spot, owner)].sort((a, b) => a - b);
  let count = 0;
  for (const orderId of ids) {
    const order = state.spot.orders.get(orderId);
    // An OCO limit leg may have gone with its stop leg.
    if (order === undefined) continue;
    if (marketId !== null && order.market.marketId !== marketId) continue;
    cancelOpenOrder(state, order, reason);
    count++;
  }
  const pending = [...conditionalIds(state.spot, owner)].sort((a, b) => a - b);
  for (const orderId of pending) {
    const conditional = state.spot.conditionals.get(orderId);
    if (conditional === undefined) continue;
    if (marketId !== null && conditional.market.marketId !== marketId) continue;
    cancelConditional(state, conditional, reason);
    count++;
  }
  return count;
}

/**
 * The remainder rests: keep exactly its hold (a buy that filled below its limit gets change).
 * `neededUnits` is that hold as an exact double when the caller knows it, else -1.
 */
export function settleRest(
  state: KernelState,
  order: OrderState,
  restingLots: number,
  joining: boolean,
  neededUnits: number,
): void {
  assert(restingLots === order.quantityLots - order.filledLots, "resting lots disagree");
  const isBuy = order.side === "buy";
  const units =
    neededUnits >= 0 ? neededUnits : holdUnits(order.market, isBuy, order.priceTicks, restingLots);
  const heldUnits = order.heldUnits;
  if (units >= 0 && heldUnits >= 0) {
    // Both exact: compare and subtract in doubles.
    if (heldUnits !== units) {
      assert(heldUnits > units, "a resting order holds too little");
      const excess = heldUnits - units;
      releaseUnitsOnly(state, order.holdAccount, excess);
      setHeldUnits(order, units);
    }
  } else {
    const needed = holdFor(order.market, isBuy, order.priceTicks, restingLots);
    if (order.heldAmount !== needed) {
      const excess = order.heldAmount - needed;
      assert(excess > 0n, "a resting order holds too little");
      release(state, order.holdAccount, excess);
      setHeld(order, needed);
    }
  }
  // A replaced order that rests again never left its owner's open set.
  if (joining) openOrderIds(state.spot, order.owner).add(order.orderId);
  emit(state, {
    type: "order_rested",
    orderId: order.orderId,
    priceTicks: order.priceTicks,
    remainingLots: restingLots,
    heldAmount: order.heldAmount,
  });
}

/** Filled or expired: release whatever is still held and forget the order. */
export function settleGone(
  state: KernelState,
  order: OrderState,
  status: "filled" | "expired",
): void {
  const units = order.heldUnits;
  if (units > 0 || (units < 0 && order.heldAmount > 0n)) {
    release(state, order.holdAccount, order.heldAmount, units >= 0 ? units : Number.NaN);
  }
  setHeld(order, 0n);
  removeOpenOrder(state, order, status);
}

/** The trigger index of a market's book in one mode (made on first use). */
export function triggersOf(state: KernelState, marketId: string, mode: string): TriggerIndex {
  const key = marketId + "|" + mode;
  let index = state.spot.triggers.get(key);
  if (index === undefined) {
    index = createTriggerIndex();
    state.spot.triggers.set(key, index);
  }
  return index;
}

/** The trigger index id of a conditional order: fixed width, so ids sort as numbers. */
export function triggerId(orderId: number): string {
  return orderId.toString().padStart(16, "0");
}

/** Forgets a pending conditional order (index, owner list, map); its hold stays as it is. */
export function dropConditional(state: KernelState, order: ConditionalState): void {
  const spot = state.spot;
  spot.conditionals.delete(order.orderId);
  conditionalIds(spot, order.owner).delete(order.orderId);
  triggersOf(state, order.market.marketId, order.owner.mode).remove(triggerId(order.orderId));
}

/**
 * Cancels a pending conditional order: releases its hold and, for an OCO stop leg, cancels the
 * limit leg too.
 */
export function cancelConditional(
  state: KernelState,
  order: ConditionalState,
  reason: CancelReason,
): void {
  dropConditional(state, order);
  const released = order.heldAmount;
  if (released > 0n) release(state, order.holdAccount, released);
  order.heldAmount = 0n;
  emit(state, {
    type: "conditional_done",
    orderId: order.orderId,
    status: "cancelled",
    reason,
    resultOrderId: null,
    rejectCode: null,
    tickId: null,
    releasedAmount: released,
  });
  const legId = order.ocoOrderId;
  if (legId !== 0) {
    order.ocoOrderId = 0;
    const leg = state.spot.orders.get(legId);
    if (leg !== undefined) {
      leg.ocoConditionalId = 0;
      cancelOpenOrder(state, leg, "oco");
    }
  }
}
