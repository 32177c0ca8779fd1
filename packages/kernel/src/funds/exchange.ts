// Quick exchange: a quote priced by the kernel from the recorded tape, then its acceptance
// against the labelled house account. No command carries a rate: the only price is the tick.

import { parseAmount } from "../amount/amount.ts";
import { accountOf, availableOf, findOwner, systemOwner } from "../ledger/accounts.ts";
import { ownerKey } from "../ledger/state.ts";
import { amountCode, post } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import type { MarketState } from "../reference/state.ts";
import { fail } from "../reject-codes.ts";
import { DONE, ok } from "../results.ts";
import type { KernelState } from "../state.ts";
import { systemOwners } from "../types.ts";
import { emit } from "../events.ts";
import { exchangeTargetAmount, PRICE_SCALE } from "./exchange-math.ts";
import type { ExchangeQuoteState } from "./state.ts";

/** Most standing quotes per owner and mode. */
export const QUOTES_PER_OWNER_MAX = 20;
/** Bounds of the terms a quote command may carry (the server's configuration). */
export const SPREAD_BPS_MAX = 1_000;
export const QUOTE_TTL_MS_MIN = 1_000;
export const QUOTE_TTL_MS_MAX = 60_000;
export const TICK_AGE_MS_MAX = 3_600_000;

/** The market joining two assets either way round, and which side the user takes. */
export function exchangeMarket(
  state: KernelState,
  sourceAssetId: string,
  targetAssetId: string,
): { market: MarketState; side: "buy" | "sell" } | undefined {
  // Markets are visited in definition order, so the choice is deterministic.
  for (const market of state.reference.markets.values()) {
    if (market.base.assetId === sourceAssetId && market.quote.assetId === targetAssetId) {
      return { market, side: "sell" };
    }
    if (market.quote.assetId === sourceAssetId && market.base.assetId === targetAssetId) {
      return { market, side: "buy" };
    }
  }
  return undefined;
}

export const exchangeQuote: Handler<"exchange_quote"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  if (
    !Number.isInteger(command.spreadBps) ||
    command.spreadBps < 0 ||
    command.spreadBps > SPREAD_BPS_MAX ||
    !Number.isInteger(command.ttlMs) ||
    command.ttlMs < QUOTE_TTL_MS_MIN ||
    command.ttlMs > QUOTE_TTL_MS_MAX ||
    !Number.isInteger(command.tickAgeMaxMs) ||
    command.tickAgeMaxMs < 1 ||
    command.tickAgeMaxMs > TICK_AGE_MS_MAX
  ) {
    return fail("quote_terms_invalid");
  }
  const source = state.reference.assets.get(command.sourceAssetId);
  const target = state.reference.assets.get(command.targetAssetId);
  if (source === undefined || target === undefined) return fail("asset_not_found");
  if (source === target) return fail("same_account");
  const code = amountCode(source, command.sourceAmount);
  if (code !== null) return fail(code);
  const found = exchangeMarket(state, source.assetId, target.assetId);
  if (found === undefined) return fail("market_not_found");
  const { market, side } = found;
  const tick = state.reference.ticks.get(market.instrumentId);
  if (tick === undefined) return fail("no_reference_price");
  if (command.atMs - tick.tickAtMs > command.tickAgeMaxMs) return fail("reference_price_stale");
  const price = parseAmount(tick.price, PRICE_SCALE);
  if (!price.ok || price.value <= 0n) return fail("no_reference_price");
  const ownerQuotes = state.funds.quotesPerOwner.get(owner.key) ?? 0;
  if (ownerQuotes >= QUOTES_PER_OWNER_MAX) return fail("too_many_quotes");
  if (availableOf(owner, "fund", source.assetId) < command.sourceAmount) {
    return fail("insufficient_balance");
  }
  const targetAmount = exchangeTargetAmount({
    side,
    priceScaled: price.value,
    spreadBps: command.spreadBps,
    baseScale: market.base.scale,
    quoteScale: market.quote.scale,
    sourceAmount: command.sourceAmount,
  });
  if (targetAmount <= 0n) return fail("quote_amount_too_small");
  if (targetAmount > (target.amountMax ?? targetAmount)) return fail("amount_above_maximum");
  const house = systemOwner(state, command.mode, systemOwners.house);
  if (availableOf(house, "fund", target.assetId) < targetAmount) return fail("house_insufficient");
  const quote: ExchangeQuoteState = {
    quoteId: command.id,
    ownerId: owner.ownerId,
    mode: owner.mode,
    sourceAssetId: source.assetId,
    sourceAmount: command.sourceAmount,
    targetAssetId: target.assetId,
    targetAmount,
    marketId: market.marketId,
    instrumentId: market.instrumentId,
    tickId: tick.tickId,
    price: tick.price,
    spreadBps: command.spreadBps,
    side,
    quotedAtMs: command.atMs,
    expiresAtMs: command.atMs + command.ttlMs,
  };
  state.funds.quotes.set(quote.quoteId, quote);
  state.funds.quotesPerOwner.set(owner.key, ownerQuotes + 1);
  emit(state, { type: "exchange_quoted", quote: { ...quote } });
  return DONE;
};

export const exchangeAccept: Handler<"exchange_accept"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  const quote = state.funds.quotes.get(command.quoteId);
  if (quote === undefined || quote.ownerId !== owner.ownerId || quote.mode !== owner.mode) {
    return fail("quote_not_found");
  }
  // A rejection changes nothing: the expired quote stays until the next clock_tick prunes it.
  if (command.atMs > quote.expiresAtMs) return fail("quote_expired");
  if (availableOf(owner, "fund", quote.sourceAssetId) < quote.sourceAmount) {
    return fail("insufficient_balance");
  }
  const house = systemOwner(state, owner.mode, systemOwners.house);
  if (availableOf(house, "fund", quote.targetAssetId) < quote.targetAmount) {
    return fail("house_insufficient");
  }
  const refs = { tickId: quote.tickId, reference: quote.quoteId };
  const paymentPostingSeq = post(state, {
    debit: accountOf(state, owner, "fund", quote.sourceAssetId),
    credit: accountOf(state, house, "fund", quote.sourceAssetId),
    amount: quote.sourceAmount,
    reason: "exchange",
    refs,
  });
  const deliveryPostingSeq = post(state, {
    debit: accountOf(state, house, "fund", quote.targetAssetId),
    credit: accountOf(state, owner, "fund", quote.targetAssetId),
    amount: quote.targetAmount,
    reason: "exchange",
    refs,
  });
  dropQuote(state, quote);
  emit(state, {
    type: "exchange_executed",
    quote: { ...quote },
    paymentPostingSeq,
    deliveryPostingSeq,
    atMs: command.atMs,
  });
  return ok({ postingSeq: paymentPostingSeq });
};

function dropQuote(state: KernelState, quote: ExchangeQuoteState): void {
  const funds = state.funds;
  funds.quotes.delete(quote.quoteId);
  const key = ownerKey(quote.mode, quote.ownerId);
  const count = (funds.quotesPerOwner.get(key) ?? 1) - 1;
  if (count > 0) funds.quotesPerOwner.set(key, count);
  else funds.quotesPerOwner.delete(key);
}

/** clock_tick: forget quotes past their expiry (a later accept answers `quote_not_found`). */
export function pruneQuotes(state: KernelState): void {
  for (const quote of state.funds.quotes.values()) {
    if (quote.expiresAtMs < state.nowMs) dropQuote(state, quote);
  }
}

/** Standing quote of an owner, for the server's answer (duplicates carry no events). */
export function quoteOf(state: KernelState, quoteId: string): ExchangeQuoteState | undefined {
  return state.funds.quotes.get(quoteId);
}
