import type { StockHoldingView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Input } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState } from "../../../components/ui/states.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { setStockTpSl, stocksKeys } from "../api/stocks-api.ts";
import { signOf } from "../lib/lots.ts";

/** The take-profit / stop-loss editor of one holding (spec setwinlose). */
function TpSlEditor({ holding }: { holding: StockHoldingView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [takeProfit, setTakeProfit] = useState(holding.takeProfit ?? "");
  const [stopLoss, setStopLoss] = useState(holding.stopLoss ?? "");
  const save = () => {
    withLoading(
      setStockTpSl(holding.instrumentId, {
        takeProfit: takeProfit.trim() === "" ? null : takeProfit.trim(),
        stopLoss: stopLoss.trim() === "" ? null : stopLoss.trim(),
      }),
    )
      .then(() => {
        showSuccess();
        void queryClient.invalidateQueries({ queryKey: stocksKeys.all });
      })
      .catch(showError);
  };
  return (
    <div className="row" data-testid={`tpsl-${holding.instrumentId}`}>
      <Input
        aria-label={t("stocks.tpsl.takeProfit")}
        placeholder={t("stocks.tpsl.takeProfit")}
        className="boxed-input"
        inputMode="decimal"
        value={takeProfit}
        onChange={setTakeProfit}
        data-testid="tp-input"
      />
      <Input
        aria-label={t("stocks.tpsl.stopLoss")}
        placeholder={t("stocks.tpsl.stopLoss")}
        className="boxed-input"
        inputMode="decimal"
        value={stopLoss}
        onChange={setStopLoss}
        data-testid="sl-input"
      />
      <Button size="small" onClick={save} data-testid="tpsl-save">
        {t("stocks.tpsl.save")}
      </Button>
    </div>
  );
}

/** Holdings with average cost, market value and PnL at the last quote, and their TP/SL. */
export function HoldingsList({ items }: { items: StockHoldingView[] }) {
  const { t } = useTranslation();
  const held = items.filter((h) => h.quantity !== "0");
  if (held.length === 0) return <EmptyState text={t("stocks.holdings.empty")} />;
  return (
    <ul className="plain-list" data-testid="stock-holdings">
      {held.map((h) => (
        <li key={h.instrumentId} className="spot-card" data-testid={`holding-${h.instrumentId}`}>
          <strong>{h.instrumentId}</strong>
          <dl className="detail-list">
            <dt>{t("stocks.holdings.quantity")}</dt>
            <dd data-testid="holding-quantity">{h.quantity}</dd>
            <dt>{t("stocks.holdings.averageCost")}</dt>
            <dd>
              <Amount value={h.averageCost ?? undefined} /> {h.asset}
            </dd>
            <dt>{t("stocks.holdings.marketValue")}</dt>
            <dd>
              <Amount value={h.marketValue ?? undefined} />
            </dd>
            <dt>{t("stocks.holdings.unrealised")}</dt>
            <dd className={signOf(h.unrealisedPnl)}>
              <Amount value={h.unrealisedPnl ?? undefined} />
            </dd>
            <dt>{t("stocks.holdings.realised")}</dt>
            <dd className={signOf(h.realisedPnl)}>
              <Amount value={h.realisedPnl} />
            </dd>
          </dl>
          <TpSlEditor holding={h} />
        </li>
      ))}
    </ul>
  );
}
