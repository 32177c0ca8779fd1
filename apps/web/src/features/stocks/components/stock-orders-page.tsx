import type { StockFillView, StockOrderView } from "@candor/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Tabs } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { useFormat } from "../../../lib/format.ts";
import {
  cancelStockOrder,
  fetchStockFills,
  fetchStockOrders,
  stocksKeys,
} from "../api/stocks-api.ts";

function OrderRow({ order, onCancel }: { order: StockOrderView; onCancel?: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <li className="spot-card" data-testid={`stock-order-${order.orderId}`}>
      <strong>{order.instrumentId}</strong> {t(`stocks.order.${order.side}`)} {order.quantity} ·{" "}
      {t(`stocks.order.${order.kind}`)}
      {order.limitPrice ? (
        <>
          {" "}
          @ <Amount value={order.limitPrice} />
        </>
      ) : null}{" "}
      · {t(`stocks.status.${order.status}`)} · {format.dateTime(order.placedAtMs)}
      {onCancel ? (
        <Button size="mini" onClick={onCancel} data-testid="stock-cancel">
          {t("stocks.orders.cancel")}
        </Button>
      ) : null}
    </li>
  );
}

function FillRow({ fill }: { fill: StockFillView }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <li className="spot-card" data-testid={`stock-fill-${fill.orderId}`}>
      <strong>{fill.instrumentId}</strong> {t(`stocks.order.${fill.side}`)} {fill.quantity} @{" "}
      <Amount value={fill.price} /> · {t("stocks.cost.commission")}{" "}
      <Amount value={fill.commission} /> · {t("stocks.cost.stampDuty")}{" "}
      <Amount value={fill.stampDuty} /> · {t("stocks.cost.net")} <Amount value={fill.net} />{" "}
      {fill.asset}
      {fill.origin !== "user" ? ` · ${t(`stocks.origin.${fill.origin}`)}` : ""} ·{" "}
      <Link
        to={`/tape/${encodeURIComponent(fill.instrumentId)}/${encodeURIComponent(fill.tickId)}`}
      >
        {fill.tickId}
      </Link>{" "}
      · {format.dateTime(fill.filledAtMs)}
    </li>
  );
}

/** StockOrders (spec futures/StockOrders): current orders, history and fills (deals). */
export function StockOrdersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState("pending");
  const pending = useQuery({
    queryKey: stocksKeys.orders("pending"),
    queryFn: () => fetchStockOrders("pending"),
    refetchInterval: 3_000,
  });
  const history = useQuery({
    queryKey: stocksKeys.orders("history"),
    queryFn: () => fetchStockOrders("history"),
    enabled: tab === "history",
  });
  const fills = useQuery({
    queryKey: stocksKeys.fills(),
    queryFn: fetchStockFills,
    enabled: tab === "fills",
  });
  const cancel = (orderId: string) => {
    withLoading(cancelStockOrder(orderId))
      .then(() => void queryClient.invalidateQueries({ queryKey: stocksKeys.all }))
      .catch(showError);
  };
  const shown = tab === "pending" ? pending : tab === "history" ? history : fills;
  return (
    <section className="page" aria-labelledby="stock-orders-title">
      <h1 id="stock-orders-title">{t("stocks.orders.title")}</h1>
      <Tabs activeKey={tab} onChange={setTab}>
        <Tabs.Tab title={t("stocks.orders.pending")} key="pending" />
        <Tabs.Tab title={t("stocks.orders.history")} key="history" />
        <Tabs.Tab title={t("stocks.orders.fills")} key="fills" />
      </Tabs>
      {shown.isPending ? <LoadingState /> : null}
      {shown.isError ? (
        <ErrorState message={shown.error.message} onRetry={() => void shown.refetch()} />
      ) : null}
      {tab === "fills" && fills.isSuccess ? (
        fills.data.items.length === 0 ? (
          <EmptyState />
        ) : (
          <ul className="plain-list">
            {fills.data.items.map((f) => (
              <FillRow key={f.orderId} fill={f} />
            ))}
          </ul>
        )
      ) : null}
      {tab !== "fills" && (tab === "pending" ? pending : history).isSuccess ? (
        (tab === "pending" ? pending : history).data!.items.length === 0 ? (
          <EmptyState />
        ) : (
          <ul className="plain-list">
            {(tab === "pending" ? pending : history).data!.items.map((o) => (
              <OrderRow
                key={o.orderId}
                order={o}
                onCancel={o.status === "pending" ? () => cancel(o.orderId) : undefined}
              />
            ))}
          </ul>
        )
      ) : null}
      <Link to="/stocks">{t("stocks.title")}</Link>
    </section>
  );
}
