import type { ErrorCode, PerpPositionView } from "@candor/contract";
import { formatAmount, parseAmount, type PerpPositionFigures } from "@candor/kernel";

/** A price step as an integer at its own decimals: "0.1" → 1 at scale 1. */
export interface Step {
  units: bigint;
  scale: number;
}

export function stepOf(priceStep: string): Step {
  const scale = priceStep.split(".")[1]?.length ?? 0;
  const parsed = parseAmount(priceStep, scale);
  if (!parsed.ok || parsed.value <= 0n) throw new Error(`bad price step ${priceStep}`);
  return { units: parsed.value, scale };
}

export function priceOfTicks(ticks: bigint | number, step: Step): string {
  return formatAmount(BigInt(ticks) * step.units, step.scale);
}

/** A price the user typed → whole ticks, or the error code that explains why not. */
export function ticksOfPrice(text: string, step: Step): bigint | ErrorCode {
  const parsed = parseAmount(text, step.scale);
  if (!parsed.ok) return "price_not_on_tick";
  if (parsed.value <= 0n) return "price_must_be_positive";
  if (parsed.value % step.units !== 0n) return "price_not_on_tick";
  const ticks = parsed.value / step.units;
  if (ticks > 1_000_000_000_000n) return "price_too_high";
  return ticks;
}

/** A rate in units of 10^-8 as a decimal fraction. */
export function rateOfE8(rateE8: bigint): string {
  return formatAmount(rateE8, 8);
}

const abs = (v: bigint) => (v < 0n ? -v : v);

/** The API view of a position with the figures at the mark (spec §3). */
export function positionViewOf(
  p: PerpPositionFigures,
  step: Step,
  asset: string,
  scale: number,
): PerpPositionView {
  const money = (v: bigint) => formatAmount(v, scale);
  const size = p.sizeLots;
  const lots = abs(size);
  // The average open price with two more decimals than the price step (an average).
  const entryPrice =
    size === 0n
      ? null
      : formatAmount((p.entryCost * step.units * 100n) / (lots * p.tickLotUnits), step.scale + 2);
  // The PnL of closing the whole position at a trigger price (the estimated profit of spec §3).
  const pnlAt = (ticks: bigint | null) => {
    if (ticks === null || size === 0n) return null;
    const value = lots * ticks * p.tickLotUnits;
    return money(size > 0n ? value - p.entryCost : p.entryCost - value);
  };
  return {
    marketId: p.marketId,
    mode: p.mode,
    side: size > 0n ? "long" : size < 0n ? "short" : "flat",
    marginMode: p.marginMode,
    leverage: p.leverage,
    contracts: String(lots),
    asset,
    entryPrice,
    markPrice: p.markTicks === null ? null : priceOfTicks(p.markTicks, step),
    markTickIds: p.markTickIds,
    margin: money(p.margin),
    notional: money(p.notional),
    unrealisedPnl: money(p.unrealisedPnl),
    returnRateBps: p.margin > 0n ? Number((p.unrealisedPnl * 10_000n) / p.margin) : null,
    equity: money(p.equity),
    maintenanceMargin: money(p.maintenance),
    riskRatioBps: p.marginRatioBps === null ? null : Number(p.marginRatioBps),
    liquidationPrice: p.liquidationTicks === null ? null : priceOfTicks(p.liquidationTicks, step),
    takeProfitPrice: p.takeProfitTicks === null ? null : priceOfTicks(p.takeProfitTicks, step),
    stopLossPrice: p.stopLossTicks === null ? null : priceOfTicks(p.stopLossTicks, step),
    takeProfitPnl: pnlAt(p.takeProfitTicks),
    stopLossPnl: pnlAt(p.stopLossTicks),
    debt: money(p.debt),
  };
}
