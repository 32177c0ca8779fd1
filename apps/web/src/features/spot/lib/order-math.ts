/**
 * Exact arithmetic for the order form. Prices, quantities and balances arrive and leave as
 * decimal strings; in between they are bigint counts of a scale's smallest step. Nothing here
 * passes money through a JavaScript number.
 */

const unsignedDecimal = /^(\d+)(?:\.(\d+))?$/;

/**
 * "12.5" at scale 3 → 12500n. Undefined when the text is not an unsigned decimal or carries
 * more decimals than the scale allows (rejected, never rounded). Trailing zeros past the scale
 * are accepted ("1.50" at scale 1).
 */
export function toUnits(value: string, scale: number): bigint | undefined {
  const match = unsignedDecimal.exec(value.trim());
  if (!match) return undefined;
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > scale) return undefined;
  return BigInt(match[1]! + fraction.padEnd(scale, "0"));
}

/** 12500n at scale 3 → "12.5" (trailing zeros trimmed); negative amounts keep their sign. */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const integer = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, "");
  return `${negative ? "-" : ""}${integer}${fraction ? `.${fraction}` : ""}`;
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

const pow10 = (n: number) => 10n ** BigInt(n);

/** Rounds toward zero to a multiple of `step` (both non-negative). */
function floorToStep(value: bigint, step: bigint): bigint {
  return step > 0n ? (value / step) * step : value;
}

/** Why a price or quantity cannot be used as typed. */
export type FieldProblem = "invalid" | "tooPrecise" | "notOnStep" | "notPositive";

/** Checks a typed decimal against a scale and step; returns its units or the problem. */
export function readField(
  value: string,
  scale: number,
  step: string,
): { units: bigint } | { problem: FieldProblem } {
  if (!unsignedDecimal.test(value.trim())) return { problem: "invalid" };
  const units = toUnits(value, scale);
  if (units === undefined) return { problem: "tooPrecise" };
  if (units <= 0n) return { problem: "notPositive" };
  const stepUnits = toUnits(step, scale) ?? 1n;
  if (stepUnits > 0n && units % stepUnits !== 0n) return { problem: "notOnStep" };
  return { units };
}

/**
 * Total in quote of price × quantity, in the quote asset's smallest units, rounded up (what a
 * buy holds never falls short of what it will spend).
 */
export function totalQuoteUnits(priceUnits: bigint, quantityUnits: bigint, pair: PairScales) {
  const numerator = priceUnits * quantityUnits * pow10(pair.quoteDecimals);
  const denominator = pow10(pair.priceScale + pair.quantityScale);
  return (numerator + denominator - 1n) / denominator;
}

/** The total as a decimal string of the quote asset, or undefined when a field is not valid. */
export function totalText(price: string, quantity: string, pair: PairScales): string | undefined {
  const priceUnits = toUnits(price, pair.priceScale);
  const quantityUnits = toUnits(quantity, pair.quantityScale);
  if (priceUnits === undefined || quantityUnits === undefined) return undefined;
  return fromUnits(totalQuoteUnits(priceUnits, quantityUnits, pair), pair.quoteDecimals);
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
  const lotUnits = toUnits(pair.lotSize, pair.quantityScale) ?? 1n;
  if (side === "sell") {
    const availableBase = toUnits(input.available, pair.baseDecimals);
    if (availableBase === undefined) return undefined;
    const share = (availableBase * BigInt(percent)) / 100n;
    // Base units → quantity units (the quantity scale is at most the base decimals).
    const quantityUnits = rescaleDown(share, pair.baseDecimals, pair.quantityScale);
    return fromUnits(floorToStep(quantityUnits, lotUnits), pair.quantityScale);
  }
  const availableQuote = toUnits(input.available, pair.quoteDecimals);
  const priceUnits = input.price === undefined ? undefined : toUnits(input.price, pair.priceScale);
  if (availableQuote === undefined || priceUnits === undefined || priceUnits <= 0n) {
    return undefined;
  }
  const share = (availableQuote * BigInt(percent)) / 100n;
  // quantity = share / price, in quantity units, rounded down.
  const quantityUnits =
    (share * pow10(pair.priceScale + pair.quantityScale)) /
    (priceUnits * pow10(pair.quoteDecimals));
  return fromUnits(floorToStep(quantityUnits, lotUnits), pair.quantityScale);
}

/** The share of the available quote a market buy spends, rounded down to quote units. */
export function quoteForPercent(available: string, percent: number, quoteDecimals: number) {
  const units = toUnits(available, quoteDecimals);
  if (units === undefined) return undefined;
  return fromUnits((units * BigInt(percent)) / 100n, quoteDecimals);
}

function rescaleDown(units: bigint, fromScale: number, toScale: number): bigint {
  return fromScale >= toScale
    ? units / pow10(fromScale - toScale)
    : units * pow10(toScale - fromScale);
}

/**
 * How far a limit price is from the last price, in basis points (rounded toward zero), with
 * its direction; undefined when either is not a decimal. Used for the spec's price warning.
 */
export function deviationBps(
  price: string,
  last: string,
): { direction: "above" | "below" | "same"; bps: bigint } | undefined {
  const scale = Math.max(decimalsOf(price), decimalsOf(last));
  const priceUnits = toUnits(price, scale);
  const lastUnits = toUnits(last, scale);
  if (priceUnits === undefined || lastUnits === undefined || lastUnits === 0n) return undefined;
  const difference = priceUnits - lastUnits;
  if (difference === 0n) return { direction: "same", bps: 0n };
  const magnitude = difference < 0n ? -difference : difference;
  return {
    direction: difference > 0n ? "above" : "below",
    bps: (magnitude * 10_000n) / lastUnits,
  };
}

/** "1.25" for 125 bps: a percentage with two decimals, as text. */
export function bpsToPercentText(bps: bigint): string {
  return fromUnits(bps, 2);
}

function decimalsOf(value: string): number {
  const match = unsignedDecimal.exec(value.trim());
  return match?.[2]?.length ?? 0;
}

/** Whether a decimal balance covers a required amount (both decimal strings). */
export function covers(available: string, required: string, decimals: number): boolean {
  const availableUnits = toUnits(available, decimals);
  const requiredUnits = toUnits(required, decimals);
  if (availableUnits === undefined || requiredUnits === undefined) return false;
  return availableUnits >= requiredUnits;
}

/** Estimated fee of a side: `bps` of what that side receives, rounded up (as the kernel does). */
export function feeEstimate(receivedUnits: bigint, feeBps: bigint): bigint {
  return (receivedUnits * feeBps + 9_999n) / 10_000n;
}
