// The perpetuals engine inside the kernel: money through the ledger (contract wallet, quote
// asset), positions, fills from the central order book, the trigger index, liquidation with the
// insurance fund, auto-deleveraging and negative-balance protection. Every function here runs
// inside an accepted command; validation happened before.

import { assert } from "../assert.ts";
import type { BookFill, BookListener } from "../book/types.ts";
import { emit } from "../events.ts";
import { accountOf } from "../ledger/accounts.ts";
import { hold, post, release } from "../ledger/post.ts";
import type { Account, OwnerState } from "../ledger/state.ts";
import type { PostingReason } from "../ledger/types.ts";
import type { RejectCode } from "../reject-codes.ts";
import type { KernelState } from "../state.ts";
import { systemOwners } from "../types.ts";
import {
  adlRanking,
  closeValueAtBankruptcy,
  liquidationFee,
  liquidationPlan,
  takeoverLots,
} from "./liquidation.ts";
import type { PerpPositionView } from "./kernel-types.ts";
import type { PerpAccount, PerpOrder, PerpSide, PerpState } from "./kernel-state.ts";
import {
  initialMargin,
  liquidationPriceTicks,
  marginState,
  positionMaintenance,
  type MarginPool,
} from "./margin.ts";
import {
  applyFill,
  applyTradeForQuote,
  closeForQuote,
  notional,
  unrealisedPnl,
} from "./position.ts";
import { abs, BPS, divCeil, divFloor, max, min } from "./units.ts";

declare module "../state.ts" {
  interface KernelSlices {
    perp: PerpState & PerpScratch;
  }
}

/** Per-command scratch: accounts whose position or money changed. */
export interface PerpScratch {
  touched: Set<PerpAccount>;
  byOwner: Map<string, PerpAccount[]>;
  listener: BookListener;
}

const ROUNDS_MAX = 10_000;

/**
 * The insurance fund is the one owner outside the margin rules: it holds no margin, is never
 * liquidated or deleveraged, and may go negative (the venue's loss, on its labelled account).
 * The market maker is an ordinary trader here: margin held, liquidated like anyone.
 */
export function isFund(owner: OwnerState): boolean {
  return owner.ownerId === systemOwners.insuranceFund;
}

/** The owner's record in a market side, created with the market's defaults. */
export function perpAccountOf(state: KernelState, side: PerpSide, owner: OwnerState): PerpAccount {
  const key = side.mode + "|" + owner.ownerId + "|" + side.market.params.marketId;
  let account = side.accounts.get(key);
  if (account === undefined) {
    account = {
      key,
      owner,
      side,
      wallet: accountOf(state, owner, "contract", side.market.params.quoteAssetId),
      leverage: side.market.params.leverageDefault,
      marginMode: "cross",
      position: { sizeLots: 0n, entryCost: 0n },
      margin: 0n,
      debt: 0n,
      takeProfitTicks: null,
      stopLossTicks: null,
      orders: new Set(),
    };
    side.accounts.set(key, account);
    const list = state.perp.byOwner.get(owner.key) ?? [];
    list.push(account);
    state.perp.byOwner.set(owner.key, list);
  }
  return account;
}

function tickIdsOf(side: PerpSide): string[] {
  return side.mark === null ? [] : [...side.mark.tickIds];
}

function markOf(side: PerpSide): bigint {
  assert(side.mark !== null, "no mark price");
  return side.mark.priceTicks;
}

// ---- Pools ------------------------------------------------------------------------------------

/** The owner's cross accounts in the same quote asset and mode (the account among them). */
export function crossSiblings(state: KernelState, account: PerpAccount): PerpAccount[] {
  return crossSiblingsOfWallet(state, account.wallet);
}

/** Every cross account an owner's contract-wallet account backs. */
export function crossSiblingsOfWallet(state: KernelState, wallet: Account): PerpAccount[] {
  const list = state.perp.byOwner.get(wallet.mode + "|" + wallet.ownerId) ?? [];
  return list.filter((other) => other.marginMode === "cross" && other.wallet === wallet);
}

/**
 * A transfer out of a contract wallet that backs cross positions may take at most
 * `available + margins − debts + min(ΣU, 0) − Σ initial margin at the mark`, and never more
 * than the available balance (the reference model's `maxWithdrawable`).
 */
export function outflowCode(
  state: KernelState,
  wallet: Account,
  amount: bigint,
): RejectCode | null {
  if (wallet.wallet !== "contract") return null;
  const cross = crossSiblingsOfWallet(state, wallet);
  if (!cross.some((a) => a.position.sizeLots !== 0n)) return null;
  let total = wallet.available;
  let unrealised = 0n;
  for (const account of cross) {
    total += account.margin - account.debt;
    const mark = account.side.mark;
    if (account.position.sizeLots === 0n || mark === null) continue;
    const u = account.side.market.params.tickLotUnits;
    unrealised += unrealisedPnl(account.position, mark.priceTicks, u);
    total -= initialMargin(
      notional(account.position.sizeLots, mark.priceTicks, u),
      account.leverage,
    );
  }
  const allowed = max(0n, min(wallet.available, total + min(unrealised, 0n)));
  return amount > allowed ? "insufficient_margin" : null;
}

/** What backs a position apart from its own PnL (see `MarginPool`). */
export function poolOf(state: KernelState, account: PerpAccount): MarginPool {
  if (account.marginMode === "isolated") {
    return { collateral: account.margin - account.debt, maintenanceOther: 0n };
  }
  let collateral = account.wallet.available;
  let maintenanceOther = 0n;
  for (const other of crossSiblings(state, account)) {
    collateral += other.margin - other.debt;
    if (other === account || other.position.sizeLots === 0n || other.side.mark === null) continue;
    const mark = other.side.mark.priceTicks;
    collateral += unrealisedPnl(other.position, mark, other.side.market.params.tickLotUnits);
    maintenanceOther += positionMaintenance(other.side.market.params, other.position, mark);
  }
  return { collateral, maintenanceOther };
}

/** Σ unrealised PnL of the owner's cross positions in the account's asset and mode, at their marks. */
export function crossUnrealised(state: KernelState, account: PerpAccount): bigint {
  let total = 0n;
  for (const other of crossSiblings(state, account)) {
    if (other.position.sizeLots === 0n || other.side.mark === null) continue;
    const u = other.side.market.params.tickLotUnits;
    total += unrealisedPnl(other.position, other.side.mark.priceTicks, u);
  }
  return total;
}

export function isLiquidatableNow(state: KernelState, account: PerpAccount): boolean {
  if (isFund(account.owner) || account.position.sizeLots === 0n || account.side.mark === null) {
    return false;
  }
  const params = account.side.market.params;
  return marginState(params, account.position, poolOf(state, account), markOf(account.side))
    .liquidatable;
}

export function positionView(state: KernelState, account: PerpAccount): PerpPositionView {
  const params = account.side.market.params;
  return {
    marketId: params.marketId,
    mode: account.side.mode,
    ownerId: account.owner.ownerId,
    marginMode: account.marginMode,
    leverage: account.leverage,
    sizeLots: account.position.sizeLots,
    entryCost: account.position.entryCost,
    margin: account.margin,
    debt: account.debt,
    liquidationTicks: isFund(account.owner)
      ? null
      : liquidationPriceTicks(params, account.position, poolOf(state, account)),
    takeProfitTicks: account.takeProfitTicks,
    stopLossTicks: account.stopLossTicks,
  };
}

/** Puts the account's liquidation, take-profit and stop-loss prices in its side's index. */
export function reindex(state: KernelState, account: PerpAccount): void {
  const triggers = account.side.triggers;
  const size = account.position.sizeLots;
  const params = account.side.market.params;
  const liquidationTicks =
    size === 0n || isFund(account.owner)
      ? null
      : liquidationPriceTicks(params, account.position, poolOf(state, account));
  if (liquidationTicks === null) triggers.remove("L|" + account.key);
  else {
    triggers.upsert({
      id: "L|" + account.key,
      priceTicks: liquidationTicks,
      direction: size > 0n ? "at_or_below" : "at_or_above",
    });
  }
  const spread =
    size !== 0n &&
    account.marginMode === "cross" &&
    !isFund(account.owner) &&
    crossSiblings(state, account).some(
      (other) => other.side !== account.side && other.position.sizeLots !== 0n,
    );
  if (spread) account.side.multiCross.add(account);
  else account.side.multiCross.delete(account);
  if (size === 0n) {
    account.takeProfitTicks = null;
    account.stopLossTicks = null;
  }
  const tp = account.takeProfitTicks;
  if (tp === null) triggers.remove("T|" + account.key);
  else {
    triggers.upsert({
      id: "T|" + account.key,
      priceTicks: tp,
      direction: size > 0n ? "at_or_above" : "at_or_below",
    });
  }
  const sl = account.stopLossTicks;
  if (sl === null) triggers.remove("S|" + account.key);
  else {
    triggers.upsert({
      id: "S|" + account.key,
      priceTicks: sl,
      direction: size > 0n ? "at_or_below" : "at_or_above",
    });
  }
}

// ---- Money ------------------------------------------------------------------------------------

interface Refs {
  orderId?: number | null;
  fillId?: number | null;
  tickId?: string | null;
}

function refsOf(side: PerpSide, extra: Refs = {}): Refs {
  const ids = side.mark?.tickIds;
  return { tickId: ids === undefined ? null : ids[ids.length - 1]!, ...extra };
}

/**
 * Takes up to `amount` from the account's cash (isolated: its margin; cross: the available
 * wallet, then its own position margin) and posts it to `to`. Returns what it took.
 */
function take(
  state: KernelState,
  account: PerpAccount,
  to: Account,
  amount: bigint,
  reason: PostingReason,
  refs: Refs,
  walletFirst = account.marginMode === "cross",
): bigint {
  if (amount <= 0n) return 0n;
  const wallet = account.wallet;
  if (isFund(account.owner)) {
    // The insurance fund (and the market maker) pay from their wallet; the fund's may go
    // negative (the venue's loss, visible on its labelled account).
    const paid = wallet.negativeAllowed ? amount : min(amount, max(0n, wallet.available));
    if (paid > 0n) post(state, { debit: wallet, credit: to, amount: paid, reason, refs });
    return paid;
  }
  let left = amount;
  if (walletFirst) {
    const fromWallet = min(left, max(0n, wallet.available));
    if (fromWallet > 0n)
      post(state, { debit: wallet, credit: to, amount: fromWallet, reason, refs });
    left -= fromWallet;
  }
  const fromMargin = min(left, account.margin);
  if (fromMargin > 0n) {
    post(state, { debit: wallet, credit: to, amount: fromMargin, debitHeld: true, reason, refs });
    account.margin -= fromMargin;
    left -= fromMargin;
  }
  state.perp.touched.add(account);
  return amount - left;
}

/** The account pays `amount` to clearing; what it cannot pay becomes its debt. */
function payClearing(
  state: KernelState,
  account: PerpAccount,
  amount: bigint,
  reason: PostingReason,
  refs: Refs,
): void {
  const paid = take(state, account, account.side.clearing, amount, reason, refs);
  account.debt += amount - paid;
}

/** The account receives `amount` from `from`: debts to clearing are settled first. */
function receive(
  state: KernelState,
  account: PerpAccount,
  from: Account,
  amount: bigint,
  reason: PostingReason,
  refs: Refs,
): void {
  if (amount <= 0n) return;
  let left = amount;
  if (account.debt > 0n) {
    const settled = min(account.debt, left);
    account.debt -= settled;
    left -= settled;
    if (from !== account.side.clearing) {
      post(state, { debit: from, credit: account.side.clearing, amount: settled, reason, refs });
    }
  }
  if (left > 0n) {
    post(state, { debit: from, credit: account.wallet, amount: left, reason, refs });
    if (account.marginMode === "isolated" && account.position.sizeLots !== 0n) {
      hold(state, account.wallet, left);
      account.margin += left;
    }
  }
  state.perp.touched.add(account);
}

function settleRealised(state: KernelState, account: PerpAccount, pnl: bigint, refs: Refs): void {
  if (pnl > 0n) receive(state, account, account.side.clearing, pnl, "perp_realised", refs);
  else if (pnl < 0n) payClearing(state, account, -pnl, "perp_realised", refs);
}

/** Releases margin (held → available). */
function releaseMargin(state: KernelState, account: PerpAccount, amount: bigint): void {
  if (amount <= 0n) return;
  release(state, account.wallet, amount);
  account.margin -= amount;
}

/** Holds up to `amount` of the available wallet as position margin; returns what it held. */
function holdMargin(state: KernelState, account: PerpAccount, amount: bigint): bigint {
  const held = min(amount, max(0n, account.wallet.available));
  if (held > 0n) {
    hold(state, account.wallet, held);
    account.margin += held;
  }
  return held;
}

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
      // Flat (or flipped): the old position's margin goes back to the wallet.
      releaseMargin(state, account, account.margin);
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
    takerFee = tradeFee(notional, params.feeBpsTaker);
    takerFeeTo = side.fees;
    takerReason = "perp_fee";
  }
  const makerSide = tradeSide(
    state,
    maker.account,
    makerDelta,
    price,
    tradeFee(notional, params.feeBpsMaker),
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
    },
    perp.listener,
  );
  perp.taker = null;
  return outcome;
}

// ---- After every change -----------------------------------------------------------------------

/** Reduce-only orders may not outgrow the position: cut (cancel) the newest that do. */
function trimReduceOnly(state: KernelState, account: PerpAccount): void {
  const size = account.position.sizeLots;
  let capacity = abs(size);
  const ids = [...account.orders].sort((a, b) => a - b);
  for (const id of ids) {
    const order = state.perp.orders.get(id)!;
    if (!order.reduceOnly) continue;
    const closing = order.side === "buy" ? size < 0n : size > 0n;
    const lots = BigInt(order.quantityLots - order.filledLots);
    if (closing && lots <= capacity) capacity -= lots;
    else cancelPerpOrder(state, order);
  }
}

/**
 * Settles the consequences of a change: reduce-only orders trimmed, triggers re-indexed,
 * positions reported, and every touched account liquidated while it is under maintenance.
 */
export function settleTouched(state: KernelState): void {
  const perp = state.perp;
  for (let round = 0; perp.touched.size > 0; round++) {
    assert(round < ROUNDS_MAX, "perp settlement does not end");
    const list = [...perp.touched].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    perp.touched.clear();
    // Cross siblings' pools depend on these accounts' money: they are re-indexed and checked too.
    const checked = new Set<PerpAccount>(list);
    for (const account of list) {
      trimReduceOnly(state, account);
      for (const other of crossSiblings(state, account)) {
        reindex(state, other);
        checked.add(other);
      }
      reindex(state, account);
      emit(state, { type: "perp_position_changed", position: positionView(state, account) });
    }
    const ordered = [...checked].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const account of ordered) {
      if (isLiquidatableNow(state, account)) liquidate(state, account);
      else if (account.position.sizeLots === 0n) coverNegative(state, account);
    }
  }
}

// ---- Liquidation ------------------------------------------------------------------------------

function fundAccount(state: KernelState, side: PerpSide): PerpAccount {
  const owner = state.ledger.owners.get(side.mode + "|" + systemOwners.insuranceFund)!;
  return perpAccountOf(state, side, owner);
}

function poolEquity(state: KernelState, account: PerpAccount): bigint {
  const side = account.side;
  const u = side.market.params.tickLotUnits;
  if (isFund(account.owner)) {
    return account.wallet.available + unrealisedPnl(account.position, markOf(side), u);
  }
  return poolOf(state, account).collateral + unrealisedPnl(account.position, markOf(side), u);
}

/** Liquidates an account under maintenance at its side's mark (docs/perpetuals.md §7). */
export function liquidate(state: KernelState, account: PerpAccount): void {
  const side = account.side;
  const params = side.market.params;
  for (const id of [...account.orders].sort((a, b) => a - b)) {
    cancelPerpOrder(state, state.perp.orders.get(id)!);
  }
  const plan = liquidationPlan(params, account.position, poolOf(state, account), side.mark!);
  if (plan === null) return;
  emit(state, {
    type: "perp_liquidation",
    marketId: params.marketId,
    mode: side.mode,
    ownerId: account.owner.ownerId,
    side: plan.side,
    lots: plan.lots,
    limitTicks: plan.limitTicks,
    markTicks: plan.markTicks,
    equity: plan.equity,
    maintenance: plan.maintenance,
    tickIds: plan.tickIds,
  });
  let remaining = plan.lots;
  if (plan.limitTicks !== null && plan.limitTicks <= BigInt(Number.MAX_SAFE_INTEGER)) {
    const order: PerpOrder = {
      orderId: state.perp.orderIdNext++,
      clientOrderId: state.command!.id,
      account,
      side: plan.side,
      orderType: "limit",
      timeInForce: "ioc",
      priceTicks: Math.min(Number(plan.limitTicks), 1_000_000_000_000),
      quantityLots: Number(plan.lots),
      filledLots: 0,
      reduceOnly: true,
      heldAmount: 0n,
      createdAtMs: state.nowMs,
    };
    state.perp.liquidating = true;
    const outcome = submitOrder(state, order);
    state.perp.liquidating = false;
    if (state.perp.orders.has(order.orderId)) {
      finishOrder(state, order, outcome.outcome === "filled" ? "filled" : "expired");
    }
    remaining -= BigInt(outcome.filledLots);
  }
  if (remaining > 0n && account.position.sizeLots !== 0n) takeOver(state, account);
  state.perp.touched.add(account);
  if (account.position.sizeLots === 0n) coverNegative(state, account);
}

function takeOver(state: KernelState, account: PerpAccount): void {
  const side = account.side;
  const u = side.market.params.tickLotUnits;
  const mark = markOf(side);
  const fund = fundAccount(state, side);
  const lotsAll = abs(account.position.sizeLots);
  const taken = takeoverLots(
    poolEquity(state, fund),
    account.position,
    poolOf(state, account).collateral,
    lotsAll,
    mark,
    u,
  );
  if (taken > 0n) fundTakes(state, account, fund, taken, false);
  if (account.position.sizeLots !== 0n) deleverage(state, account);
  if (account.position.sizeLots !== 0n) {
    fundTakes(state, account, fund, abs(account.position.sizeLots), true);
  }
}

function fundTakes(
  state: KernelState,
  account: PerpAccount,
  fund: PerpAccount,
  lots: bigint,
  forced: boolean,
): void {
  const side = account.side;
  const collateral = poolOf(state, account).collateral;
  const value = closeValueAtBankruptcy(account.position, collateral, lots);
  const long = account.position.sizeLots > 0n;
  const closed = closeForQuote(account.position, lots, value);
  const wasSize = abs(account.position.sizeLots);
  account.position = closed.position;
  const refs = refsOf(side);
  settleRealised(state, account, closed.realisedPnl, refs);
  // Takeovers and ADL release margin only when the position closes (the reference model).
  if (lots === wasSize) releaseMargin(state, account, account.margin);
  const trade = applyTradeForQuote(fund.position, long ? lots : -lots, value);
  fund.position = trade.position;
  settleRealised(state, fund, trade.realisedPnl, refs);
  state.perp.touched.add(fund);
  emit(state, {
    type: "perp_insurance_takeover",
    marketId: side.market.params.marketId,
    mode: side.mode,
    ownerId: account.owner.ownerId,
    lots,
    quoteAmount: value,
    forced,
    tickIds: tickIdsOf(side),
  });
}

function deleverage(state: KernelState, account: PerpAccount): void {
  const side = account.side;
  const u = side.market.params.tickLotUnits;
  const mark = markOf(side);
  const long = account.position.sizeLots > 0n;
  const opposite = [...side.accounts.values()].filter(
    (other) =>
      !isFund(other.owner) &&
      other !== account &&
      other.position.sizeLots !== 0n &&
      other.position.sizeLots > 0n !== long,
  );
  const ranking = adlRanking(
    opposite.map((other) => ({
      id: other.key,
      sizeLots: other.position.sizeLots,
      entryCost: other.position.entryCost,
      equity: poolEquity(state, other),
    })),
    mark,
    u,
  );
  for (const entry of ranking) {
    if (account.position.sizeLots === 0n) break;
    if (!entry.eligible) continue;
    const other = side.accounts.get(entry.id)!;
    const lotsMax = min(abs(account.position.sizeLots), abs(other.position.sizeLots));
    const collateral = poolOf(state, account).collateral;
    const lots = takeoverLots(
      poolEquity(state, other),
      account.position,
      collateral,
      lotsMax,
      mark,
      u,
    );
    if (lots === 0n) continue;
    const value = closeValueAtBankruptcy(account.position, collateral, lots);
    const refs = refsOf(side);
    for (const party of [account, other]) {
      const wasSize = abs(party.position.sizeLots);
      const closed = closeForQuote(party.position, lots, value);
      party.position = closed.position;
      settleRealised(state, party, closed.realisedPnl, refs);
      if (lots === wasSize) releaseMargin(state, party, party.margin);
      state.perp.touched.add(party);
    }
    emit(state, {
      type: "perp_auto_deleverage",
      marketId: side.market.params.marketId,
      mode: side.mode,
      ownerId: account.owner.ownerId,
      counterpartyId: other.owner.ownerId,
      lots,
      quoteAmount: value,
      rank: entry.rank,
      tickIds: tickIdsOf(side),
    });
  }
}

/**
 * Negative-balance protection: a flat account's debt is paid from its own wallet (cross) and
 * then by the insurance fund; an isolated position never costs more than its margin.
 */
export function coverNegative(state: KernelState, account: PerpAccount): void {
  if (account.debt === 0n || isFund(account.owner)) return;
  const side = account.side;
  const refs = refsOf(side);
  if (account.marginMode === "cross") {
    const own = min(account.debt, max(0n, account.wallet.available));
    if (own > 0n) {
      post(state, {
        debit: account.wallet,
        credit: side.clearing,
        amount: own,
        reason: "perp_realised",
        refs,
      });
      account.debt -= own;
    }
  }
  if (account.debt === 0n) return;
  const amount = account.debt;
  post(state, {
    debit: side.fund,
    credit: side.clearing,
    amount,
    reason: "perp_insurance_cover",
    refs,
  });
  account.debt = 0n;
  state.perp.touched.add(account);
  emit(state, {
    type: "perp_negative_balance_cover",
    marketId: side.market.params.marketId,
    mode: side.mode,
    ownerId: account.owner.ownerId,
    amount,
    tickIds: tickIdsOf(side),
  });
}

/**
 * reset_demo: the demo insurance fund takes the owner's demo position over at the mark (its
 * realised PnL through clearing, the margin released, any debt covered), so the owner's demo
 * money can go back to the faucet.
 */
export function closeAtMark(state: KernelState, account: PerpAccount): void {
  const side = account.side;
  const size = account.position.sizeLots;
  if (size === 0n) return;
  const lots = abs(size);
  const value = lots * markOf(side) * side.market.params.tickLotUnits;
  const refs = refsOf(side);
  const closed = closeForQuote(account.position, lots, value);
  account.position = closed.position;
  settleRealised(state, account, closed.realisedPnl, refs);
  releaseMargin(state, account, account.margin);
  const fund = fundAccount(state, side);
  const trade = applyTradeForQuote(fund.position, size > 0n ? lots : -lots, value);
  fund.position = trade.position;
  settleRealised(state, fund, trade.realisedPnl, refs);
  state.perp.touched.add(account);
  state.perp.touched.add(fund);
  emit(state, {
    type: "perp_insurance_takeover",
    marketId: side.market.params.marketId,
    mode: side.mode,
    ownerId: account.owner.ownerId,
    lots,
    quoteAmount: value,
    forced: false,
    tickIds: tickIdsOf(side),
  });
  coverNegative(state, account);
}

export { payClearing, receive };
