// Perpetual orders and fills: trading a side, fees, the book listener, settling fills, order
// submission and cancellation. Money paths: engine.ts.

import { perpFeeBpsOf } from "./terms.ts";
import { assert } from "../assert.ts";
import type { BookFill, BookListener } from "../book/types.ts";
import { emit } from "../events.ts";
import { rebateCollectedFee } from "../funds/fee.ts";
import { recordVipVolume, vipFee } from "../vip/apply.ts";
import { recordAgentVolume } from "../agent/handlers.ts";
import { release } from "../ledger/post.ts";
import type { Account } from "../ledger/state.ts";
import type { PostingReason } from "../ledger/types.ts";
import type { KernelState } from "../state.ts";
import { liquidationFee } from "./liquidation.ts";
import type { PerpAccount, PerpOrder } from "./kernel-state.ts";
import { initialMargin } from "./margin.ts";
import { applyFill } from "./position.ts";
import { abs, BPS, divCeil, divFloor, max } from "./units.ts";
import {
  isFund,
  tickIdsOf,
  poolOf,
  type Refs,
  refsOf,
  take,
  settleRealised,
  releaseMargin,
  holdMargin,
} from "./engine.ts";

// ---- Fills ------------------------------------------------------------------------------------

export interface SideResult {
  realised: bigint;
  fee: bigint;
}

/**
 * One side of a trade of `deltaLots` at `priceTicks`: the position, realised PnL through
 * clearing, margin released on closing lots and taken on opening lots, and the fee (`feeTo`)
 * of `feeAmount` (taken as far as the cash allows, never as debt).
 */
export function tradeSide(
  state: KernelState,
  account: PerpAccount,
  deltaLots: bigint,
  priceTicks: bigint,
  feeAmount: bigint,
  feeTo: Account,
  feeReason: PostingReason,
  refs: Refs,
): SideResult {
  const side = account.side;
  const params = side.market.params;
  const u = params.tickLotUnits;
  const before = account.position;
  const outcome = applyFill(before, deltaLots, priceTicks, u);
  account.position = outcome.position;
  state.perp.touched.add(account);
  // A pure reduce pays its fee from the position's cash before a partial close releases margin
  // (the reference model's order); opening lots pay it from the wallet afterwards (the order's
  // fee reserve was released there).
  const pureReduce = outcome.openedLots === 0n;
  let fee = 0n;
  if (outcome.closedLots > 0n) {
    settleRealised(state, account, outcome.realisedPnl, refs);
    if (pureReduce) fee = take(state, account, feeTo, feeAmount, feeReason, refs);
    if (outcome.closedLots === abs(before.sizeLots)) {
      // Flat (or flipped): the old position's margin goes back to the wallet, and its
      // take-profit and stop-loss go with it (on a reversed position their sense would be
      // backwards and they would fire at once).
      releaseMargin(state, account, account.margin);
      account.takeProfitTicks = null;
      account.stopLossTicks = null;
    } else if (account.marginMode === "isolated") {
      releaseMargin(
        state,
        account,
        divFloor(account.margin * outcome.closedLots, abs(before.sizeLots)),
      );
    } else {
      releaseMargin(
        state,
        account,
        divFloor(account.margin * outcome.closedLots, abs(before.sizeLots)),
      );
    }
  }
  if (outcome.openedLots > 0n && !isFund(account.owner)) {
    const mark = side.mark === null ? priceTicks : side.mark.priceTicks;
    const gap = deltaLots > 0n ? priceTicks - mark : mark - priceTicks;
    const wanted =
      initialMargin(outcome.openedLots * priceTicks * u, account.leverage) +
      (account.marginMode === "isolated" ? outcome.openedLots * max(0n, gap) * u : 0n);
    holdMargin(state, account, wanted);
  }
  if (!pureReduce) fee = take(state, account, feeTo, feeAmount, feeReason, refs, true);
  return { realised: outcome.realisedPnl, fee };
}

export function tradeFee(notional: bigint, feeBps: number): bigint {
  return feeBps === 0 ? 0n : divCeil(notional * BigInt(feeBps), BPS);
}

/** Releases the share of an order's hold that `lots` of its remaining lots carried. */
function releaseOrderShare(state: KernelState, order: PerpOrder, lots: number): void {
  const remaining = order.quantityLots - order.filledLots;
  const share =
    lots >= remaining
      ? order.heldAmount
      : divFloor(order.heldAmount * BigInt(lots), BigInt(remaining));
  if (share > 0n) {
    release(state, order.account.wallet, share);
    order.heldAmount -= share;
  }
}

export function createPerpListener(state: KernelState): BookListener {
  return {
    onFill(fill: BookFill): void {
      settleFill(state, state.perp.taker!, fill);
    },
    onSelfTradeCancel(restingOrderId: number): void {
      const order = state.perp.orders.get(restingOrderId);
      assert(order !== undefined, "self-trade cancel of an unknown perp order");
      finishOrder(state, order, "cancelled");
    },
  };
}

function settleFill(state: KernelState, taker: PerpOrder, fill: BookFill): void {
  const perp = state.perp;
  const maker = perp.orders.get(fill.makerOrderId);
  assert(maker !== undefined, "perp fill against an unknown order");
  const side = taker.account.side;
  const params = side.market.params;
  const lots = BigInt(fill.quantityLots);
  const price = BigInt(fill.priceTicks);
  const notional = lots * price * params.tickLotUnits;
  const fillId = perp.fillIdNext++;
  releaseOrderShare(state, maker, fill.quantityLots);
  releaseOrderShare(state, taker, fill.quantityLots);
  const makerDelta = maker.side === "buy" ? lots : -lots;
  const makerRefs = refsOf(side, { orderId: maker.orderId, fillId });
  const takerRefs = refsOf(side, { orderId: taker.orderId, fillId });
  let takerFee: bigint;
  let takerFeeTo: Account;
  let takerReason: PostingReason;
  if (perp.liquidating) {
    const account = taker.account;
    takerFee = liquidationFee(params, account.position, poolOf(state, account), lots, price);
    takerFeeTo = side.fund;
    takerReason = "perp_liquidation_fee";
  } else {
    // Each order pays the rates in force when it was placed (operator changes: terms.ts), less
    // its owner's VIP discount (issue 23).
    takerFee = vipFee(state, side.mode, taker.account.owner.ownerId, tradeFee(notional, perpFeeBpsOf(taker, "taker"))); // prettier-ignore
    takerFeeTo = side.fees;
    takerReason = "perp_fee";
  }
  const makerSide = tradeSide(
    state,
    maker.account,
    makerDelta,
    price,
    vipFee(state, side.mode, maker.account.owner.ownerId, tradeFee(notional, perpFeeBpsOf(maker, "maker"))), // prettier-ignore
    side.fees,
    "perp_fee",
    makerRefs,
  );
  const takerSide = tradeSide(
    state,
    taker.account,
    -makerDelta,
    price,
    takerFee,
    takerFeeTo,
    takerReason,
    takerRefs,
  );
  // Trading fees (not the liquidation fee) rebate to an inviter out of the fee just taken.
  const rebate = (account: PerpAccount, amount: bigint, refs: typeof makerRefs): void =>
    rebateCollectedFee(state, { product: "perp", mode: side.mode, payerId: account.owner.ownerId, feeAccount: side.fees, amount, refs }); // prettier-ignore
  rebate(maker.account, makerSide.fee, makerRefs);
  if (takerReason === "perp_fee") rebate(taker.account, takerSide.fee, takerRefs);
  // The notional counts to both sides' 30-day VIP volume (in the settlement asset).
  recordVipVolume(state, side.mode, maker.account.owner.ownerId, side.fees.assetId, notional);
  recordVipVolume(state, side.mode, taker.account.owner.ownerId, side.fees.assetId, notional);
  recordAgentVolume(state, side.mode, maker.account.owner.ownerId, side.fees.assetId, notional);
  recordAgentVolume(state, side.mode, taker.account.owner.ownerId, side.fees.assetId, notional);
  maker.filledLots += fill.quantityLots;
  taker.filledLots += fill.quantityLots;
  emit(state, {
    type: "perp_fill",
    fillId,
    marketId: params.marketId,
    mode: side.mode,
    makerOrderId: maker.orderId,
    takerOrderId: taker.orderId,
    makerOwnerId: maker.account.owner.ownerId,
    takerOwnerId: taker.account.owner.ownerId,
    takerSide: taker.side,
    priceTicks: fill.priceTicks,
    quantityLots: fill.quantityLots,
    realisedMaker: makerSide.realised,
    realisedTaker: takerSide.realised,
    feeMaker: makerSide.fee,
    feeTaker: takerSide.fee,
    liquidation: perp.liquidating,
    tickIds: tickIdsOf(side),
  });
  if (fill.makerRemainingLots === 0) finishOrder(state, maker, "filled");
}

/** Releases what the order still holds and forgets it. */
export function finishOrder(
  state: KernelState,
  order: PerpOrder,
  status: "filled" | "cancelled" | "expired",
): void {
  const released = order.heldAmount;
  if (released > 0n) release(state, order.account.wallet, released);
  order.heldAmount = 0n;
  state.perp.orders.delete(order.orderId);
  order.account.orders.delete(order.orderId);
  state.perp.touched.add(order.account);
  emit(state, {
    type: "perp_order_done",
    orderId: order.orderId,
    status,
    filledLots: order.filledLots,
    releasedAmount: released,
  });
}

export function cancelPerpOrder(state: KernelState, order: PerpOrder): void {
  const resting = order.account.side.book.cancel(order.orderId);
  assert(resting !== undefined, "an open perp order was not in its book");
  finishOrder(state, order, "cancelled");
}

/** Submits an order already validated and held; returns the book's result. */
export function submitOrder(state: KernelState, order: PerpOrder) {
  const perp = state.perp;
  perp.orders.set(order.orderId, order);
  order.account.orders.add(order.orderId);
  perp.taker = order;
  const outcome = order.account.side.book.submit(
    {
      orderId: order.orderId,
      ownerId: order.account.owner.index,
      side: order.side,
      priceTicks: order.priceTicks,
      quantityLots: order.quantityLots,
      timeInForce: order.timeInForce,
      selfTradeMode: order.selfTradeMode ?? "cancel_resting",
    },
    perp.listener,
  );
  perp.taker = null;
  return outcome;
}
