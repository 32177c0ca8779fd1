import { formatDecimal, pow10 } from "@candor/decimal";
import { readDecimal } from "../../../lib/decimal-text.ts";

/*
 * Estimates shown before an order is placed, in exact integer arithmetic (no floats for money):
 * the notional, the initial margin at the chosen leverage, the taker fee and, for an isolated
 * position, the liquidation price. The server's figures after the fill are the real ones.
 */

export interface OrderEstimate {
  notional: string;
  margin: string;
  fee: string;
  /** Isolated liquidation price at the first maintenance tier; undefined when none applies. */
  liquidationPrice: string | undefined;
}

/** Percent text of basis points: 5 → "0.05". */
export function bpsText(bps: number): string {
  return formatDecimal(BigInt(bps), 2);
}

/** A decimal fraction as percent text, exactly: "0.0001" → "0.01"; undefined if not a decimal. */
export function percentOfFraction(text: string): string | undefined {
  const value = readDecimal(text);
  if (!value) return undefined;
  return value.scale >= 2
    ? formatDecimal(value.units, value.scale - 2)
    : formatDecimal(value.units * pow10(2 - value.scale), 0);
}

export function estimateOrder(input: {
  contracts: string;
  contractSize: string;
  price: string;
  leverage: number;
  feeBps: number;
  maintenanceRateBps: number;
  side: "buy" | "sell";
  assetDecimals: number;
  priceStep: string;
}): OrderEstimate | undefined {
  if (!/^[1-9]\d{0,11}$/.test(input.contracts)) return undefined;
  const size = readDecimal(input.contractSize);
  const price = readDecimal(input.price);
  const step = readDecimal(input.priceStep);
  if (!size || !price || !step || price.units <= 0n || input.leverage < 1) return undefined;
  const lots = BigInt(input.contracts);
  // notional at scale size.scale + price.scale, brought to the asset's decimals (rounded down).
  const rawScale = size.scale + price.scale;
  const raw = lots * size.units * price.units;
  const toAsset = (value: bigint) =>
    rawScale >= input.assetDecimals
      ? value / pow10(rawScale - input.assetDecimals)
      : value * pow10(input.assetDecimals - rawScale);
  const notional = toAsset(raw);
  const margin = (notional + BigInt(input.leverage) - 1n) / BigInt(input.leverage);
  const fee = (notional * BigInt(input.feeBps) + 9_999n) / 10_000n;
  // Isolated: liquidated where margin + PnL = maintenance, i.e. long P(1 − 1/L + m), short
  // P(1 + 1/L − m), in units of 1/(10,000 × L) of the price, rounded to the price step.
  const L = BigInt(input.leverage);
  const m = BigInt(input.maintenanceRateBps);
  const factor =
    input.side === "buy" ? 10_000n * L - 10_000n + m * L : 10_000n * L + 10_000n - m * L;
  const [priceUnits, stepUnits, scale] = atScale(price, step);
  const liq = (priceUnits * factor) / (10_000n * L);
  const liqOnStep =
    input.side === "buy"
      ? ((liq + stepUnits - 1n) / stepUnits) * stepUnits
      : (liq / stepUnits) * stepUnits;
  return {
    notional: formatDecimal(notional, input.assetDecimals),
    margin: formatDecimal(margin, input.assetDecimals),
    fee: formatDecimal(fee, input.assetDecimals),
    liquidationPrice: liqOnStep > 0n ? formatDecimal(liqOnStep, scale) : undefined,
  };
}

function atScale(
  a: { units: bigint; scale: number },
  b: { units: bigint; scale: number },
): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}
