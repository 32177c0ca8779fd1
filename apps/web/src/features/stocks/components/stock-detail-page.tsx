import type { StockEstimateView, StockFillView, StockView } from "@candor/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Checkbox, Input, Popup, Selector } from "antd-mobile";
import { useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { useFormat } from "../../../lib/format.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { askToSetTradePassword } from "../../../lib/trade-password.tsx";
import {
  estimateStockOrder,
  fetchStock,
  fetchStockHoldings,
  fetchStockNews,
  placeStockOrder,
  stocksKeys,
  type StockOrderInput,
} from "../api/stocks-api.ts";
import { sharesOf } from "../lib/lots.ts";
import { HoldingsList } from "./holdings-list.tsx";

const sheetStyle = { maxHeight: "85vh", overflowY: "auto" } as const;

/** The cost breakdown shown before confirming and after the fill. */
function CostBreakdown({
  cost,
  asset,
}: {
  cost: StockEstimateView | StockFillView;
  asset: string;
}) {
  const { t } = useTranslation();
  return (
    <dl className="detail-list" data-testid="stock-cost">
      <dt>{t("stocks.cost.price")}</dt>
      <dd data-testid="cost-price">
        <Amount value={cost.price} />
      </dd>
      <dt>{t("stocks.cost.notional")}</dt>
      <dd>
        <Amount value={cost.notional} /> {asset}
      </dd>
      <dt>{t("stocks.cost.commission")}</dt>
      <dd data-testid="cost-commission">
        <Amount value={cost.commission} /> {asset}
      </dd>
      <dt>{t("stocks.cost.stampDuty")}</dt>
      <dd data-testid="cost-stamp-duty">
        <Amount value={cost.stampDuty} /> {asset}
      </dd>
      <dt>{t("stocks.cost.net")}</dt>
      <dd data-testid="cost-net">
        <Amount value={cost.net} /> {asset}
      </dd>
    </dl>
  );
}

/** The order sheet: side, market/limit, lots, limit price, day/GTC, review with costs, confirm. */
function OrderForm({ stock }: { stock: StockView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const queryClient = useQueryClient();
  const [side, setSide] = useState<"buy" | "sell">("buy");
  const [kind, setKind] = useState<"market" | "limit">("market");
  const [lots, setLots] = useState("1");
  const [limitPrice, setLimitPrice] = useState("");
  const [tif, setTif] = useState<"day" | "gtc">("day");
  const [queueForOpen, setQueueForOpen] = useState(false);
  const [review, setReview] = useState<{ input: StockOrderInput; cost: StockEstimateView }>();
  const [filled, setFilled] = useState<StockFillView | null | undefined>();
  const [password, setPassword] = useState("");
  const passwordConfirmedMs = useRef<number | undefined>(undefined);
  const needsPassword =
    !isDemo(session) &&
    (passwordConfirmedMs.current === undefined ||
      Date.now() - passwordConfirmedMs.current > 15 * 60_000);
  const quantity = sharesOf(lots, stock.lotSize);
  const closed = !stock.session.open;

  const start = () => {
    if (!session) {
      navigate("/login");
      return;
    }
    if (quantity === undefined) {
      showError(new Error(t("stocks.order.lotsInvalid")));
      return;
    }
    const input: StockOrderInput = {
      instrumentId: stock.instrumentId,
      side,
      kind,
      quantity,
      ...(kind === "limit" ? { limitPrice: limitPrice.trim() } : {}),
    };
    withLoading(estimateStockOrder(input))
      .then((answer) => setReview({ input, cost: answer.estimate }))
      .catch(showError);
  };

  const confirm = () => {
    if (!review) return;
    withLoading(
      placeStockOrder({
        ...review.input,
        requestId: newIdempotencyKey(),
        tif: kind === "limit" ? tif : "day",
        queueForOpen: kind === "limit" && queueForOpen,
        ...(needsPassword ? { tradePassword: password } : {}),
      }),
    )
      .then((answer) => {
        if (needsPassword) passwordConfirmedMs.current = Date.now();
        setPassword("");
        setReview(undefined);
        setFilled(answer.fill);
        void queryClient.invalidateQueries({ queryKey: stocksKeys.all });
      })
      .catch((error: unknown) => {
        const code = (error as { code?: string }).code;
        if (code === "trade_password_required") passwordConfirmedMs.current = undefined;
        if (code === "trade_password_not_set") {
          setReview(undefined);
          void askToSetTradePassword();
          return;
        }
        if (code !== "trade_password_invalid") setReview(undefined);
        showError(error);
      });
  };

  return (
    <section className="spot-card stock-order" aria-labelledby="stock-order-title">
      <h2 id="stock-order-title">{t("stocks.order.title")}</h2>
      <Selector<"buy" | "sell">
        aria-label={t("stocks.order.side")}
        showCheckMark={false}
        columns={2}
        value={[side]}
        onChange={(v) => v[0] && setSide(v[0])}
        options={[
          { label: t("stocks.order.buy"), value: "buy" },
          { label: t("stocks.order.sell"), value: "sell" },
        ]}
        data-testid="stock-side"
      />
      <Selector<"market" | "limit">
        aria-label={t("stocks.order.kind")}
        showCheckMark={false}
        columns={2}
        value={[kind]}
        onChange={(v) => v[0] && setKind(v[0])}
        options={[
          { label: t("stocks.order.market"), value: "market" },
          { label: t("stocks.order.limit"), value: "limit" },
        ]}
        data-testid="stock-kind"
      />
      <Input
        aria-label={t("stocks.order.lots", { lotSize: stock.lotSize })}
        placeholder={t("stocks.order.lots", { lotSize: stock.lotSize })}
        className="boxed-input"
        inputMode="numeric"
        value={lots}
        onChange={setLots}
        data-testid="stock-lots"
      />
      <p className="hint" data-testid="stock-shares">
        {t("stocks.order.shares", { shares: quantity ?? "0" })}
      </p>
      {kind === "limit" ? (
        <>
          <Input
            aria-label={t("stocks.order.limitPrice")}
            placeholder={t("stocks.order.limitPrice")}
            className="boxed-input"
            inputMode="decimal"
            value={limitPrice}
            onChange={setLimitPrice}
            data-testid="stock-limit-price"
          />
          <Selector<"day" | "gtc">
            aria-label={t("stocks.order.tif")}
            showCheckMark={false}
            columns={2}
            value={[tif]}
            onChange={(v) => v[0] && setTif(v[0])}
            options={[
              { label: t("stocks.order.day"), value: "day" },
              { label: t("stocks.order.gtc"), value: "gtc" },
            ]}
          />
          {closed ? (
            <Checkbox checked={queueForOpen} onChange={setQueueForOpen}>
              {t("stocks.order.queueForOpen")}
            </Checkbox>
          ) : null}
        </>
      ) : null}
      <p className="hint">
        {t("stocks.order.terms", {
          spread: stock.spreadBps,
          commission: stock.commissionBps,
          minimum: stock.commissionMin,
          duty: stock.stampDutyBps,
          asset: stock.asset,
        })}
      </p>
      <Button
        block
        color={side === "buy" ? "success" : "danger"}
        onClick={start}
        data-testid="stock-review"
      >
        {side === "buy" ? t("stocks.order.buy") : t("stocks.order.sell")}
      </Button>
      <Popup
        visible={review !== undefined}
        onMaskClick={() => setReview(undefined)}
        position="bottom"
        bodyStyle={sheetStyle}
      >
        {review ? (
          <div
            className="page"
            role="dialog"
            aria-labelledby="stock-review-title"
            data-testid="stock-review-sheet"
          >
            <h2 id="stock-review-title">{t("stocks.order.review")}</h2>
            <p>
              {review.input.side === "buy" ? t("stocks.order.buy") : t("stocks.order.sell")}{" "}
              {review.input.quantity} × {stock.symbol}
            </p>
            <CostBreakdown cost={review.cost} asset={stock.asset} />
            <p className="hint">
              {review.input.side === "buy"
                ? t("stocks.order.prepaidHint")
                : t("stocks.order.proceedsHint")}
            </p>
            {needsPassword ? (
              <Input
                type="password"
                aria-label={t("coinCoin.password.label")}
                placeholder={t("coinCoin.password.label")}
                className="boxed-input"
                value={password}
                onChange={setPassword}
                data-testid="trade-password"
              />
            ) : null}
            <Button block color="primary" onClick={confirm} data-testid="stock-confirm">
              {t("stocks.order.confirm")}
            </Button>
          </div>
        ) : null}
      </Popup>
      <Popup
        visible={filled !== undefined}
        onMaskClick={() => setFilled(undefined)}
        position="bottom"
        bodyStyle={sheetStyle}
      >
        <div
          className="page"
          role="dialog"
          aria-labelledby="stock-result-title"
          data-testid="stock-result"
        >
          <h2 id="stock-result-title">
            {filled ? t("stocks.order.filled") : t("stocks.order.pending")}
          </h2>
          {filled ? (
            <>
              <CostBreakdown cost={filled} asset={stock.asset} />
              <p>
                {t("stocks.order.tick")}:{" "}
                <Link
                  to={`/tape/${encodeURIComponent(filled.instrumentId)}/${encodeURIComponent(filled.tickId)}`}
                  data-testid="stock-fill-tick"
                >
                  {filled.tickId}
                </Link>
              </p>
            </>
          ) : null}
          <Button block onClick={() => setFilled(undefined)} data-testid="stock-result-close">
            {t("stocks.close")}
          </Button>
        </div>
      </Popup>
    </section>
  );
}

/** One stock (spec option/stocksDetail): quote, session, ranges, chart, order sheet, holding. */
export function StockDetailPage({
  chart,
}: {
  chart: (props: { instrumentId: string; priceScale: number }) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const { instrumentId = "" } = useParams();
  const news = useQuery({
    queryKey: stocksKeys.news(instrumentId, i18n.language),
    queryFn: () => fetchStockNews(instrumentId),
  });
  const session = useSession();
  const mode = isDemo(session) ? "demo" : "real";
  const detail = useQuery({
    queryKey: stocksKeys.detail(instrumentId, mode),
    queryFn: () => fetchStock(instrumentId, mode),
    refetchInterval: 3_000,
  });
  const holdings = useQuery({
    queryKey: stocksKeys.holdings(),
    queryFn: fetchStockHoldings,
    enabled: session !== null,
    refetchInterval: 3_000,
  });
  if (detail.isPending) return <LoadingState />;
  if (detail.isError) {
    return <ErrorState message={detail.error.message} onRetry={() => void detail.refetch()} />;
  }
  const { stock } = detail.data;
  const own = holdings.data?.items.filter((h) => h.instrumentId === stock.instrumentId) ?? [];
  return (
    <section className="page" aria-labelledby="stock-title">
      <h1 id="stock-title">
        {stock.symbol} · {stock.name}
      </h1>
      <p className="hint">
        {stock.venue} · {stock.asset}
      </p>
      <p data-testid="stock-quote">
        {t("stocks.lastPrice")}:{" "}
        <Amount value={stock.lastPrice ?? undefined} decimalsMin={stock.priceDecimals} /> ·{" "}
        {t("stocks.ask")}:{" "}
        <Amount value={stock.ask ?? undefined} decimalsMin={stock.priceDecimals} /> ·{" "}
        {t("stocks.bid")}:{" "}
        <Amount value={stock.bid ?? undefined} decimalsMin={stock.priceDecimals} />
      </p>
      <p data-testid="stock-session" className={stock.session.open ? "up" : "muted"}>
        {stock.session.open ? t("stocks.session.open") : t("stocks.session.closed")}
        {stock.session.open && stock.session.nextCloseMs
          ? ` · ${t("stocks.session.closes", { time: format.dateTime(stock.session.nextCloseMs) })}`
          : ""}
        {!stock.session.open && stock.session.nextOpenMs
          ? ` · ${t("stocks.session.opens", { time: format.dateTime(stock.session.nextOpenMs) })}`
          : ""}
      </p>
      {!stock.session.open ? (
        <div className="notice-card" role="status" data-testid="stock-closed-notice">
          <p>{t("stocks.closedNotice")}</p>
          <Link to="/coin-coin">{t("stocks.tradeCrypto")}</Link> ·{" "}
          <Link to="/options">{t("stocks.tradeOptions")}</Link>
        </div>
      ) : null}
      <dl className="detail-list">
        <dt>{t("stocks.dayRange")}</dt>
        <dd>
          <Amount value={detail.data.dayLow ?? undefined} /> –{" "}
          <Amount value={detail.data.dayHigh ?? undefined} />
        </dd>
        <dt>{t("stocks.yearRange")}</dt>
        <dd>
          <Amount value={detail.data.yearLow ?? undefined} /> –{" "}
          <Amount value={detail.data.yearHigh ?? undefined} />
        </dd>
      </dl>
      {chart({ instrumentId: stock.instrumentId, priceScale: stock.priceDecimals })}
      <OrderForm stock={stock} />
      {session ? <HoldingsList items={own} /> : null}
      <section aria-labelledby="stock-news">
        <h2 id="stock-news">{t("stocks.news")}</h2>
        {news.data && news.data.items.length === 0 ? (
          <p className="hint" data-testid="stock-news-none">
            {t("stocks.noNews")}
          </p>
        ) : null}
        <ul className="plain-list" data-testid="stock-news">
          {(news.data?.items ?? []).map((item) => (
            <li key={item.id}>
              <Link to={`/news/${item.id}`}>{item.title}</Link> · {format.date(item.publishedAtMs)}
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
}
