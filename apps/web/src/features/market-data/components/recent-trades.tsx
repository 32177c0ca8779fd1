import type { TradeView } from "@candor/contract";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../../lib/format.ts";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";

/** The latest prints of the pair's tape, newest first, with the taker's side. */
export function RecentTrades({
  trades,
  isPending,
  error,
  priceScale,
}: {
  trades: readonly TradeView[];
  isPending: boolean;
  error: Error | null;
  priceScale: number;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  if (isPending) return <LoadingState />;
  if (error && trades.length === 0) return <ErrorState message={error.message} />;
  if (trades.length === 0) return <EmptyState />;
  return (
    <table className="spot-table" data-testid="recent-trades">
      <thead>
        <tr>
          <th scope="col">{t("coinCoin.trades.time")}</th>
          <th scope="col">{t("coinCoin.book.price")}</th>
          <th scope="col">{t("coinCoin.book.quantity")}</th>
        </tr>
      </thead>
      <tbody>
        {trades.map((trade) => (
          <tr key={trade.id} data-testid="trade-row">
            <td>{format.time(trade.atMs)}</td>
            <td
              className={
                trade.takerSide === "buy"
                  ? "change up"
                  : trade.takerSide === "sell"
                    ? "change down"
                    : ""
              }
            >
              <Amount value={trade.price} decimalsMax={priceScale} />
            </td>
            <td>
              <Amount value={trade.quantity} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
