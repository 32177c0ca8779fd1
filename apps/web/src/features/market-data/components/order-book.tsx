import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { formatDecimal, pow10 } from "@candor/decimal";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, LoadingState } from "../../../components/ui/states.tsx";
import { readDecimal } from "../../../lib/decimal-text.ts";
import { useFormat } from "../../../lib/format.ts";
import { bookRows, decimalsOfStep, type BookRow, type DepthBook } from "../lib/depth-book.ts";

/** Levels per side: the compact book beside the order form, and the full book below. */
const levelsShown = { compact: 7, full: 15 } as const;

/** Grouping steps offered: the tick, then 10 and 100 ticks (e.g. 0.01, 0.1, 1). */
export function groupSteps(tickSize: string): string[] {
  const tick = readDecimal(tickSize);
  if (!tick || tick.units <= 0n) return [tickSize];
  return [0, 1, 2].map((k) => formatDecimal(tick.units * pow10(k), tick.scale));
}

function Level({
  row,
  side,
  onPick,
  priceDecimals,
  quantityScale,
  withTotal,
}: {
  row: BookRow;
  side: "bid" | "ask";
  onPick: (price: string) => void;
  priceDecimals: number;
  quantityScale: number;
  withTotal: boolean;
}) {
  const { t } = useTranslation();
  // The bar is the running total as a share of the deeper side: a width for pixels only.
  const style = { "--depth": `${row.depthPerMille / 10}%` } as CSSProperties;
  return (
    <li>
      <button
        type="button"
        className={`depth-level ${side}`}
        style={style}
        onClick={() => onPick(row.price)}
        title={t("coinCoin.book.pick", { price: row.price })}
        data-testid={`depth-${side}`}
      >
        <span className={side === "bid" ? "change up" : "change down"} data-testid="depth-price">
          <Amount value={row.price} decimalsMax={priceDecimals} decimalsMin={priceDecimals} />
        </span>
        <Amount value={row.quantity} decimalsMax={quantityScale} decimalsMin={quantityScale} />
        {withTotal ? (
          <span data-testid="depth-total">
            <Amount
              value={row.cumulative}
              decimalsMax={quantityScale}
              decimalsMin={quantityScale}
            />
          </span>
        ) : null}
      </button>
    </li>
  );
}

/**
 * The order book of the pair in the session's mode: asks above (best nearest the middle), bids
 * below, every row at the market's decimals, with depth bars of the running total. `compact`
 * sits beside the order form (price and quantity); `full` adds the running total column.
 * Tapping a level puts its price into the order form.
 */
export function OrderBook({
  book,
  tickSize,
  quantityScale,
  lastPrice,
  onPick,
  variant,
  groupStep,
  onGroupStep,
}: {
  book: DepthBook | undefined;
  /** The market's price step, e.g. "0.01": the finest grouping and the decimals shown. */
  tickSize: string;
  quantityScale: number;
  lastPrice: string | undefined;
  onPick: (price: string) => void;
  variant: "compact" | "full";
  /** Current grouping step (one of `groupSteps(tickSize)`). */
  groupStep: string;
  onGroupStep: (step: string) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const testId = variant === "compact" ? "order-book" : "order-book-full";
  if (!book) return <LoadingState />;
  if (book.bids.length === 0 && book.asks.length === 0) {
    return (
      <div data-testid={variant === "compact" ? "book-empty" : "book-empty-full"}>
        <EmptyState text={t("coinCoin.book.empty")} />
      </div>
    );
  }
  const rows = bookRows(book, groupStep, levelsShown[variant]);
  const priceDecimals = decimalsOfStep(groupStep);
  const withTotal = variant === "full";
  const level = (row: BookRow, side: "bid" | "ask") => (
    <Level
      key={row.price}
      row={row}
      side={side}
      onPick={onPick}
      priceDecimals={priceDecimals}
      quantityScale={quantityScale}
      withTotal={withTotal}
    />
  );
  return (
    <div className={`order-book ${variant}`} data-testid={testId}>
      <div className={`depth-head${withTotal ? " with-total" : ""}`} aria-hidden="true">
        <span>{t("coinCoin.book.price")}</span>
        <span>{t("coinCoin.book.quantity")}</span>
        {withTotal ? <span>{t("coinCoin.book.total")}</span> : null}
      </div>
      <ul className="depth-side" aria-label={t("coinCoin.book.asks")}>
        {[...rows.asks].reverse().map((row) => level(row, "ask"))}
      </ul>
      <p className="depth-last" data-testid={variant === "compact" ? "depth-last" : undefined}>
        <Amount
          value={lastPrice}
          decimalsMax={decimalsOfStep(tickSize)}
          decimalsMin={decimalsOfStep(tickSize)}
        />
      </p>
      <ul className="depth-side" aria-label={t("coinCoin.book.bids")}>
        {rows.bids.map((row) => level(row, "bid"))}
      </ul>
      <label className="depth-precision">
        <span className="visually-hidden">{t("coinCoin.book.precision")}</span>
        <select
          className="native-select"
          value={groupStep}
          onChange={(event) => onGroupStep(event.target.value)}
          data-testid={variant === "compact" ? "book-precision" : undefined}
        >
          {groupSteps(tickSize).map((step) => (
            <option key={step} value={step}>
              {format.amount(step, { decimalsMax: decimalsOfStep(step) })}
            </option>
          ))}
        </select>
      </label>
      {book.source === "simulated" ? (
        <p className="hint" data-testid={variant === "compact" ? "depth-simulated" : undefined}>
          {t("coinCoin.book.simulated")}
        </p>
      ) : null}
    </div>
  );
}
