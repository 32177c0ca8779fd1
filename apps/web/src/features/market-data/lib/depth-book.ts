import type { DepthLevel, WsServerMessage } from "@candor/contract";
import { formatDecimal, formatDecimalFixed, pow10 } from "@candor/decimal";
import {
  atCommonScale,
  compareDecimal,
  isZeroDecimal,
  readDecimal,
  type ScaledDecimal,
} from "../../../lib/decimal-text.ts";

/** An order book side as price → quantity, both decimal strings. */
export interface DepthBook {
  sequence: number;
  bids: DepthLevel[];
  asks: DepthLevel[];
  source: "order_book" | "simulated";
}

/** Applies changed levels (quantity "0" removes) and keeps the side sorted best first. */
export function applyLevels(
  levels: readonly DepthLevel[],
  changes: readonly DepthLevel[],
  side: "bids" | "asks",
): DepthLevel[] {
  const byPrice = new Map(levels.map((level) => [level[0], level]));
  for (const change of changes) {
    if (isZeroDecimal(change[1])) byPrice.delete(change[0]);
    else byPrice.set(change[0], change);
  }
  const sorted = [...byPrice.values()].sort((a, b) => compareDecimal(a[0], b[0]));
  return side === "bids" ? sorted.reverse() : sorted;
}

/** Applies one socket message to the book; returns "gap" when a diff does not follow on. */
export function reduceDepth(
  book: DepthBook | undefined,
  message: WsServerMessage,
): DepthBook | "gap" | undefined {
  if (message.type === "depth_snapshot") {
    const { sequence, bids, asks, source } = message.data;
    return { sequence, bids, asks, source };
  }
  if (message.type !== "depth_diff" || !book) return book;
  if (message.previousSequence !== book.sequence) return "gap";
  return {
    sequence: message.sequence,
    bids: applyLevels(book.bids, message.bids, "bids"),
    asks: applyLevels(book.asks, message.asks, "asks"),
    source: book.source,
  };
}

/** One row of the book as shown: the (grouped) price, its quantity and the running total. */
export interface BookRow {
  /** Price at the grouping step's decimals, e.g. "96646.40" (fixed decimals on every row). */
  price: string;
  /** Quantity at this price (summed within the group), a decimal string. */
  quantity: string;
  /** Quantity from the best price down to and including this row, a decimal string. */
  cumulative: string;
  /** Running total as a share of the deeper side's total, per mille (0–1000): the depth bar. */
  depthPerMille: number;
}

/** Decimals of a step such as "0.01" (2) or "10" (0). */
export function decimalsOfStep(step: string): number {
  return readDecimal(step)?.scale ?? 0;
}

/**
 * Groups the levels of one side by `groupStep` (a multiple of the tick, e.g. "0.1" or "10"):
 * bids round down and asks round up to the step, so a grouped price is never better than the
 * orders in it. Keeps `count` rows, best first. Exact: bigint units, no floats.
 */
function groupSide(
  levels: readonly DepthLevel[],
  side: "bids" | "asks",
  groupStep: string,
  count: number,
): { price: string; units: bigint; scale: number }[] {
  const step = readDecimal(groupStep);
  if (!step || step.units <= 0n) return [];
  const rows: { priceUnits: bigint; units: bigint; scale: number }[] = [];
  for (const [priceText, quantityText] of levels) {
    const price = readDecimal(priceText);
    const quantity = readDecimal(quantityText);
    if (!price || !quantity) continue;
    const [priceUnits, stepUnits, scale] = atCommonScale(price, step);
    const remainder = priceUnits % stepUnits;
    let grouped = priceUnits - remainder;
    if (side === "asks" && remainder !== 0n) grouped += stepUnits;
    // Back to the step's scale (grouped is a multiple of the step, so this is exact).
    const atStepScale = grouped / pow10(scale - step.scale);
    const last = rows.at(-1);
    if (last && last.priceUnits === atStepScale) {
      const [a, b, common] = atCommonScale(last, quantity);
      last.units = a + b;
      last.scale = common;
    } else {
      if (rows.length === count) break;
      rows.push({ priceUnits: atStepScale, units: quantity.units, scale: quantity.scale });
    }
  }
  return rows.map((row) => ({
    price: formatDecimalFixed(row.priceUnits, step.scale),
    units: row.units,
    scale: row.scale,
  }));
}

/**
 * Both sides of the book as rows to show: grouped by `groupStep`, `count` per side best first,
 * with running totals and depth bars measured against the deeper of the two sides.
 */
export function bookRows(
  book: Pick<DepthBook, "bids" | "asks">,
  groupStep: string,
  count: number,
): { bids: BookRow[]; asks: BookRow[] } {
  const sides = (["bids", "asks"] as const).map((side) => {
    let total: ScaledDecimal = { units: 0n, scale: 0 };
    return groupSide(book[side], side, groupStep, count).map((row) => {
      const [a, b, scale] = atCommonScale(total, row);
      total = { units: a + b, scale };
      return { price: row.price, quantity: row, cumulative: total };
    });
  });
  const deepest = sides
    .map((rows) => rows.at(-1)?.cumulative)
    .filter((value): value is ScaledDecimal => value !== undefined)
    .reduce<ScaledDecimal>(
      (max, value) => {
        const [a, b] = atCommonScale(max, value);
        return b > a ? value : max;
      },
      { units: 0n, scale: 0 },
    );
  const [bids = [], asks = []] = sides.map((rows) =>
    rows.map((row) => {
      const [part, whole] = atCommonScale(row.cumulative, deepest);
      return {
        price: row.price,
        quantity: formatDecimal(row.quantity.units, row.quantity.scale),
        cumulative: formatDecimal(row.cumulative.units, row.cumulative.scale),
        // A bar width in per mille: for pixels only, never shown as an amount.
        depthPerMille: whole > 0n ? Number((part * 1000n) / whole) : 0,
      };
    }),
  );
  return { bids, asks };
}
