// State, commands and events of the reference model (`reference.ts`): one perpetual market's
// accounts, written to be obviously right rather than fast. The kernel's `perp/` product will
// be property-tested against it.

import type { MarkPrice } from "./mark-price.ts";
import type { MarginPool } from "./margin.ts";
import { initialMargin, isolatedPool } from "./margin.ts";
import type { PerpMarket } from "./params.ts";
import { notionalMaxForLeverage } from "./params.ts";
import type { FundingSettlement, PremiumSample } from "./funding.ts";
import type { Position } from "./position.ts";
import { applyFill, FLAT, notional, unrealisedPnl } from "./position.ts";
import type { RejectCode as PerpRejectCode } from "../reject-codes.ts";
import { abs, BPS, divCeil, divFloor, max } from "./units.ts";

/** The labelled insurance fund: an account like any other, never liquidated or deleveraged. */
export const INSURANCE_FUND_ID = "system:insurance_fund";

/** Isolated: the position has its own margin. Cross: the wallet backs every position. */
export type MarginMode = "cross" | "isolated";

/** One owner in the market. */
export interface RefAccount {
  ownerId: string;
  /**
   * The owner's contract wallet in the quote asset. In cross mode realised PnL, fees and funding
   * settle here (it may dip below zero while an open position's profit backs it).
   */
  wallet: bigint;
  leverage: number;
  marginMode: MarginMode;
  position: Position;
  /** Isolated mode: the position's margin; realised PnL, fees and funding settle here. */
  isolatedMargin: bigint;
}

/** Resting liquidity that liquidation orders can hit (the reference has no full book). */
export interface RefRestingOrder {
  orderId: number;
  ownerId: string;
  side: "buy" | "sell";
  priceTicks: bigint;
  lots: bigint;
}

/** The whole market. Money lives in wallets, isolated margins, and the four system balances. */
export interface RefState {
  market: PerpMarket;
  accounts: Map<string, RefAccount>;
  /** Trading fees collected (`system:fees`). */
  fees: bigint;
  /** Funding rounding remainders (`system:funding_remainder`). */
  fundingRemainder: bigint;
  /**
   * The clearing account: minus every realised PnL so far. It may be negative; it always equals
   * minus the open positions' signed entry cost, i.e. their unrealised PnL at any common price.
   */
  clearing: bigint;
  /** Deposits less withdrawals: what all the balances above must add up to. */
  netDeposits: bigint;
  mark: MarkPrice | null;
  premiumSamples: PremiumSample[];
  fundingStartMs: number;
  book: RefRestingOrder[];
  orderIdNext: number;
}

export type RefCommand =
  | { type: "deposit"; ownerId: string; amount: bigint }
  | { type: "withdraw"; ownerId: string; amount: bigint }
  | { type: "set_leverage"; ownerId: string; leverage: number }
  | { type: "set_margin_mode"; ownerId: string; marginMode: MarginMode }
  | { type: "add_margin"; ownerId: string; amount: bigint }
  | { type: "remove_margin"; ownerId: string; amount: bigint }
  | {
      type: "fill";
      buyerId: string;
      sellerId: string;
      lots: bigint;
      priceTicks: bigint;
      taker: "buy" | "sell";
    }
  | { type: "rest"; ownerId: string; side: "buy" | "sell"; priceTicks: bigint; lots: bigint }
  | {
      type: "mark";
      tickId: string;
      indexTicks: bigint;
      bidTicks: bigint | null;
      askTicks: bigint | null;
    }
  | {
      type: "premium";
      atMs: number;
      tickId: string;
      indexTicks: bigint;
      bidTicks: bigint;
      askTicks: bigint;
    }
  | { type: "settle_funding"; atMs: number };

export type RefEvent =
  | { type: "mark"; mark: MarkPrice }
  | {
      type: "fill";
      buyerId: string;
      sellerId: string;
      lots: bigint;
      priceTicks: bigint;
      feeBuyer: bigint;
      feeSeller: bigint;
      realisedBuyer: bigint;
      realisedSeller: bigint;
      /** The liquidated owner, when this fill is part of a liquidation order. */
      liquidatedId: string | null;
      tickIds: string[];
    }
  | {
      type: "liquidation";
      ownerId: string;
      side: "buy" | "sell";
      lots: bigint;
      limitTicks: bigint | null;
      markTicks: bigint;
      equity: bigint;
      maintenance: bigint;
      tickIds: string[];
    }
  | { type: "liquidation_fee"; ownerId: string; amount: bigint; tickIds: string[] }
  | {
      type: "takeover";
      ownerId: string;
      lots: bigint;
      quoteAmount: bigint;
      /** True when the fund had to take lots it could not afford (ADL found no one either). */
      forced: boolean;
      tickIds: string[];
    }
  | {
      type: "adl";
      ownerId: string;
      counterpartyId: string;
      lots: bigint;
      quoteAmount: bigint;
      rank: number;
      tickIds: string[];
    }
  | { type: "negative_balance_cover"; ownerId: string; amount: bigint; tickIds: string[] }
  | { type: "funding"; settlement: FundingSettlement };

/** An empty market: only the insurance fund's account exists. */
export function createReferenceState(market: PerpMarket, fundingStartMs = 0): RefState {
  const state: RefState = {
    market,
    accounts: new Map(),
    fees: 0n,
    fundingRemainder: 0n,
    clearing: 0n,
    netDeposits: 0n,
    mark: null,
    premiumSamples: [],
    fundingStartMs,
    book: [],
    orderIdNext: 1,
  };
  openAccount(state, INSURANCE_FUND_ID);
  return state;
}

/** A deep copy (the market is shared: nothing changes it). */
export function cloneReferenceState(state: RefState): RefState {
  const accounts = new Map<string, RefAccount>();
  for (const [id, account] of state.accounts) {
    accounts.set(id, { ...account, position: { ...account.position } });
  }
  return {
    ...state,
    accounts,
    mark: state.mark === null ? null : { ...state.mark, tickIds: [...state.mark.tickIds] },
    premiumSamples: state.premiumSamples.map((sample) => ({ ...sample })),
    book: state.book.map((order) => ({ ...order })),
  };
}

export function openAccount(state: RefState, ownerId: string): RefAccount {
  let account = state.accounts.get(ownerId);
  if (account === undefined) {
    account = {
      ownerId,
      wallet: 0n,
      leverage: state.market.leverageDefault,
      marginMode: "cross",
      position: FLAT,
      isolatedMargin: 0n,
    };
    state.accounts.set(ownerId, account);
  }
  return account;
}

export function fundOf(state: RefState): RefAccount {
  return state.accounts.get(INSURANCE_FUND_ID)!;
}

export function isSystem(ownerId: string): boolean {
  return ownerId.startsWith("system:");
}

/** The mark in ticks; only called once a mark exists. */
export function markTicksOf(state: RefState): bigint {
  if (state.mark === null) throw new Error("no mark price yet");
  return state.mark.priceTicks;
}

/** Where the position's PnL, fees and funding settle: the wallet, or the isolated margin. */
export function addCash(account: RefAccount, amount: bigint): void {
  if (account.marginMode === "cross") account.wallet += amount;
  else account.isolatedMargin += amount;
}

/** What backs the position apart from its own PnL (one market: no other cross positions). */
export function poolOf(account: RefAccount): MarginPool {
  return account.marginMode === "cross"
    ? { collateral: account.wallet, maintenanceOther: 0n }
    : isolatedPool(account.isolatedMargin);
}

/** The position's pool equity at the mark: wallet or isolated margin, plus unrealised PnL. */
export function poolEquity(state: RefState, account: RefAccount): bigint {
  const pnl = unrealisedPnl(account.position, markTicksOf(state), state.market.tickLotUnits);
  return poolOf(account).collateral + pnl;
}

/**
 * Once an isolated position is flat its margin goes back to the wallet; a negative margin is a
 * loss beyond what the owner put up, which the insurance fund covers (negative-balance
 * protection). A flat cross account below zero is covered the same way.
 */
export function settleFlat(state: RefState, account: RefAccount, events: RefEvent[]): void {
  if (account.position.sizeLots !== 0n || isSystem(account.ownerId)) return;
  if (account.marginMode === "isolated") {
    releaseIsolated(state, account, events);
  } else if (account.wallet < 0n) {
    account.wallet += cover(state, account.ownerId, -account.wallet, events);
  }
}

/** Moves an isolated position's whole margin to the wallet, the fund covering a deficit. */
export function releaseIsolated(state: RefState, account: RefAccount, events: RefEvent[]): void {
  if (account.isolatedMargin < 0n) {
    account.isolatedMargin += cover(state, account.ownerId, -account.isolatedMargin, events);
  }
  account.wallet += account.isolatedMargin;
  account.isolatedMargin = 0n;
}

/** Negative-balance protection: the insurance fund pays `amount` toward an owner's deficit. */
export function cover(
  state: RefState,
  ownerId: string,
  amount: bigint,
  events: RefEvent[],
): bigint {
  fundOf(state).wallet -= amount;
  events.push({
    type: "negative_balance_cover",
    ownerId,
    amount,
    tickIds: state.mark === null ? [] : [...state.mark.tickIds],
  });
  return amount;
}

/** One side of a trade: its realised PnL and fee. */
export interface SideOutcome {
  realised: bigint;
  fee: bigint;
}

/**
 * Applies one side of a fill at a tick price with a fee rate. Opening lots need margin: in
 * cross mode the account after the fill must keep `wallet + U − initial margin ≥ 0` at the mark;
 * in isolated mode the wallet pays the initial margin (at the fill price), the open loss
 * against the mark and the fee. A pure
 * reduce pays its fee from the position's cash, and may not leave the equity below zero.
 * Partial closes of an isolated position release its margin in proportion, rounded down (the
 * position keeps the unit). Returns a code and leaves the account as it was when the fill is
 * not allowed.
 */
export function tradeSide(
  state: RefState,
  account: RefAccount,
  deltaLots: bigint,
  priceTicks: bigint,
  feeBps: number,
  events: RefEvent[],
): SideOutcome | PerpRejectCode {
  const u = state.market.tickLotUnits;
  const before = account.position;
  const outcome = applyFill(before, deltaLots, priceTicks, u);
  const fee = divCeil(abs(deltaLots) * priceTicks * u * BigInt(feeBps), BPS);
  // Work on a copy; commit only when the fill is allowed.
  const next = { ...account, position: outcome.position };
  if (next.marginMode === "cross") {
    next.wallet += outcome.realisedPnl - fee;
  } else {
    if (outcome.closedLots > 0n) {
      next.isolatedMargin += outcome.realisedPnl - (outcome.openedLots === 0n ? fee : 0n);
      if (outcome.closedLots === abs(before.sizeLots)) {
        if (next.isolatedMargin < 0n) return "price_beyond_bankruptcy";
        next.wallet += next.isolatedMargin;
        next.isolatedMargin = 0n;
      } else {
        const release = divFloor(
          max(0n, next.isolatedMargin) * outcome.closedLots,
          abs(before.sizeLots),
        );
        next.isolatedMargin -= release;
        next.wallet += release;
      }
    }
    if (outcome.openedLots > 0n) {
      // Initial margin at the fill price, plus the open loss against the mark (as the order's
      // hold has it), so the new position starts with its full initial margin as equity.
      const gapTicks =
        deltaLots > 0n ? priceTicks - markTicksOf(state) : markTicksOf(state) - priceTicks;
      const margin =
        initialMargin(outcome.openedLots * priceTicks * u, next.leverage) +
        outcome.openedLots * max(0n, gapTicks) * u;
      next.wallet -= margin + fee;
      next.isolatedMargin += margin;
    }
  }
  const code =
    (outcome.openedLots > 0n ? openingCode(state, next, priceTicks) : null) ??
    equityCode(state, next);
  if (code !== null) return code;
  Object.assign(account, next);
  state.fees += fee;
  state.clearing -= outcome.realisedPnl;
  settleFlat(state, account, events);
  return { realised: outcome.realisedPnl, fee };
}

/**
 * A user's fill may not leave the position's equity below zero at the mark (a close beyond the
 * bankruptcy price). Otherwise two accounts could trade at a bad price inside the band and
 * hand the loss to the insurance fund; the kernel keeps reduce orders' limits on the right
 * side of the bankruptcy price to guarantee it.
 */
function equityCode(state: RefState, account: RefAccount): PerpRejectCode | null {
  if (isSystem(account.ownerId)) return null;
  const cash = account.marginMode === "cross" ? account.wallet : account.isolatedMargin;
  const pnl = unrealisedPnl(account.position, markTicksOf(state), state.market.tickLotUnits);
  return cash + pnl < 0n ? "price_beyond_bankruptcy" : null;
}

/** Why an account may not hold the position a fill just opened, or null. */
function openingCode(
  state: RefState,
  account: RefAccount,
  priceTicks: bigint,
): PerpRejectCode | null {
  const market = state.market;
  const mark = markTicksOf(state);
  const size = account.position.sizeLots;
  if (abs(size) > BigInt(market.quantityLotsMax)) return "quantity_too_high";
  const cap = notionalMaxForLeverage(market, account.leverage);
  const price = max(priceTicks, mark);
  if (cap !== null && notional(size, price, market.tickLotUnits) > cap) {
    return "leverage_above_tier";
  }
  if (account.marginMode === "isolated") return account.wallet < 0n ? "insufficient_margin" : null;
  const value = notional(size, mark, market.tickLotUnits);
  const pnl = unrealisedPnl(account.position, mark, market.tickLotUnits);
  return account.wallet + pnl - initialMargin(value, account.leverage) < 0n
    ? "insufficient_margin"
    : null;
}
