import type { SpotFillView } from "@candor/contract";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useFormat } from "../../../lib/format.ts";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import {
  fetchOrderDetail,
  spotTradingKeys,
  tapeLink,
  type AccountMode,
} from "../api/spot-trading-api.ts";
import { OrderCard } from "./orders-panel.tsx";

function FillItem({
  fill,
  mode,
  instrumentId,
}: {
  fill: SpotFillView;
  mode: AccountMode;
  instrumentId: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const link = tapeLink(fill, mode);
  return (
    <li className="order-card" data-testid="fill-row">
      <dl>
        <dt>{t("coinCoin.fill.id")}</dt>
        <dd>{fill.fillId}</dd>
        <dt>{t("coinCoin.book.price")}</dt>
        <dd>
          <Amount value={fill.price} />
        </dd>
        <dt>{t("coinCoin.book.quantity")}</dt>
        <dd>
          <Amount value={fill.quantity} />
        </dd>
        <dt>{t("coinCoin.form.total")}</dt>
        <dd>
          <Amount value={fill.quoteAmount} />
        </dd>
        <dt>{t("coinCoin.fill.fee")}</dt>
        <dd>
          <Amount value={fill.fee} /> {fill.feeAsset}
        </dd>
        <dt>{t("coinCoin.fill.role")}</dt>
        <dd>{t(`coinCoin.fill.roles.${fill.role}`)}</dd>
        <dt>{t("coinCoin.fill.counterparty")}</dt>
        <dd data-testid="fill-counterparty">
          {t(`coinCoin.fill.counterparties.${fill.counterparty}`)}
        </dd>
        <dt>{t("coinCoin.fill.tick")}</dt>
        <dd data-testid="fill-tick">
          {fill.tickId ? (
            <Link
              to={`/tape/${encodeURIComponent(instrumentId)}/${encodeURIComponent(fill.tickId)}`}
            >
              {fill.tickId}
            </Link>
          ) : (
            t("coinCoin.fill.noTick")
          )}
        </dd>
        <dt>{t("coinCoin.order.time")}</dt>
        <dd>{format.dateTime(fill.atMs)}</dd>
      </dl>
      {link ? (
        <a href={link} target="_blank" rel="noreferrer" data-testid="fill-tape-link">
          {t("coinCoin.fill.tape")}
        </a>
      ) : null}
    </li>
  );
}

/** One order with its fills; each fill names its tape tick and links to the public tape. */
export function OrderDetailPage({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: spotTradingKeys.order(orderId),
    queryFn: () => fetchOrderDetail(orderId),
    refetchInterval: 5_000,
  });
  return (
    <section className="page" aria-labelledby="order-detail-title">
      <h1 id="order-detail-title">{t("coinCoin.order.detailTitle")}</h1>
      {detail.isPending ? <LoadingState /> : null}
      {detail.isError ? (
        <ErrorState message={detail.error.message} onRetry={() => void detail.refetch()} />
      ) : null}
      {detail.isSuccess ? (
        <>
          <ul className="order-list">
            <OrderCard order={detail.data.order} />
          </ul>
          <h2>{t("coinCoin.fill.title")}</h2>
          <p className="hint">{t("coinCoin.fill.tapeHint")}</p>
          {detail.data.fills.length === 0 ? <EmptyState /> : null}
          <ul className="order-list" data-testid="fills">
            {detail.data.fills.map((fill) => (
              <FillItem
                key={fill.fillId}
                fill={fill}
                mode={detail.data.order.mode}
                instrumentId={detail.data.order.instrumentId}
              />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
