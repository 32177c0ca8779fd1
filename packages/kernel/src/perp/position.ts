// A position in one perpetual market: a signed size in lots and its exact entry cost. The
// average open price is never stored rounded; it is `entryCost / (|sizeLots| × tickLotUnits)`
// ticks, as an exact fraction, so PnL at any whole-tick mark is an exact integer.

import type { Ratio } from "./units.ts";
import { abs, divCeil, divFloor } from "./units.ts";

/** One owner's position in one market (one-way mode: long or short, never both). */
export interface Position {
  /** Lots: positive long, negative short, zero flat. */
  sizeLots: bigint;
  /**
   * Quote smallest units paid (long) or received (short) for the lots still open: the sum of
   * `priceTicks × lots × tickLotUnits` over their fills, less the cost taken out by partial
   * closes. Never negative; zero exactly when flat (or when bought at a price of zero).
   */
  entryCost: bigint;
}

/** No position. */
export const FLAT: Position = Object.freeze({ sizeLots: 0n, entryCost: 0n });

/** What a fill (or a close at a quote amount) did to a position. */
export interface FillOutcome {
  /** The position after. */
  position: Position;
  /** Quote units gained (positive) or lost (negative) on the closed lots, before fees. */
  realisedPnl: bigint;
  /** Lots of the old position closed (≥ 0). */
  closedLots: bigint;
  /** Lots opened in the direction of the fill (≥ 0); both are positive on a flip. */
  openedLots: bigint;
  /** Entry cost taken out with the closed lots. */
  closedCost: bigint;
}

/** Notional in quote units: |lots| × ticks × tickLotUnits. Exact. */
export function notional(sizeLots: bigint, priceTicks: bigint, tickLotUnits: bigint): bigint {
  return abs(sizeLots) * priceTicks * tickLotUnits;
}

/**
 * Unrealised PnL at `markTicks`, in quote units, exact:
 * long `|size| × mark × u − entryCost`, short `entryCost − |size| × mark × u`.
 */
export function unrealisedPnl(position: Position, markTicks: bigint, tickLotUnits: bigint): bigint {
  if (position.sizeLots === 0n) return 0n;
  const value = notional(position.sizeLots, markTicks, tickLotUnits);
  return position.sizeLots > 0n ? value - position.entryCost : position.entryCost - value;
}

/** Average open price in ticks as an exact fraction, or null when flat. */
export function entryPriceTicks(position: Position, tickLotUnits: bigint): Ratio | null {
  if (position.sizeLots === 0n) return null;
  return { num: position.entryCost, den: abs(position.sizeLots) * tickLotUnits };
}

/**
 * Entry cost taken out when `lots` of the position close. The share `entryCost × lots / |size|`
 * is rounded so the realised PnL is rounded down: up for a long (a higher cost out means a
 * lower gain now), down for a short. The unit left over stays in the remaining lots' cost and
 * is realised when they close, so the PnL over the position's whole life is exact; closing
 * everything takes out exactly `entryCost`.
 */
export function closedCostFor(position: Position, lots: bigint): bigint {
  const size = abs(position.sizeLots);
  if (lots <= 0n || lots > size) throw new RangeError("closed lots must be within the position");
  if (lots === size) return position.entryCost;
  const share = position.entryCost * lots;
  return position.sizeLots > 0n ? divCeil(share, size) : divFloor(share, size);
}

/**
 * Applies a fill of `deltaLots` (positive: bought, negative: sold) at `priceTicks`:
 * - flat or same direction: the lots open, entry cost grows by `|delta| × price × u`;
 * - opposite and not larger: that many lots close (see {@link closedCostFor}), realising
 *   `exit − closedCost` for a long, `closedCost − exit` for a short, `exit = lots × price × u`;
 * - opposite and larger (reverse through zero): the whole position closes at the fill price
 *   and the rest opens the other way at the same price.
 */
export function applyFill(
  position: Position,
  deltaLots: bigint,
  priceTicks: bigint,
  tickLotUnits: bigint,
): FillOutcome {
  if (deltaLots === 0n) throw new RangeError("a fill moves at least one lot");
  if (priceTicks < 0n) throw new RangeError("price must not be negative");
  const size = position.sizeLots;
  if (size === 0n || size > 0n === deltaLots > 0n) {
    return {
      position: {
        sizeLots: size + deltaLots,
        entryCost: position.entryCost + abs(deltaLots) * priceTicks * tickLotUnits,
      },
      realisedPnl: 0n,
      closedLots: 0n,
      openedLots: abs(deltaLots),
      closedCost: 0n,
    };
  }
  const closedLots = abs(deltaLots) < abs(size) ? abs(deltaLots) : abs(size);
  const closed = closeForQuote(position, closedLots, closedLots * priceTicks * tickLotUnits);
  const openedLots = abs(deltaLots) - closedLots;
  if (openedLots === 0n) return closed;
  return {
    ...closed,
    position: {
      sizeLots: deltaLots > 0n ? openedLots : -openedLots,
      entryCost: openedLots * priceTicks * tickLotUnits,
    },
    openedLots,
  };
}

/**
 * Closes `lots` of the position for a total of `quoteAmount` quote units (received when a long
 * sells, paid when a short buys back). The insurance-fund takeover and auto-deleveraging price
 * a close this way, at the bankruptcy value, which is not a whole number of ticks.
 */
export function closeForQuote(position: Position, lots: bigint, quoteAmount: bigint): FillOutcome {
  if (quoteAmount < 0n) throw new RangeError("quote amount must not be negative");
  const closedCost = closedCostFor(position, lots);
  const long = position.sizeLots > 0n;
  const remaining = abs(position.sizeLots) - lots;
  return {
    position: {
      sizeLots: long ? remaining : -remaining,
      entryCost: position.entryCost - closedCost,
    },
    realisedPnl: long ? quoteAmount - closedCost : closedCost - quoteAmount,
    closedLots: lots,
    openedLots: 0n,
    closedCost,
  };
}

/**
 * Applies a trade of `deltaLots` (positive: bought) for a total of `quoteAmount` quote units,
 * for trades priced in quote units rather than ticks (the insurance fund's takeovers). On a
 * reverse through zero the amount is split by lots, the closing part rounded so the realised
 * PnL is rounded down (down when selling out of a long, up when buying back a short); the rest
 * is the new position's cost.
 */
export function applyTradeForQuote(
  position: Position,
  deltaLots: bigint,
  quoteAmount: bigint,
): FillOutcome {
  if (deltaLots === 0n) throw new RangeError("a trade moves at least one lot");
  if (quoteAmount < 0n) throw new RangeError("quote amount must not be negative");
  const size = position.sizeLots;
  if (size === 0n || size > 0n === deltaLots > 0n) {
    return {
      position: { sizeLots: size + deltaLots, entryCost: position.entryCost + quoteAmount },
      realisedPnl: 0n,
      closedLots: 0n,
      openedLots: abs(deltaLots),
      closedCost: 0n,
    };
  }
  if (abs(deltaLots) <= abs(size)) return closeForQuote(position, abs(deltaLots), quoteAmount);
  const closedLots = abs(size);
  const share = quoteAmount * closedLots;
  const closeQuote = size > 0n ? divFloor(share, abs(deltaLots)) : divCeil(share, abs(deltaLots));
  const closed = closeForQuote(position, closedLots, closeQuote);
  const openedLots = abs(deltaLots) - closedLots;
  return {
    ...closed,
    position: {
      sizeLots: deltaLots > 0n ? openedLots : -openedLots,
      entryCost: quoteAmount - closeQuote,
    },
    openedLots,
  };
}
