import type { DepthLevel } from "@candor/contract";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, LoadingState } from "../../../components/ui/states.tsx";
import type { DepthBook } from "../lib/depth-book.ts";

/** Levels shown per side on a phone. */
const levelsShown = 8;

function Level({
  level,
  side,
  onPick,
  priceScale,
}: {
  level: DepthLevel;
  side: "bid" | "ask";
  onPick: (price: string) => void;
  priceScale: number;
}) {
  const { t } = useTranslation();
  const [price, quantity] = level;
  return (
    <li>
      <button
        type="button"
        className={`depth-level ${side}`}
        onClick={() => onPick(price)}
        title={t("coinCoin.book.pick", { price })}
        data-testid={`depth-${side}`}
      >
        <span className={side === "bid" ? "change up" : "change down"}>
          <Amount value={price} decimalsMax={priceScale} />
        </span>
        <Amount value={quantity} />
      </button>
    </li>
  );
}

/**
 * The order book of the pair in the session's mode: asks above (best nearest the middle), bids
 * below. Tapping a level puts its price into the order form.
 */
export function OrderBook({
  book,
  priceScale,
  lastPrice,
  onPick,
}: {
  book: DepthBook | undefined;
  priceScale: number;
  lastPrice: string | undefined;
  onPick: (price: string) => void;
}) {
  const { t } = useTranslation();
  if (!book) return <LoadingState />;
  if (book.bids.length === 0 && book.asks.length === 0) {
    return (
      <div data-testid="book-empty">
        <EmptyState text={t("coinCoin.book.empty")} />
      </div>
    );
  }
  const asks = book.asks.slice(0, levelsShown).reverse();
  const bids = book.bids.slice(0, levelsShown);
  return (
    <div className="order-book" data-testid="order-book">
      <div className="depth-head" aria-hidden="true">
        <span>{t("coinCoin.book.price")}</span>
        <span>{t("coinCoin.book.quantity")}</span>
      </div>
      <ul className="depth-side" aria-label={t("coinCoin.book.asks")}>
        {asks.map((level) => (
          <Level key={level[0]} level={level} side="ask" onPick={onPick} priceScale={priceScale} />
        ))}
      </ul>
      <p className="depth-last" data-testid="depth-last">
        <Amount value={lastPrice} decimalsMax={priceScale} />
      </p>
      <ul className="depth-side" aria-label={t("coinCoin.book.bids")}>
        {bids.map((level) => (
          <Level key={level[0]} level={level} side="bid" onPick={onPick} priceScale={priceScale} />
        ))}
      </ul>
      {book.source === "simulated" ? (
        <p className="hint" data-testid="depth-simulated">
          {t("coinCoin.book.simulated")}
        </p>
      ) : null}
    </div>
  );
}
