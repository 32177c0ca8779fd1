// Perpetuals liquidation: into the book at the bankruptcy price, then the insurance fund, then
// auto-deleveraging; covering negative balances (docs/perpetuals.md §7). Money paths: engine.ts.

import { emit } from "../events.ts";
import { post } from "../ledger/post.ts";
import type { KernelState } from "../state.ts";
import { systemOwners } from "../types.ts";
import {
  adlRanking,
  closeValueAtBankruptcy,
  liquidationPlan,
  takeoverLots,
} from "./liquidation.ts";
import type { PerpAccount, PerpOrder, PerpSide } from "./kernel-state.ts";
import { applyTradeForQuote, closeForQuote, unrealisedPnl } from "./position.ts";
import { abs, max, min } from "./units.ts";
import {
  isFund,
  perpAccountOf,
  tickIdsOf,
  markOf,
  poolOf,
  refsOf,
  payClearing,
  receive,
  settleRealised,
  releaseMargin,
} from "./engine.ts";
import { finishOrder, cancelPerpOrder, submitOrder } from "./fills.ts";

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
