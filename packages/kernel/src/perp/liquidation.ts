// Liquidation, as pure functions over plain data (the kernel and the reference model call them
// in this order):
// 1. the test: equity < maintenance margin at the mark (`marginState`, margin.ts);
// 2. the plan: how many lots to close and the reduce-only IOC order, limited at the bankruptcy
//    price, that goes into the book (`liquidationPlan`);
// 3. each book fill pays the liquidation fee to the insurance fund, capped so it never takes
//    the position below bankruptcy (`liquidationFee`);
// 4. if the book does not fill the whole order, the insurance fund takes over the *whole*
//    remaining position at the bankruptcy value (`closeValueAtBankruptcy`), as much as its
//    equity allows (`takeoverLots`);
// 5. what the fund cannot take is auto-deleveraged against the opposite positions ranked by
//    profit × leverage (`adlRanking`, `takeoverLots`), at the same bankruptcy value; should
//    even that not suffice (the fund already under water and the only counterparty), the fund
//    takes the rest anyway and the venue carries the loss;
// 6. negative-balance protection: any cash left below zero is covered by the insurance fund
//    (`negativeBalanceCover`), so a user never loses more than the margin they put up.

import type { PerpMarket } from "./params.ts";
import type { MarginPool } from "./margin.ts";
import { bankruptcyLimitTicks, bankruptcyPrice, maintenanceMargin, marginState } from "./margin.ts";
import type { Position } from "./position.ts";
import { notional, unrealisedPnl } from "./position.ts";
import type { Ratio } from "./units.ts";
import {
  abs,
  BPS,
  compareIds,
  compareRatio,
  divCeil,
  divFloor,
  largestWhere,
  max,
  min,
  smallestWhere,
} from "./units.ts";

/**
 * A partial liquidation closes just enough that the rest sits at this margin ratio or better
 * (maintenance ≤ 50 % of equity), assuming fills at the mark; below the market's smallest order
 * it closes everything.
 */
export const LIQUIDATION_TARGET_RATIO_BPS = 5_000n;

/** The reduce-only order a liquidation sends into the book, and why. */
export interface LiquidationPlan {
  /** Mark price (ticks) and the tape tick ids it came from. */
  markTicks: bigint;
  tickIds: string[];
  equity: bigint;
  maintenance: bigint;
  /** Opposite to the position: a long is sold, a short bought back. */
  side: "buy" | "sell";
  /** Lots to close (1 ≤ lots ≤ |size|). */
  lots: bigint;
  /**
   * Limit (ticks): the bankruptcy price rounded against the fill (up for a sell, down for a
   * buy), so no book fill leaves negative equity. Null when no price can fill without a
   * deficit (a short whose bankruptcy price is below one tick): go straight to step 4.
   */
  limitTicks: bigint | null;
  /** The exact bankruptcy price (ticks) of the whole position. */
  bankruptcyTicks: Ratio;
  reduceOnly: true;
  timeInForce: "ioc";
}

/**
 * Lots to liquidate: the fewest whose closing (at the mark, before the fee) leaves the pool's
 * maintenance at most {@link LIQUIDATION_TARGET_RATIO_BPS} of equity. Everything when equity is
 * not positive, when no partial close is enough, or when the rest would be below
 * `quantityLotsMin`. Zero when the position is not liquidatable. Worse fills and the fee can
 * leave the rest still under maintenance; the next check then liquidates again (as Binance and
 * dYdX do). Closing at the bankruptcy price cannot restore health at all, which is why step 4
 * takes the whole position.
 */
export function liquidationLots(
  market: PerpMarket,
  position: Position,
  pool: MarginPool,
  markTicks: bigint,
): bigint {
  const state = marginState(market, position, pool, markTicks);
  if (!state.liquidatable) return 0n;
  const size = abs(position.sizeLots);
  if (state.equity <= 0n) return size;
  const healthyAfter = (lots: bigint): boolean => {
    const rest = notional(size - lots, markTicks, market.tickLotUnits);
    const maintenance = pool.maintenanceOther + maintenanceMargin(market, rest);
    return maintenance * BPS <= state.equity * LIQUIDATION_TARGET_RATIO_BPS;
  };
  const lots = smallestWhere(1n, size, healthyAfter);
  if (lots > size) return size;
  return size - lots < BigInt(market.quantityLotsMin) ? size : lots;
}

/** The liquidation order for a position at a mark, or null when it is not liquidatable. */
export function liquidationPlan(
  market: PerpMarket,
  position: Position,
  pool: MarginPool,
  mark: { priceTicks: bigint; tickIds: readonly string[] },
): LiquidationPlan | null {
  const state = marginState(market, position, pool, mark.priceTicks);
  if (!state.liquidatable) return null;
  return {
    markTicks: mark.priceTicks,
    tickIds: [...mark.tickIds],
    equity: state.equity,
    maintenance: state.maintenance,
    side: position.sizeLots > 0n ? "sell" : "buy",
    lots: liquidationLots(market, position, pool, mark.priceTicks),
    limitTicks: bankruptcyLimitTicks(position, pool.collateral, market.tickLotUnits),
    bankruptcyTicks: bankruptcyPrice(position, pool.collateral, market.tickLotUnits)!,
    reduceOnly: true,
    timeInForce: "ioc",
  };
}

/**
 * The liquidation fee on one book fill of a liquidation order, to the insurance fund:
 * `ceil(lots × price × u × liquidationFeeBps / 10,000)` (up: the fund), but at most
 * `floor(lots × max(0, equity at the fill price) / |size|)`, the closed lots' share of what is
 * left above bankruptcy (down: the user never goes below zero; dYdX caps its fee the same way).
 * `position` and `pool` are as they were just before the fill.
 */
export function liquidationFee(
  market: PerpMarket,
  position: Position,
  pool: MarginPool,
  lots: bigint,
  priceTicks: bigint,
): bigint {
  const full = divCeil(
    lots * priceTicks * market.tickLotUnits * BigInt(market.liquidationFeeBps),
    BPS,
  );
  const equity = pool.collateral + unrealisedPnl(position, priceTicks, market.tickLotUnits);
  const cap = divFloor(lots * max(0n, equity), abs(position.sizeLots));
  return min(full, cap);
}

/**
 * Quote units for closing `lots` of a position at its bankruptcy price (what the insurance fund
 * or an ADL counterparty pays a long, or is paid by a short): the lots' share of
 * `entryCost − collateral` (long) or `entryCost + collateral` (short). Rounded toward the user
 * (up for a long, down for a short) because a user's equity may not end below zero; closing
 * every lot is exact. Never negative: a short so deep that even a price of zero leaves a
 * deficit closes for 0, and negative-balance protection covers the rest.
 */
export function closeValueAtBankruptcy(
  position: Position,
  collateral: bigint,
  lots: bigint,
): bigint {
  const size = abs(position.sizeLots);
  if (lots <= 0n || lots > size) throw new RangeError("lots must be within the position");
  if (position.sizeLots > 0n) {
    return max(0n, divCeil(lots * (position.entryCost - collateral), size));
  }
  return max(0n, divFloor(lots * (position.entryCost + collateral), size));
}

/**
 * How many of `lotsMax` lots a taker (the insurance fund, or an ADL counterparty) can take at
 * the bankruptcy value while its own equity at the mark stays ≥ 0. The taker's equity changes
 * by `lots × mark × u − value` when it buys from a long, `value − lots × mark × u` when it
 * buys back from a short. A takeover that costs the taker nothing at the mark (the position
 * was liquidated before it was bankrupt) is always possible, whatever the taker's equity.
 */
export function takeoverLots(
  takerEquity: bigint,
  bankrupt: Position,
  collateral: bigint,
  lotsMax: bigint,
  markTicks: bigint,
  tickLotUnits: bigint,
): bigint {
  if (lotsMax <= 0n) return 0n;
  const gain = (lots: bigint): bigint => {
    const value = closeValueAtBankruptcy(bankrupt, collateral, lots);
    const atMark = lots * markTicks * tickLotUnits;
    return bankrupt.sizeLots > 0n ? atMark - value : value - atMark;
  };
  if (gain(lotsMax) >= 0n || takerEquity + gain(lotsMax) >= 0n) return lotsMax;
  // Here the takeover costs the taker: its gain falls with every lot, so the test is monotone.
  return max(
    0n,
    largestWhere(1n, lotsMax, (lots) => takerEquity + gain(lots) >= 0n),
  );
}

/** Cash to move from the insurance fund so an account's cash is not negative. */
export function negativeBalanceCover(cash: bigint): bigint {
  return cash < 0n ? -cash : 0n;
}

/** A position that auto-deleveraging may close, with its pool's equity at the mark. */
export interface AdlCandidate {
  id: string;
  sizeLots: bigint;
  entryCost: bigint;
  /** Equity of the pool the position belongs to (isolated margin or cross account), at the mark. */
  equity: bigint;
}

/** A candidate's place in the ADL queue. */
export interface AdlRank {
  id: string;
  sizeLots: bigint;
  unrealisedPnl: bigint;
  /** Profitable: PnL% × leverage; otherwise PnL% / leverage; exact. */
  score: Ratio;
  /** False when its equity is not positive (it is being liquidated itself): last in the queue. */
  eligible: boolean;
  /** 1 = deleveraged first. */
  rank: number;
  /** The 1–5 lights shown to users: 5 for the top fifth of the queue. */
  bucket: number;
}

/**
 * Orders one side's positions for auto-deleveraging, Binance-style: profitable positions first
 * by `PnL% × effective leverage`, with `PnL% = U / entryCost` and
 * `effective leverage = notional at mark / equity`; then the others by `PnL% / leverage`; then
 * positions without positive equity. Ties go by id, so the order is the same on every replay.
 */
export function adlRanking(
  candidates: readonly AdlCandidate[],
  markTicks: bigint,
  tickLotUnits: bigint,
): AdlRank[] {
  const ranked = candidates.map((candidate) => {
    const position = { sizeLots: candidate.sizeLots, entryCost: candidate.entryCost };
    const pnl = unrealisedPnl(position, markTicks, tickLotUnits);
    const value = max(1n, notional(candidate.sizeLots, markTicks, tickLotUnits));
    const cost = max(1n, candidate.entryCost);
    const eligible = candidate.equity > 0n;
    const equity = max(1n, candidate.equity);
    const score =
      pnl > 0n
        ? { num: pnl * value, den: cost * equity }
        : { num: pnl * equity, den: cost * value };
    return { id: candidate.id, sizeLots: candidate.sizeLots, unrealisedPnl: pnl, score, eligible };
  });
  ranked.sort((a, b) => {
    if (a.eligible !== b.eligible) return a.eligible ? -1 : 1;
    const byScore = compareRatio(b.score, a.score);
    return byScore !== 0 ? byScore : compareIds(a.id, b.id);
  });
  const count = ranked.length;
  return ranked.map((entry, index) => ({
    ...entry,
    rank: index + 1,
    bucket: 5 - Math.floor((index * 5) / count),
  }));
}
