import { divCeil, divFloor, formatDecimal, mulDiv, parseDecimal, pow10 } from "@candor/decimal";
import { atCommonScale, readDecimal } from "../../../lib/decimal-text.ts";

/**
 * Exact arithmetic for the order form. Prices, quantities and balances arrive and leave as
 * decimal strings, read and written by the one codec (`@candor/decimal`); in between they are
 * bigint counts of a scale's smallest step. Nothing here passes money through a JavaScript
 * number, and every division names its rounding.
 */

/**
 * The codec's reading of text a person typed (or a balance to compare it with): zeros past the
 * scale are accepted ("1.50" at scale 1), any other extra decimal is refused, never rounded.
 */
const typed = { extraZeros: "accept" } as const;

/** "12.5" at scale 3 → 12500n; undefined when the codec refuses it (see `typed`). */
export function unitsOf(value: string, scale: number): bigint | undefined {
  const result = parseDecimal(value.trim(), scale, typed);
  return result.ok ? result.value : undefined;
}

/** The scales and steps of a spot pair, as the instrument view gives them. */
export interface PairScales {
  /** Decimals of a price, and the smallest price step as a decimal string. */
  priceScale: number;
  tickSize: string;
  /** Decimals of a quantity, and the smallest quantity step. */
  quantityScale: number;
  lotSize: string;
  /** Decimals of the quote asset's balance (USDT: 6 here). */
  quoteDecimals: number;
  baseDecimals: number;
}

/** Rounds down to a multiple of `step` (both non-negative). */
function floorToStep(value: bigint, step: bigint): bigint {
  return step > 0n ? divFloor(value, step) * step : value;
}

/** Units of one scale in another, rounded down when the target is coarser. */
export function rescale(units: bigint, fromScale: number, toScale: number): bigint {
  return fromScale >= toScale
    ? divFloor(units, pow10(fromScale - toScale))
    : units * pow10(toScale - fromScale);
}

/** Why a price or quantity cannot be used as typed. */
export type FieldProblem = "invalid" | "tooPrecise" | "notOnStep" | "notPositive";

/** Checks a typed decimal against a scale and step; returns its units or the problem. */
export function readField(
  value: string,
  scale: number,
  step: string,
): { units: bigint } | { problem: FieldProblem } {
  const result = parseDecimal(value.trim(), scale, typed);
  if (!result.ok) {
    return { problem: result.code === "amount_too_many_decimals" ? "tooPrecise" : "invalid" };
  }
  const units = result.value;
  if (units <= 0n) return { problem: "notPositive" };
  const stepUnits = unitsOf(step, scale) ?? 1n;
  if (stepUnits > 0n && units % stepUnits !== 0n) return { problem: "notOnStep" };
  return { units };
}

/**
 * Total in quote of price × quantity, in the quote asset's smallest units, rounded up (what a
 * buy holds never falls short of what it will spend).
 */
export function totalQuoteUnits(priceUnits: bigint, quantityUnits: bigint, pair: PairScales) {
  return divCeil(
    priceUnits * quantityUnits * pow10(pair.quoteDecimals),
    pow10(pair.priceScale + pair.quantityScale),
  );
}

/** The total as a decimal string of the quote asset, or undefined when a field is not valid. */
export function totalText(price: string, quantity: string, pair: PairScales): string | undefined {
  const priceUnits = unitsOf(price, pair.priceScale);
  const quantityUnits = unitsOf(quantity, pair.quantityScale);
  if (priceUnits === undefined || quantityUnits === undefined) return undefined;
  return formatDecimal(totalQuoteUnits(priceUnits, quantityUnits, pair), pair.quoteDecimals);
}

/**
 * The quantity for a percentage button (25, 50, 75, 100) of the available balance, rounded
 * down to the lot size so the order never needs more than is there:
 * - sell: that share of the available base;
 * - buy at a limit price: that share of the available quote divided by the price.
 * Returns undefined when a buy has no usable price yet. Balances are decimal strings of the
 * asset's own decimals.
 */
export function quantityForPercent(input: {
  side: "buy" | "sell";
  percent: 25 | 50 | 75 | 100;
  available: string;
  price: string | undefined;
  pair: PairScales;
}): string | undefined {
  const { side, percent, pair } = input;
  const lotUnits = unitsOf(pair.lotSize, pair.quantityScale) ?? 1n;
  if (side === "sell") {
    const availableBase = unitsOf(input.available, pair.baseDecimals);
    if (availableBase === undefined) return undefined;
    const share = mulDiv(availableBase, BigInt(percent), 100n, "floor");
    // Base units → quantity units (the quantity scale is at most the base decimals).
    const quantityUnits = rescale(share, pair.baseDecimals, pair.quantityScale);
    return formatDecimal(floorToStep(quantityUnits, lotUnits), pair.quantityScale);
  }
  const availableQuote = unitsOf(input.available, pair.quoteDecimals);
  const priceUnits = input.price === undefined ? undefined : unitsOf(input.price, pair.priceScale);
  if (availableQuote === undefined || priceUnits === undefined || priceUnits <= 0n) {
    return undefined;
  }
  const share = mulDiv(availableQuote, BigInt(percent), 100n, "floor");
  // quantity = share / price, in quantity units, rounded down.
  const quantityUnits = mulDiv(
    share,
    pow10(pair.priceScale + pair.quantityScale),
    priceUnits * pow10(pair.quoteDecimals),
    "floor",
  );
  return formatDecimal(floorToStep(quantityUnits, lotUnits), pair.quantityScale);
}

/** The share of the available quote a market buy spends, rounded down to quote units. */
export function quoteForPercent(available: string, percent: number, quoteDecimals: number) {
  const units = unitsOf(available, quoteDecimals);
  if (units === undefined) return undefined;
  return formatDecimal(mulDiv(units, BigInt(percent), 100n, "floor"), quoteDecimals);
}

/**
 * How far a limit price is from the last price, in basis points (rounded toward zero), with
 * its direction; undefined when either is not a non-negative decimal or the last price is 0.
 * Used for the spec's price warning.
 */
export function deviationBps(
  price: string,
  last: string,
): { direction: "above" | "below" | "same"; bps: bigint } | undefined {
  const priceRead = readDecimal(price.trim());
  const lastRead = readDecimal(last.trim());
  if (!priceRead || !lastRead) return undefined;
  const [priceUnits, lastUnits] = atCommonScale(priceRead, lastRead);
  if (priceUnits < 0n || lastUnits <= 0n) return undefined;
  const difference = priceUnits - lastUnits;
  if (difference === 0n) return { direction: "same", bps: 0n };
  const magnitude = difference < 0n ? -difference : difference;
  return {
    direction: difference > 0n ? "above" : "below",
    bps: mulDiv(magnitude, 10_000n, lastUnits, "floor"),
  };
}

/** "1.25" for 125 bps: a percentage with two decimals, as text. */
export function bpsToPercentText(bps: bigint): string {
  return formatDecimal(bps, 2);
}

/** Whether a decimal balance covers a required amount (both decimal strings). */
export function covers(available: string, required: string, decimals: number): boolean {
  const availableUnits = unitsOf(available, decimals);
  const requiredUnits = unitsOf(required, decimals);
  if (availableUnits === undefined || requiredUnits === undefined) return false;
  return availableUnits >= requiredUnits;
}

/** Estimated fee of a side: `bps` of what that side receives, rounded up (as the kernel does). */
export function feeEstimate(receivedUnits: bigint, feeBps: bigint): bigint {
  return mulDiv(receivedUnits, feeBps, 10_000n, "ceil");
}
