// Margin arithmetic: initial and maintenance margin, equity of isolated and cross positions,
// the margin (risk) ratio, liquidation and bankruptcy prices, how much margin may leave, and
// what an order holds. Every division names its rounding; each is chosen so the venue and the
// insurance fund are never short, except where negative-balance protection says otherwise.

import type { PerpMarket } from "./params.ts";
import { notionalMaxForLeverage, tierFor } from "./params.ts";
import type { Position } from "./position.ts";
import { notional, unrealisedPnl } from "./position.ts";
import type { Ratio } from "./units.ts";
import {
  abs,
  BPS,
  divCeil,
  divFloor,
  largestWhere,
  max,
  min,
  PERP_PRICE_TICKS_MAX,
  smallestWhere,
} from "./units.ts";

/** Initial margin for a notional at a leverage: `ceil(notional / leverage)`, up (venue). */
export function initialMargin(notionalAmount: bigint, leverage: number): bigint {
  if (!Number.isSafeInteger(leverage) || leverage < 1) throw new RangeError("leverage must be ≥ 1");
  return divCeil(notionalAmount, BigInt(leverage));
}

/**
 * Maintenance margin for a notional (quote units) from the tier table:
 * `ceil(notional × rateBps / 10,000) − maintenanceAmount`. The product is rounded up (venue);
 * the amount is exact. Validated tables make this continuous and never negative.
 */
export function maintenanceMargin(market: PerpMarket, notionalAmount: bigint): bigint {
  if (notionalAmount === 0n) return 0n;
  const tier = tierFor(market, notionalAmount);
  const required =
    divCeil(notionalAmount * BigInt(tier.maintenanceMarginRateBps), BPS) - tier.maintenanceAmount;
  if (required < 0n) throw new RangeError("maintenance tier table is inconsistent");
  return required;
}

/** Maintenance margin of a position at a mark price (ticks). */
export function positionMaintenance(
  market: PerpMarket,
  position: Position,
  markTicks: bigint,
): bigint {
  return maintenanceMargin(market, notional(position.sizeLots, markTicks, market.tickLotUnits));
}

/**
 * What backs one position, apart from its own unrealised PnL.
 * - isolated: `collateral` is the position's margin, `maintenanceOther` 0;
 * - cross: `collateral` is the cross wallet plus the unrealised PnL of the owner's other cross
 *   positions at their marks, `maintenanceOther` their maintenance margin.
 */
export interface MarginPool {
  collateral: bigint;
  maintenanceOther: bigint;
}

/** The pool of an isolated position. */
export function isolatedPool(margin: bigint): MarginPool {
  return { collateral: margin, maintenanceOther: 0n };
}

/** A cross position with its market and mark, for account-wide sums. */
export interface CrossPosition {
  market: PerpMarket;
  position: Position;
  markTicks: bigint;
}

/** Cross equity: wallet + Σ unrealised PnL of the cross positions at their marks. */
export function crossEquity(wallet: bigint, positions: readonly CrossPosition[]): bigint {
  let equity = wallet;
  for (const p of positions) {
    equity += unrealisedPnl(p.position, p.markTicks, p.market.tickLotUnits);
  }
  return equity;
}

/** Σ maintenance margin of cross positions at their marks. */
export function crossMaintenance(positions: readonly CrossPosition[]): bigint {
  let total = 0n;
  for (const p of positions) total += positionMaintenance(p.market, p.position, p.markTicks);
  return total;
}

/** The pool of one cross position, given the wallet and the owner's *other* cross positions. */
export function crossPool(wallet: bigint, others: readonly CrossPosition[]): MarginPool {
  return { collateral: crossEquity(wallet, others), maintenanceOther: crossMaintenance(others) };
}

/** Where a position stands at a mark. */
export interface MarginState {
  /** Pool collateral + the position's unrealised PnL (quote units; may be negative). */
  equity: bigint;
  /** Pool's other maintenance + the position's maintenance margin (quote units). */
  maintenance: bigint;
  /** Maintenance / equity in basis points, rounded up; null when equity ≤ 0 (beyond 100 %). */
  marginRatioBps: bigint | null;
  /** equity < maintenance (and something is open). */
  liquidatable: boolean;
}

/** Margin ratio ("risk ratio") in bps, `ceil(maintenance × 10,000 / equity)`; up shows more risk. */
export function marginRatioBps(maintenance: bigint, equity: bigint): bigint | null {
  if (equity <= 0n) return maintenance === 0n && equity === 0n ? 0n : null;
  return divCeil(maintenance * BPS, equity);
}

/** The liquidation test: maintenance is owed and equity is below it. */
export function isLiquidatable(equity: bigint, maintenance: bigint): boolean {
  return maintenance > 0n && equity < maintenance;
}

/** Equity, maintenance, ratio and the liquidation test for one position at a mark. */
export function marginState(
  market: PerpMarket,
  position: Position,
  pool: MarginPool,
  markTicks: bigint,
): MarginState {
  const equity = pool.collateral + unrealisedPnl(position, markTicks, market.tickLotUnits);
  const maintenance = pool.maintenanceOther + positionMaintenance(market, position, markTicks);
  return {
    equity,
    maintenance,
    marginRatioBps: marginRatioBps(maintenance, equity),
    liquidatable: isLiquidatable(equity, maintenance),
  };
}

/**
 * The liquidation price in whole ticks, exactly as the liquidation test sees it, or null when
 * no price liquidates the position (e.g. a 1× long). A long is liquidated at every mark at or
 * below it, a short at every mark at or above it, so trigger indexes can use it unchanged.
 * Other cross positions are held at their current marks (an estimate, as on every venue).
 *
 * Closed form, for display and docs (long s = 1, short s = −1, S lots, tier rate r, amount a,
 * collateral C, other maintenance O): `P = (s×entryCost − (C − O + a)) / (S × u × (s − r))`
 * in the tier where P falls. Because maintenance rounds up, the exact threshold is found by a
 * binary search on the test itself, which is monotone in the price.
 */
export function liquidationPriceTicks(
  market: PerpMarket,
  position: Position,
  pool: MarginPool,
): bigint | null {
  if (position.sizeLots === 0n) return null;
  const liquidatableAt = (markTicks: bigint): boolean =>
    marginState(market, position, pool, markTicks).liquidatable;
  if (position.sizeLots > 0n) {
    const price = largestWhere(1n, PERP_PRICE_TICKS_MAX, liquidatableAt);
    return price >= 1n ? price : null;
  }
  const price = smallestWhere(1n, PERP_PRICE_TICKS_MAX, liquidatableAt);
  return price <= PERP_PRICE_TICKS_MAX ? price : null;
}

/**
 * The bankruptcy price in ticks, as an exact fraction: where the pool's collateral plus the
 * position's PnL is zero. Long: `(entryCost − C) / (S × u)`; short: `(entryCost + C) / (S × u)`.
 * May be ≤ 0 for a long that cannot go bankrupt. Null when flat.
 */
export function bankruptcyPrice(
  position: Position,
  collateral: bigint,
  tickLotUnits: bigint,
): Ratio | null {
  if (position.sizeLots === 0n) return null;
  const den = abs(position.sizeLots) * tickLotUnits;
  const num =
    position.sizeLots > 0n ? position.entryCost - collateral : position.entryCost + collateral;
  return { num, den };
}

/**
 * The limit price (ticks) of a liquidation order: the bankruptcy price rounded so that no fill
 * can leave negative equity: up for a long's sell, down for a short's buy. A long's limit is at
 * least one tick. Null for a short whose bankruptcy price is below one tick (no buy can fill
 * without a deficit; the insurance fund takes it over).
 */
export function bankruptcyLimitTicks(
  position: Position,
  collateral: bigint,
  tickLotUnits: bigint,
): bigint | null {
  const price = bankruptcyPrice(position, collateral, tickLotUnits);
  if (price === null) return null;
  if (position.sizeLots > 0n) return max(1n, divCeil(price.num, price.den));
  const limit = divFloor(price.num, price.den);
  return limit >= 1n ? limit : null;
}

/**
 * How much margin may leave an isolated position: it must keep the initial margin at the mark,
 * and unrealised profit cannot be taken out (`min(U, 0)`); never more than the margin itself.
 */
export function maxRemovableMargin(
  margin: bigint,
  unrealised: bigint,
  initialMarginAtMark: bigint,
): bigint {
  return max(0n, min(margin, margin + min(unrealised, 0n) - initialMarginAtMark));
}

/**
 * How much of a cross wallet may be withdrawn or moved: the same rule over the account,
 * `wallet + min(ΣU, 0) − Σ initial margin − order holds`, at most the wallet.
 */
export function maxWithdrawable(
  wallet: bigint,
  unrealisedTotal: bigint,
  initialMarginTotal: bigint,
): bigint {
  return max(0n, min(wallet, wallet + min(unrealisedTotal, 0n) - initialMarginTotal));
}

/** A new order, as the margin hold sees it. */
export interface OrderHoldInput {
  market: PerpMarket;
  leverage: number;
  side: "buy" | "sell";
  /** Limit price, or for a market order the band edge it may trade to. */
  priceTicks: bigint;
  lots: bigint;
  markTicks: bigint;
  /** The owner's current position in the market (signed lots). */
  positionSizeLots: bigint;
  /** Lots of the owner's other open orders on the same side already counted as reducing. */
  reducingLotsOpen: bigint;
}

/** What an order holds, in quote units. */
export interface OrderHold {
  /** Lots that would close the current position: no margin. */
  reducingLots: bigint;
  /** Lots that would open or grow a position. */
  openingLots: bigint;
  /** `ceil(opening × price × u / leverage)`, up. */
  initialMargin: bigint;
  /** Buying above or selling below the mark loses that much at once (Binance's "open loss"). */
  openLoss: bigint;
  /** The higher of the maker and taker fee on the opening lots, rounded up. */
  feeReserve: bigint;
  /** initialMargin + openLoss + feeReserve. */
  total: bigint;
}

/**
 * The initial-margin hold of an order. Lots that can only reduce the position (the position
 * less what other same-side orders already reduce) hold nothing; their fee is taken from the
 * position's margin when they fill. Opening lots hold margin at the order price, the open loss
 * against the mark, and a fee reserve, so a fill never finds the money missing.
 */
export function orderMarginHold(input: OrderHoldInput): OrderHold {
  const { market, side, priceTicks, lots, markTicks, positionSizeLots } = input;
  const closing = side === "buy" ? positionSizeLots < 0n : positionSizeLots > 0n;
  const capacity = closing ? max(0n, abs(positionSizeLots) - input.reducingLotsOpen) : 0n;
  const reducingLots = min(lots, capacity);
  const openingLots = lots - reducingLots;
  const openingNotional = openingLots * priceTicks * market.tickLotUnits;
  const gapTicks = side === "buy" ? priceTicks - markTicks : markTicks - priceTicks;
  const openLoss = openingLots * max(0n, gapTicks) * market.tickLotUnits;
  const feeBps = BigInt(Math.max(market.feeBpsMaker, market.feeBpsTaker));
  const feeReserve = divCeil(openingNotional * feeBps, BPS);
  const margin = initialMargin(openingNotional, input.leverage);
  return {
    reducingLots,
    openingLots,
    initialMargin: margin,
    openLoss,
    feeReserve,
    total: margin + openLoss + feeReserve,
  };
}

/**
 * The most lots an order may have with `available` quote units free: its hold fits, the
 * position stays within `quantityLotsMax`, and the position's notional (at the higher of the
 * order price and the mark) stays within what the tier table allows at this leverage.
 */
export function maxOrderLots(input: Omit<OrderHoldInput, "lots">, available: bigint): bigint {
  const { market, side, priceTicks, markTicks, positionSizeLots } = input;
  const notionalCap = notionalMaxForLeverage(market, input.leverage);
  const price = max(priceTicks, markTicks);
  const fits = (lots: bigint): boolean => {
    const hold = orderMarginHold({ ...input, lots });
    if (hold.total > available) return false;
    if (hold.openingLots === 0n) return true;
    const after = abs(positionSizeLots + (side === "buy" ? lots : -lots));
    if (after > BigInt(market.quantityLotsMax)) return false;
    return notionalCap === null || notional(after, price, market.tickLotUnits) <= notionalCap;
  };
  return max(0n, largestWhere(1n, BigInt(market.quantityLotsMax), fits));
}
