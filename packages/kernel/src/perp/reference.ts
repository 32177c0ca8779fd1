// The reference model of one perpetual market: accounts with cross or isolated margin,
// positions, fills at given prices, resting liquidity for liquidation orders, mark prices,
// premium samples and funding, liquidation with the insurance fund, auto-deleveraging and
// negative-balance protection. It is slow and obvious on purpose (every command copies the
// whole state; every check scans every account) and composes the pure functions of this
// folder, so the kernel's `perp/` product can be property-tested against it.

import { averagePremiumE8, fundingRateE8, fundingSettlement, premiumE8FromMid } from "./funding.ts";
import { markPrice } from "./mark-price.ts";
import { initialMargin, maxRemovableMargin, maxWithdrawable } from "./margin.ts";
import { notionalMaxForLeverage } from "./params.ts";
import { notional, unrealisedPnl } from "./position.ts";
import type { RejectCode as PerpRejectCode } from "../reject-codes.ts";
import { runLiquidations } from "./reference-liquidation.ts";
import type { RefAccount, RefCommand, RefEvent, RefState } from "./reference-state.ts";
import {
  addCash,
  cloneReferenceState,
  isSystem,
  markTicksOf,
  openAccount,
  tradeSide,
} from "./reference-state.ts";
import { abs, BPS } from "./units.ts";

export type {
  MarginMode,
  RefAccount,
  RefCommand,
  RefEvent,
  RefRestingOrder,
  RefState,
} from "./reference-state.ts";
export { createReferenceState, INSURANCE_FUND_ID } from "./reference-state.ts";

/** A command's outcome: the new state and its events, or a code (and the old state stands). */
export type RefOutcome =
  { ok: true; state: RefState; events: RefEvent[] } | { ok: false; code: PerpRejectCode };

/**
 * Applies one command to a copy of `state`. After every accepted command the liquidation pass
 * runs at the current mark, so no user is ever left under maintenance or below zero.
 */
export function applyReference(state: RefState, command: RefCommand): RefOutcome {
  const next = cloneReferenceState(state);
  const events: RefEvent[] = [];
  const code = run(next, command, events);
  if (code !== null) return { ok: false, code };
  runLiquidations(next, events);
  return { ok: true, state: next, events };
}

/** Applies commands in order, skipping rejected ones; returns the final state and all events. */
export function runReference(
  state: RefState,
  commands: readonly RefCommand[],
): { state: RefState; events: RefEvent[]; rejected: PerpRejectCode[] } {
  let current = state;
  const events: RefEvent[] = [];
  const rejected: PerpRejectCode[] = [];
  for (const command of commands) {
    const outcome = applyReference(current, command);
    if (outcome.ok) {
      current = outcome.state;
      events.push(...outcome.events);
    } else {
      rejected.push(outcome.code);
    }
  }
  return { state: current, events, rejected };
}

function run(state: RefState, command: RefCommand, events: RefEvent[]): PerpRejectCode | null {
  switch (command.type) {
    case "deposit":
      return deposit(state, command.ownerId, command.amount);
    case "withdraw":
      return withdraw(state, command.ownerId, command.amount);
    case "set_leverage":
      return setLeverage(state, command.ownerId, command.leverage);
    case "set_margin_mode": {
      const account = userAccount(state, command.ownerId);
      if (typeof account === "string") return account;
      if (account.position.sizeLots !== 0n) return "margin_mode_locked";
      account.marginMode = command.marginMode;
      return null;
    }
    case "add_margin":
    case "remove_margin":
      return moveMargin(state, command.ownerId, command.amount, command.type === "add_margin");
    case "fill":
      return fill(state, command, events);
    case "rest": {
      if (!state.accounts.has(command.ownerId)) return "account_not_found";
      if (command.lots <= 0n) return "quantity_must_be_positive";
      if (command.priceTicks <= 0n) return "price_must_be_positive";
      state.book.push({ orderId: state.orderIdNext++, ...withoutType(command) });
      return null;
    }
    case "mark": {
      if (command.indexTicks < 1n) return "price_must_be_positive";
      const index = { tickId: command.tickId, priceTicks: command.indexTicks };
      const book = { bidTicks: command.bidTicks, askTicks: command.askTicks };
      state.mark = markPrice(state.market, index, book);
      events.push({ type: "mark", mark: state.mark });
      return null;
    }
    case "premium": {
      const last = state.premiumSamples[state.premiumSamples.length - 1];
      if (command.atMs < state.fundingStartMs || (last !== undefined && command.atMs < last.atMs)) {
        return "time_went_backwards";
      }
      if (command.indexTicks < 1n) return "price_must_be_positive";
      const premiumE8 = premiumE8FromMid(command.indexTicks, command.bidTicks, command.askTicks);
      state.premiumSamples.push({ atMs: command.atMs, tickId: command.tickId, premiumE8 });
      return null;
    }
    case "settle_funding":
      return settleFunding(state, command.atMs, events);
  }
}

function withoutType<T extends { type: string }>(command: T): Omit<T, "type"> {
  const { type: _type, ...rest } = command;
  return rest;
}

/** A user's account (system owners do not choose leverage or margin). */
function userAccount(state: RefState, ownerId: string): RefAccount | PerpRejectCode {
  if (isSystem(ownerId)) return "owner_not_allowed";
  return state.accounts.get(ownerId) ?? "account_not_found";
}

function deposit(state: RefState, ownerId: string, amount: bigint): PerpRejectCode | null {
  if (ownerId.length === 0) return "owner_id_invalid";
  if (amount <= 0n) return "amount_must_be_positive";
  openAccount(state, ownerId).wallet += amount;
  state.netDeposits += amount;
  return null;
}

function withdraw(state: RefState, ownerId: string, amount: bigint): PerpRejectCode | null {
  const account = state.accounts.get(ownerId);
  if (account === undefined) return "account_not_found";
  if (amount <= 0n) return "amount_must_be_positive";
  let available = account.wallet;
  if (account.marginMode === "cross" && account.position.sizeLots !== 0n) {
    if (state.mark === null) return "no_reference_price";
    const mark = markTicksOf(state);
    const u = state.market.tickLotUnits;
    const margin = initialMargin(notional(account.position.sizeLots, mark, u), account.leverage);
    available = maxWithdrawable(account.wallet, unrealisedPnl(account.position, mark, u), margin);
  }
  if (amount > available) return "insufficient_balance";
  account.wallet -= amount;
  state.netDeposits -= amount;
  return null;
}

function setLeverage(state: RefState, ownerId: string, leverage: number): PerpRejectCode | null {
  const account = userAccount(state, ownerId);
  if (typeof account === "string") return account;
  if (!Number.isSafeInteger(leverage) || leverage < 1 || leverage > state.market.leverageMax) {
    return "leverage_invalid";
  }
  if (account.position.sizeLots !== 0n) {
    if (state.mark === null) return "no_reference_price";
    const mark = markTicksOf(state);
    const u = state.market.tickLotUnits;
    const value = notional(account.position.sizeLots, mark, u);
    const cap = notionalMaxForLeverage(state.market, leverage);
    if (cap !== null && value > cap) return "leverage_above_tier";
    const pnl = unrealisedPnl(account.position, mark, u);
    if (account.marginMode === "cross" && account.wallet + pnl < initialMargin(value, leverage)) {
      return "insufficient_margin";
    }
  }
  account.leverage = leverage;
  return null;
}

function moveMargin(
  state: RefState,
  ownerId: string,
  amount: bigint,
  add: boolean,
): PerpRejectCode | null {
  const account = userAccount(state, ownerId);
  if (typeof account === "string") return account;
  if (account.marginMode !== "isolated") return "position_not_isolated";
  if (account.position.sizeLots === 0n) return "position_not_found";
  if (amount <= 0n) return "amount_must_be_positive";
  if (add) {
    if (amount > account.wallet) return "insufficient_balance";
    account.wallet -= amount;
    account.isolatedMargin += amount;
    return null;
  }
  if (state.mark === null) return "no_reference_price";
  const mark = markTicksOf(state);
  const u = state.market.tickLotUnits;
  const margin = initialMargin(notional(account.position.sizeLots, mark, u), account.leverage);
  const pnl = unrealisedPnl(account.position, mark, u);
  if (amount > maxRemovableMargin(account.isolatedMargin, pnl, margin)) {
    return "margin_remove_too_much";
  }
  account.isolatedMargin -= amount;
  account.wallet += amount;
  return null;
}

function fill(
  state: RefState,
  command: Extract<RefCommand, { type: "fill" }>,
  events: RefEvent[],
): PerpRejectCode | null {
  const market = state.market;
  if (state.mark === null) return "no_reference_price";
  if (command.buyerId === command.sellerId) return "same_account";
  const buyer = state.accounts.get(command.buyerId);
  const seller = state.accounts.get(command.sellerId);
  if (buyer === undefined || seller === undefined) return "account_not_found";
  if (command.lots <= 0n) return "quantity_must_be_positive";
  if (command.lots > BigInt(market.quantityLotsMax)) return "quantity_too_high";
  if (command.priceTicks <= 0n) return "price_must_be_positive";
  const mark = markTicksOf(state);
  if (abs(command.priceTicks - mark) * BPS > mark * BigInt(market.priceBandBps)) {
    return "price_outside_band";
  }
  const buyerFeeBps = command.taker === "buy" ? market.feeBpsTaker : market.feeBpsMaker;
  const sellerFeeBps = command.taker === "sell" ? market.feeBpsTaker : market.feeBpsMaker;
  const bought = tradeSide(state, buyer, command.lots, command.priceTicks, buyerFeeBps, events);
  if (typeof bought === "string") return bought;
  const sold = tradeSide(state, seller, -command.lots, command.priceTicks, sellerFeeBps, events);
  if (typeof sold === "string") return sold;
  events.push({
    type: "fill",
    buyerId: buyer.ownerId,
    sellerId: seller.ownerId,
    lots: command.lots,
    priceTicks: command.priceTicks,
    feeBuyer: bought.fee,
    feeSeller: sold.fee,
    realisedBuyer: bought.realised,
    realisedSeller: sold.realised,
    liquidatedId: null,
    tickIds: [...state.mark.tickIds],
  });
  return null;
}

function settleFunding(state: RefState, atMs: number, events: RefEvent[]): PerpRejectCode | null {
  const last = state.premiumSamples[state.premiumSamples.length - 1];
  if (atMs <= state.fundingStartMs || (last !== undefined && atMs < last.atMs)) {
    return "time_went_backwards";
  }
  if (state.mark === null) return "no_reference_price";
  const samples = state.premiumSamples;
  const rate = fundingRateE8(state.market, averagePremiumE8(samples, state.fundingStartMs, atMs));
  const holders = [...state.accounts.values()].filter((a) => a.position.sizeLots !== 0n);
  const settlement = fundingSettlement(
    state.market,
    holders.map((a) => ({ id: a.ownerId, sizeLots: a.position.sizeLots })),
    state.mark,
    rate,
    samples,
  );
  for (const payment of settlement.payments)
    addCash(state.accounts.get(payment.id)!, payment.amount);
  state.fundingRemainder += settlement.remainder;
  state.premiumSamples = [];
  state.fundingStartMs = atMs;
  events.push({ type: "funding", settlement });
  return null;
}
