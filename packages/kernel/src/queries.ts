// Read-only views of kernel state. They return fresh plain objects, sorted deterministically.

import { withdrawalView } from "./funds/movements.ts";
import type { ExchangeQuoteView, WithdrawalView } from "./funds/types.ts";
import { balanceView, compareStrings, ownerOf } from "./ledger/accounts.ts";
import { accountKey } from "./ledger/state.ts";
import type { AccountBalance, Posting } from "./ledger/types.ts";
import { marketView } from "./reference/markets.ts";
import type { AssetView, MarketView, Tick } from "./reference/types.ts";
import type { ConditionalOrderView, DepthView, OrderView } from "./spot/types.ts";
import { conditionalView, orderView } from "./spot/views.ts";
import type { KernelState } from "./state.ts";
import type { Mode, Wallet } from "./types.ts";

/** An owner's non-empty accounts in one mode, sorted by wallet then asset. */
export function getBalances(state: KernelState, ownerId: string, mode: Mode): AccountBalance[] {
  const owner = ownerOf(state, mode, ownerId);
  if (owner === undefined) return [];
  const out: AccountBalance[] = [];
  for (const account of owner.accounts.values()) {
    if (account.available === 0n && account.held === 0n && account.postingSlots.length === 0)
      continue;
    out.push(balanceView(account));
  }
  return out.sort((a, b) => compareStrings(a.account, b.account));
}

/** One account's balances (zero when it was never used). */
export function getBalance(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  wallet: Wallet,
  assetId: string,
): AccountBalance {
  const key = accountKey(ownerId, mode, wallet, assetId);
  const account = state.ledger.accounts.get(key);
  if (account !== undefined) return balanceView(account);
  return { account: key, ownerId, mode, wallet, assetId, available: 0n, held: 0n };
}

/** True when the owner has opened accounts in `mode` (system owners always have). */
export function isOpen(state: KernelState, ownerId: string, mode: Mode): boolean {
  return ownerOf(state, mode, ownerId) !== undefined;
}

/** An owner's open orders in one mode (optionally one market), oldest first. */
export function getOpenOrders(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  marketId: string | null = null,
): OrderView[] {
  const owner = ownerOf(state, mode, ownerId);
  if (owner === undefined) return [];
  const out: OrderView[] = [];
  const ids = [...(state.spot.openByOwner[owner.index] ?? [])].sort((a, b) => a - b);
  for (const orderId of ids) {
    const order = state.spot.orders.get(orderId)!;
    if (marketId === null || order.market.marketId === marketId) out.push(orderView(order));
  }
  return out;
}

/** An owner's pending conditional orders in one mode (optionally one market), oldest first. */
export function getConditionalOrders(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  marketId: string | null = null,
): ConditionalOrderView[] {
  const owner = ownerOf(state, mode, ownerId);
  if (owner === undefined) return [];
  const out: ConditionalOrderView[] = [];
  const ids = [...(state.spot.conditionalsByOwner[owner.index] ?? [])].sort((a, b) => a - b);
  for (const orderId of ids) {
    const order = state.spot.conditionals.get(orderId)!;
    if (marketId === null || order.market.marketId === marketId) {
      out.push(conditionalView(order));
    }
  }
  return out;
}

/** A pending conditional order by id; undefined once it fired or was cancelled. */
export function getConditionalOrder(
  state: KernelState,
  orderId: number,
): ConditionalOrderView | undefined {
  const order = state.spot.conditionals.get(orderId);
  return order === undefined ? undefined : conditionalView(order);
}

/** An open order by id; undefined once it is filled, cancelled or expired. */
export function getOrder(state: KernelState, orderId: number): OrderView | undefined {
  const order = state.spot.orders.get(orderId);
  return order === undefined ? undefined : orderView(order);
}

/** Up to `levels` price levels per side of one market's book in one mode, best first. */
export function getDepth(
  state: KernelState,
  marketId: string,
  mode: Mode,
  levels: number,
): DepthView | undefined {
  const market = state.reference.markets.get(marketId);
  if (market === undefined) return undefined;
  const book = mode === "real" ? market.bookReal : market.bookDemo;
  return {
    marketId,
    mode,
    bids: book.depth("buy", levels).map((level) => ({ ...level })),
    asks: book.depth("sell", levels).map((level) => ({ ...level })),
  };
}

/** The last recorded tick of an instrument. */
export function getLastTick(state: KernelState, instrumentId: string): Tick | undefined {
  const tick = state.reference.ticks.get(instrumentId);
  return tick === undefined ? undefined : { ...tick };
}

/** Every market, sorted by id. */
export function getMarkets(state: KernelState): MarketView[] {
  return [...state.reference.markets.values()]
    .map(marketView)
    .sort((a, b) => compareStrings(a.marketId, b.marketId));
}

/**
 * The markets of one instrument, sorted by id (what `getMarkets` filtered by instrument gives),
 * without building every market's view: the order path looks one up per order.
 */
export function getMarketsOfInstrument(state: KernelState, instrumentId: string): MarketView[] {
  const markets = state.reference.marketsByInstrument.get(instrumentId);
  if (markets === undefined) return [];
  const views = markets.map(marketView);
  return views.length > 1 ? views.sort((a, b) => compareStrings(a.marketId, b.marketId)) : views;
}

/** One market by id, or undefined. */
export function getMarket(state: KernelState, marketId: string): MarketView | undefined {
  const market = state.reference.markets.get(marketId);
  return market === undefined ? undefined : marketView(market);
}

/** Every asset, sorted by id. */
export function getAssets(state: KernelState): AssetView[] {
  return [...state.reference.assets.values()]
    .map((asset) => ({ ...asset }))
    .sort((a, b) => compareStrings(a.assetId, b.assetId));
}

/** A withdrawal by id. */
export function getWithdrawal(
  state: KernelState,
  withdrawalId: string,
): WithdrawalView | undefined {
  const withdrawal = state.funds.withdrawals.get(withdrawalId);
  return withdrawal === undefined ? undefined : withdrawalView(withdrawal);
}

/**
 * A statement: the postings of one account, oldest first, starting after posting `afterSeq`,
 * at most `limit` of them. The kernel keeps the latest `statementPostingsMax` per account;
 * older lines come from the server's statement tables.
 */
export function getStatement(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  wallet: Wallet,
  assetId: string,
  afterSeq = 0,
  limit = 100,
): Posting[] {
  const account = state.ledger.accounts.get(accountKey(ownerId, mode, wallet, assetId));
  if (account === undefined) return [];
  const log = state.ledger.postingLog;
  const out: Posting[] = [];
  for (const slot of account.postingSlots) {
    if (log.seqOf(slot) <= afterSeq) continue;
    out.push(log.posting(slot));
    if (out.length >= limit) break;
  }
  return out;
}

/** Kernel time: the latest `atMs` applied. */
export function getNowMs(state: KernelState): number {
  return state.nowMs;
}

/** A standing quick-exchange quote (until accepted, or pruned after its expiry). */
export function getExchangeQuote(
  state: KernelState,
  quoteId: string,
): ExchangeQuoteView | undefined {
  const quote = state.funds.quotes.get(quoteId);
  return quote === undefined ? undefined : { ...quote };
}

/** What the operator owes its users in one mode, per asset, for a proof of liabilities. */
export interface Liabilities {
  /** Every asset id, sorted: the order of `values`. */
  assets: string[];
  /** Every user owner (system owners excluded), sorted by id, with available + held per asset. */
  owners: { ownerId: string; values: bigint[] }[];
}

/**
 * Each user's liabilities in `mode`: the sum over their wallets of available and held (open
 * orders' holds included) per asset. Users with nothing are listed too, so they can check that
 * they are in the tree with zero.
 */
export function getLiabilities(state: KernelState, mode: Mode): Liabilities {
  const assets = [...state.reference.assets.keys()].sort(compareStrings);
  const column = new Map(assets.map((assetId, i) => [assetId, i]));
  const owners: Liabilities["owners"] = [];
  const byMode = mode === "real" ? state.ledger.ownersReal : state.ledger.ownersDemo;
  for (const owner of byMode.values()) {
    if (owner.system) continue;
    const values = assets.map(() => 0n);
    for (const account of owner.accounts.values()) {
      const i = column.get(account.assetId)!;
      values[i]! += account.available + account.held;
    }
    owners.push({ ownerId: owner.ownerId, values });
  }
  owners.sort((a, b) => compareStrings(a.ownerId, b.ownerId));
  return { assets, owners };
}

/** Every system account of one mode with what it holds (available + held), by owner then asset. */
export function getSystemBalances(
  state: KernelState,
  mode: Mode,
): { ownerId: string; assetId: string; amount: bigint }[] {
  const out: { ownerId: string; assetId: string; amount: bigint }[] = [];
  const byMode = mode === "real" ? state.ledger.ownersReal : state.ledger.ownersDemo;
  for (const owner of byMode.values()) {
    if (!owner.system) continue;
    for (const account of owner.accounts.values()) {
      const amount = account.available + account.held;
      if (amount !== 0n) out.push({ ownerId: owner.ownerId, assetId: account.assetId, amount });
    }
  }
  return out.sort(
    (a, b) => compareStrings(a.ownerId, b.ownerId) || compareStrings(a.assetId, b.assetId),
  );
}

/**
 * Every account of the labelled system owners in one mode (fees, treasury, market maker, house,
 * insurance fund, …), wallet by wallet, for the back office: non-empty or ever posted to, sorted
 * by account key.
 */
export function getSystemAccounts(state: KernelState, mode: Mode): AccountBalance[] {
  const out: AccountBalance[] = [];
  const byMode = mode === "real" ? state.ledger.ownersReal : state.ledger.ownersDemo;
  for (const owner of byMode.values()) {
    if (!owner.system) continue;
    for (const account of owner.accounts.values()) {
      if (account.available === 0n && account.held === 0n && account.postingSlots.length === 0)
        continue;
      out.push(balanceView(account));
    }
  }
  return out.sort((a, b) => compareStrings(a.account, b.account));
}
