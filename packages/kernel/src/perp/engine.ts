// The perpetuals engine inside the kernel: money through the ledger (contract wallet, quote
// asset), positions, fills from the central order book, the trigger index, liquidation with the
// insurance fund, auto-deleveraging and negative-balance protection. Every function here runs
// inside an accepted command; validation happened before.

import { assert } from "../assert.ts";
import type { BookListener } from "../book/types.ts";
import { emit } from "../events.ts";
import { accountOf } from "../ledger/accounts.ts";
import { hold, post, release } from "../ledger/post.ts";
import type { Account, OwnerState } from "../ledger/state.ts";
import type { PostingReason } from "../ledger/types.ts";
import type { RejectCode } from "../reject-codes.ts";
import type { KernelState } from "../state.ts";
import { systemOwners } from "../types.ts";
import type { PerpPositionView } from "./kernel-types.ts";
import type { PerpAccount, PerpSide, PerpState } from "./kernel-state.ts";
import {
  initialMargin,
  liquidationPriceTicks,
  marginState,
  positionMaintenance,
  type MarginPool,
} from "./margin.ts";
import { notional, unrealisedPnl } from "./position.ts";
import { abs, max, min } from "./units.ts";
import { liquidate, coverNegative } from "./liquidation-engine.ts";
import { cancelPerpOrder } from "./fills.ts";

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
      conditionals: new Set(),
    };
    side.accounts.set(key, account);
    const list = state.perp.byOwner.get(owner.key) ?? [];
    list.push(account);
    state.perp.byOwner.set(owner.key, list);
  }
  return account;
}

export function tickIdsOf(side: PerpSide): string[] {
  return side.mark === null ? [] : [...side.mark.tickIds];
}

export function markOf(side: PerpSide): bigint {
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

export interface Refs {
  orderId?: number | null;
  fillId?: number | null;
  tickId?: string | null;
}

export function refsOf(side: PerpSide, extra: Refs = {}): Refs {
  const ids = side.mark?.tickIds;
  return { tickId: ids === undefined ? null : ids[ids.length - 1]!, ...extra };
}

/**
 * Takes up to `amount` from the account's cash (isolated: its margin; cross: the available
 * wallet, then its own position margin) and posts it to `to`. Returns what it took.
 */
export function take(
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
export function payClearing(
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
export function receive(
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

export function settleRealised(
  state: KernelState,
  account: PerpAccount,
  pnl: bigint,
  refs: Refs,
): void {
  if (pnl > 0n) receive(state, account, account.side.clearing, pnl, "perp_realised", refs);
  else if (pnl < 0n) payClearing(state, account, -pnl, "perp_realised", refs);
}

/** Releases margin (held → available). */
export function releaseMargin(state: KernelState, account: PerpAccount, amount: bigint): void {
  if (amount <= 0n) return;
  release(state, account.wallet, amount);
  account.margin -= amount;
}

/** Holds up to `amount` of the available wallet as position margin; returns what it held. */
export function holdMargin(state: KernelState, account: PerpAccount, amount: bigint): bigint {
  const held = min(amount, max(0n, account.wallet.available));
  if (held > 0n) {
    hold(state, account.wallet, held);
    account.margin += held;
  }
  return held;
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
