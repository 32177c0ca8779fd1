import type { SpotConditionalOrderView, SpotOrderView } from "@candor/contract";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Button, Tabs, Tag } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../../lib/format.ts";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, EndOfList, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { confirmThenRun, promptText } from "../../../lib/dialogs.tsx";
import { runWithFeedback } from "../../../lib/feedback.ts";
import { conditionalReason } from "../lib/conditional-reason.ts";
import {
  amendSpotOrder,
  cancelAllSpotOrders,
  cancelConditionalOrder,
  cancelSpotOrder,
  fetchConditionalOrders,
  fetchOpenOrders,
  fetchOrderHistory,
  spotTradingKeys,
  useRefreshOrders,
} from "../api/spot-trading-api.ts";

/** Refetch cadence of the user's lists while shown (the socket pushes changes sooner). */
export const ordersRefetchMs = 3_000;

/** One order: side, type, price, quantities, average, total, status, time, number. */
export function OrderCard({
  order,
  onCancel,
  onAmend,
}: {
  order: SpotOrderView;
  onCancel?: (order: SpotOrderView) => void;
  onAmend?: (order: SpotOrderView) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <li className="order-card" data-testid="order-card" data-order-id={order.orderId}>
      <div className="order-card-head">
        <span className={order.side === "buy" ? "change up" : "change down"}>
          {t(`coinCoin.order.side.${order.side}`)} · {t(`coinCoin.form.${order.type}`)}
        </span>
        <Tag color="primary" fill="outline" data-testid="order-status">
          {t(`coinCoin.order.status.${order.status}`)}
        </Tag>
      </div>
      <dl>
        <dt>{t("coinCoin.book.price")}</dt>
        <dd>{order.price === null ? t("coinCoin.form.market") : <Amount value={order.price} />}</dd>
        <dt>{t("coinCoin.book.quantity")}</dt>
        <dd data-testid="order-card-quantity">
          <Amount value={order.quantity} />
        </dd>
        <dt>{t("coinCoin.order.filled")}</dt>
        <dd data-testid="order-filled">
          <Amount value={order.filledQuantity} />
        </dd>
        <dt>{t("coinCoin.order.average")}</dt>
        <dd>
          <Amount value={order.averagePrice ?? undefined} />
        </dd>
        <dt>{t("coinCoin.form.total")}</dt>
        <dd>
          <Amount value={order.filledQuote} />
        </dd>
        <dt>{t("coinCoin.order.time")}</dt>
        <dd>{format.dateTime(order.createdAtMs)}</dd>
        <dt>{t("coinCoin.order.number")}</dt>
        <dd>{order.orderId}</dd>
      </dl>
      <div className="order-card-head">
        <Link to={`/coin-coin/orders/${order.orderId}`} data-testid="order-detail-link">
          {t("coinCoin.order.details")}
        </Link>
        {onAmend ? (
          <Button size="mini" onClick={() => onAmend(order)} data-testid="order-amend">
            {t("coinCoin.order.amend")}
          </Button>
        ) : null}
        {onCancel ? (
          <Button size="mini" onClick={() => onCancel(order)} data-testid="order-cancel">
            {t("coinCoin.order.cancel")}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** A stop, take-profit or OCO stop leg: trigger, state and, once fired, the tape tick. */
export function ConditionalCard({
  order,
  onCancel,
}: {
  order: SpotConditionalOrderView;
  onCancel?: (order: SpotConditionalOrderView) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const reason = conditionalReason(order);
  return (
    <li className="order-card" data-testid="conditional-card" data-order-id={order.orderId}>
      <div className="order-card-head">
        <span className={order.side === "buy" ? "change up" : "change down"}>
          {t(`coinCoin.order.side.${order.side}`)} ·{" "}
          {t(`coinCoin.order.kind.${order.ocoOrderId ? "oco" : order.kind}`)} ·{" "}
          {t(`coinCoin.form.${order.type}`)}
        </span>
        <Tag color="primary" fill="outline" data-testid="conditional-status">
          {t(`coinCoin.order.conditionalStatus.${order.status}`)}
        </Tag>
      </div>
      <dl>
        <dt>{t("coinCoin.form.triggerPrice")}</dt>
        <dd data-testid="conditional-trigger">
          <Amount value={order.triggerPrice} />
        </dd>
        <dt>{t("coinCoin.book.price")}</dt>
        <dd>{order.price === null ? t("coinCoin.form.market") : <Amount value={order.price} />}</dd>
        <dt>{t("coinCoin.book.quantity")}</dt>
        <dd>
          <Amount value={order.quantity ?? order.quoteAmount ?? undefined} />
        </dd>
        {order.tickId ? (
          <>
            <dt>{t("coinCoin.order.firedBy")}</dt>
            <dd data-testid="conditional-tick">
              {order.tickId} · <Amount value={order.tickPrice ?? undefined} />
            </dd>
          </>
        ) : null}
        {reason ? (
          <>
            <dt>{t("coinCoin.order.reason")}</dt>
            <dd data-testid="conditional-reason">
              {"key" in reason ? t(reason.key) : reason.code}
            </dd>
          </>
        ) : null}
        {order.resultOrderId ? (
          <>
            <dt>{t("coinCoin.order.placedOrder")}</dt>
            <dd>
              <Link to={`/coin-coin/orders/${order.resultOrderId}`}>{order.resultOrderId}</Link>
            </dd>
          </>
        ) : null}
        <dt>{t("coinCoin.order.time")}</dt>
        <dd>{format.dateTime(order.createdAtMs)}</dd>
      </dl>
      {onCancel ? (
        <div className="order-card-head">
          <Button size="mini" onClick={() => onCancel(order)} data-testid="conditional-cancel">
            {t("coinCoin.order.cancel")}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** Current orders (cancel, cancel all) and history (paged) of the pair, in the session's mode. */
export function OrdersPanel({
  instrumentId,
  onFundsChanged,
}: {
  instrumentId: string;
  /** Orders were cancelled: held money is available again. */
  onFundsChanged: () => void;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState("open");
  const open = useQuery({
    queryKey: spotTradingKeys.openOrders(instrumentId),
    queryFn: () => fetchOpenOrders(instrumentId),
    refetchInterval: ordersRefetchMs,
  });
  const history = useInfiniteQuery({
    queryKey: spotTradingKeys.history(instrumentId),
    queryFn: ({ pageParam }) =>
      fetchOrderHistory({ instrumentId, limit: 20, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: "",
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: tab === "history",
    refetchInterval: tab === "history" ? ordersRefetchMs : false,
  });

  const pending = useQuery({
    queryKey: spotTradingKeys.conditional(instrumentId, "pending"),
    queryFn: () => fetchConditionalOrders(instrumentId, "pending"),
    enabled: tab === "conditional",
    refetchInterval: tab === "conditional" ? ordersRefetchMs : false,
  });
  const finished = useQuery({
    queryKey: spotTradingKeys.conditional(instrumentId, "finished"),
    queryFn: () => fetchConditionalOrders(instrumentId, "finished"),
    enabled: tab === "conditional",
    refetchInterval: tab === "conditional" ? ordersRefetchMs : false,
  });

  const refresh = useRefreshOrders(onFundsChanged);

  /** Asks `question`; when confirmed, runs `work`, says how it went and refreshes the orders. */
  const confirmThen = async (question: string, work: () => Promise<unknown>) => {
    if ((await confirmThenRun(question, work)) !== "dismissed") refresh();
  };

  /** A new remaining size for an open order (decimal comma accepted). */
  const amend = async (order: SpotOrderView) => {
    const quantity = await promptText({
      title: t("coinCoin.order.amendTitle"),
      hint: t("coinCoin.order.amendHint"),
      label: t("coinCoin.form.quantity"),
      initial: order.remainingQuantity,
      inputMode: "decimal",
      testId: "amend-quantity",
    });
    if (quantity === null) return;
    await runWithFeedback(() => amendSpotOrder(order.orderId, quantity.replace(",", ".")));
    refresh();
  };
  const cancelConditional = (order: SpotConditionalOrderView) =>
    confirmThen(t("coinCoin.order.cancelConfirm"), () => cancelConditionalOrder(order.orderId));
  const cancel = (order: SpotOrderView) =>
    confirmThen(t("coinCoin.order.cancelConfirm"), () => cancelSpotOrder(order.orderId));
  const cancelAll = () =>
    confirmThen(t("coinCoin.order.cancelAllConfirm"), () => cancelAllSpotOrders(instrumentId));

  const historyItems = history.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="spot-card" aria-labelledby="orders-title">
      <h2 id="orders-title">{t("coinCoin.order.title")}</h2>
      <Tabs activeKey={tab} onChange={setTab}>
        <Tabs.Tab key="open" title={t("coinCoin.order.current")}>
          {open.isPending ? <LoadingState /> : null}
          {open.isError ? (
            <ErrorState message={open.error.message} onRetry={() => void open.refetch()} />
          ) : null}
          {open.isSuccess && open.data.items.length === 0 ? <EmptyState /> : null}
          {open.isSuccess && open.data.items.length > 0 ? (
            <>
              <Button size="small" onClick={() => void cancelAll()} data-testid="cancel-all">
                {t("coinCoin.order.cancelAll")}
              </Button>
              <ul className="order-list" data-testid="open-orders">
                {open.data.items.map((order) => (
                  <OrderCard
                    key={order.orderId}
                    order={order}
                    onCancel={(o) => void cancel(o)}
                    onAmend={(o) => void amend(o)}
                  />
                ))}
              </ul>
            </>
          ) : null}
        </Tabs.Tab>
        <Tabs.Tab key="conditional" title={t("coinCoin.order.conditional")}>
          {pending.isPending && tab === "conditional" ? <LoadingState /> : null}
          {pending.isError ? (
            <ErrorState message={pending.error.message} onRetry={() => void pending.refetch()} />
          ) : null}
          {pending.isSuccess &&
          pending.data.items.length === 0 &&
          (finished.data?.items.length ?? 0) === 0 ? (
            <EmptyState />
          ) : null}
          {(pending.data?.items.length ?? 0) + (finished.data?.items.length ?? 0) > 0 ? (
            <ul className="order-list" data-testid="conditional-orders">
              {pending.data?.items.map((order) => (
                <ConditionalCard
                  key={order.orderId}
                  order={order}
                  onCancel={(o) => void cancelConditional(o)}
                />
              ))}
              {finished.data?.items.map((order) => (
                <ConditionalCard key={order.orderId} order={order} />
              ))}
            </ul>
          ) : null}
        </Tabs.Tab>
        <Tabs.Tab key="history" title={t("coinCoin.order.history")}>
          {history.isPending && tab === "history" ? <LoadingState /> : null}
          {history.isError ? (
            <ErrorState message={history.error.message} onRetry={() => void history.refetch()} />
          ) : null}
          {history.isSuccess && historyItems.length === 0 ? <EmptyState /> : null}
          {historyItems.length > 0 ? (
            <ul className="order-list" data-testid="order-history">
              {historyItems.map((order) => (
                <OrderCard key={order.orderId} order={order} />
              ))}
            </ul>
          ) : null}
          {history.hasNextPage ? (
            <Button size="small" onClick={() => void history.fetchNextPage()}>
              {t("coinCoin.order.more")}
            </Button>
          ) : historyItems.length > 0 ? (
            <EndOfList />
          ) : null}
        </Tabs.Tab>
      </Tabs>
    </section>
  );
}
