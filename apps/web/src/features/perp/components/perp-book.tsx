import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { fetchPerpBook, perpKeys, tickRoute } from "../api/perp-api.ts";

const levels = 8;

/**
 * The perpetual's central limit order book in the session's mode (asks above, best nearest the
 * middle; bids below; contracts per level) and its latest trades, each with the mark's tape
 * tick. The labelled market maker's quotes are in it like anyone's.
 */
export function PerpBook({
  marketId,
  instrumentId,
  mode,
  markPrice,
  onPick,
}: {
  marketId: string;
  instrumentId: string;
  mode: "real" | "demo";
  markPrice: string | null;
  onPick: (price: string) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const book = useQuery({
    queryKey: perpKeys.book(mode, marketId),
    queryFn: () => fetchPerpBook(marketId, mode, levels),
    refetchInterval: 2_000,
  });
  if (book.isPending) return <LoadingState />;
  if (book.isError) return <ErrorState message={book.error.message} />;
  const { bids, asks, trades } = book.data;
  const level = (row: { price: string; contracts: number }, side: "bid" | "ask") => (
    <li key={`${side}-${row.price}`}>
      <button
        type="button"
        className={`depth-level ${side}`}
        onClick={() => onPick(row.price)}
        data-testid={`perp-depth-${side}`}
      >
        <span className={side === "bid" ? "change up" : "change down"}>
          <Amount value={row.price} />
        </span>
        <span>{row.contracts}</span>
      </button>
    </li>
  );
  return (
    <section className="spot-card" aria-label={t("perp.book.title")} data-testid="perp-book">
      <h2>{t("perp.book.title")}</h2>
      {bids.length === 0 && asks.length === 0 ? (
        <EmptyState text={t("perp.book.empty")} />
      ) : (
        <div className="order-book compact">
          <div className="depth-head" aria-hidden="true">
            <span>{t("perp.book.price")}</span>
            <span>{t("perp.book.contracts")}</span>
          </div>
          <ul className="depth-side" aria-label={t("perp.book.asks")}>
            {[...asks].reverse().map((row) => level(row, "ask"))}
          </ul>
          <p className="depth-last">
            <Amount value={markPrice ?? undefined} />
          </p>
          <ul className="depth-side" aria-label={t("perp.book.bids")}>
            {bids.map((row) => level(row, "bid"))}
          </ul>
        </div>
      )}
      <h2>{t("perp.trades.title")}</h2>
      {trades.length === 0 ? (
        <EmptyState text={t("perp.book.noTrades")} />
      ) : (
        <table className="spot-table" data-testid="perp-trades">
          <thead>
            <tr>
              <th scope="col">{t("perp.trades.time")}</th>
              <th scope="col">{t("perp.book.price")}</th>
              <th scope="col">{t("perp.book.contracts")}</th>
              <th scope="col">{t("perp.trades.tick")}</th>
            </tr>
          </thead>
          <tbody>
            {trades.slice(0, 12).map((trade) => (
              <tr key={trade.fillId} data-testid="perp-trade-row">
                <td>{format.time(trade.atMs)}</td>
                <td className={trade.takerSide === "buy" ? "change up" : "change down"}>
                  <Amount value={trade.price} />
                  {trade.liquidation ? ` · ${t("perp.trades.liquidation")}` : ""}
                </td>
                <td>{trade.contracts}</td>
                <td>
                  {trade.tickIds.slice(0, 1).map((id) => (
                    <Link key={id} to={tickRoute(instrumentId, id)}>
                      {id}
                    </Link>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
