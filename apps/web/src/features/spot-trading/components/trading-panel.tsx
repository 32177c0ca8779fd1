import type { InstrumentView, SpotBalanceView, SpotMarketView } from "@candor/contract";
import { useQuery } from "@tanstack/react-query";
import { Button, Input, Popup } from "antd-mobile";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { askToSetTradePassword } from "../../../lib/trade-password.tsx";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { marketSocket } from "../../../lib/ws-client.ts";
import {
  fetchSpotMarkets,
  placeSpotConditionalOrder,
  placeSpotOrder,
  spotTradingKeys,
  useRefreshOrders,
} from "../api/spot-trading-api.ts";
import { OrderForm, type OrderDraft } from "./order-form.tsx";

/** What the trading part of the Coin-Coin screen needs; `src/app` supplies the funds part. */
export interface TradingPanelProps {
  pair: InstrumentView;
  /** The last traded price, a decimal string, when known. */
  lastPrice: string | undefined;
  marketOpen: boolean | undefined;
  /** A price tapped in the order book, with a counter so tapping the same price again counts. */
  pickedPrice: { price: string; at: number } | undefined;
  /** Best bid and ask of the book, decimal strings: the form's price starts at one of them. */
  bestBid: string | undefined;
  bestAsk: string | undefined;
  /** The signed-in user's fund balances, for the form's "available"; empty while loading. */
  balances: readonly SpotBalanceView[];
  /** Orders may have moved money: the balances should load again. */
  onFundsChanged: () => void;
}

/** Keeps the lists and balances fresh when the server pushes the user's own events. */
function usePrivateStreams(enabled: boolean, onFundsChanged: () => void) {
  const refresh = useRefreshOrders(onFundsChanged);
  useEffect(() => {
    if (!enabled) return;
    const offs = (["orders", "fills", "balances"] as const).map((channel) =>
      marketSocket().subscribe({ channel }, refresh),
    );
    return () => offs.forEach((off) => off());
  }, [enabled, refresh]);
}

/** The order form and its confirmation sheet; asks to log in when signed out. */
export function TradingPanel(props: TradingPanelProps) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  usePrivateStreams(Boolean(session), props.onFundsChanged);
  if (!session) {
    return (
      <section className="order-form-card" aria-labelledby="order-form-title">
        <h2 id="order-form-title">{t("coinCoin.form.title")}</h2>
        <p className="hint">{t("coinCoin.form.loginToTrade")}</p>
        <Button
          block
          color="primary"
          onClick={() => void navigate("/login")}
          data-testid="login-to-trade"
        >
          {t("auth.login.submit")}
        </Button>
      </section>
    );
  }
  return <SignedInTrading {...props} />;
}

function SignedInTrading({
  pair,
  lastPrice,
  marketOpen,
  pickedPrice,
  bestBid,
  bestAsk,
  balances,
  onFundsChanged,
}: TradingPanelProps) {
  const { t } = useTranslation();
  const markets = useQuery({ queryKey: spotTradingKeys.markets(), queryFn: fetchSpotMarkets });
  const refresh = useRefreshOrders(onFundsChanged);
  const [draft, setDraft] = useState<OrderDraft | undefined>();
  const lastPasswordMs = useRef<number | undefined>(undefined);
  const demo = isDemo(useSession());

  if (markets.isPending) return <LoadingState />;
  if (markets.isError) {
    return (
      <section
        className="spot-card"
        aria-labelledby="order-form-title"
        data-testid="trading-unavailable"
      >
        <h2 id="order-form-title">{t("coinCoin.form.title")}</h2>
        <ErrorState
          message={`${t("coinCoin.form.unavailable")} ${markets.error.message}`}
          onRetry={() => void markets.refetch()}
        />
      </section>
    );
  }
  const market = markets.data.items.find((m) => m.instrumentId === pair.id);
  if (!market) {
    return (
      <section className="spot-card" aria-labelledby="order-form-title">
        <h2 id="order-form-title">{t("coinCoin.form.title")}</h2>
        <ErrorState message={t("coinCoin.form.noMarket", { symbol: pair.symbol })} />
      </section>
    );
  }
  const windowMs = markets.data.tradePasswordWindowMs;
  // Demo sessions trade simulated money without a trade password (the server never asks).
  const needsPassword =
    !demo &&
    (lastPasswordMs.current === undefined ||
      windowMs === 0 ||
      Date.now() - lastPasswordMs.current > windowMs);

  const placeConditional = async (
    order: OrderDraft,
    conditional: NonNullable<OrderDraft["conditional"]>,
    tradePassword: string | undefined,
  ) => {
    const oco = conditional.kind === "oco";
    try {
      await withLoading(
        placeSpotConditionalOrder({
          clientOrderId: newIdempotencyKey(),
          instrumentId: market.instrumentId,
          side: order.side,
          kind: conditional.kind,
          // An OCO's stop leg: a stop-limit for buys, a stop-market for sells.
          type: oco ? (conditional.stopPrice ? "limit" : "market") : order.type,
          triggerPrice: conditional.triggerPrice,
          ...(oco
            ? {
                limitPrice: order.price,
                quantity: order.quantity,
                ...(conditional.stopPrice ? { price: conditional.stopPrice } : {}),
              }
            : {
                ...(order.type === "limit" ? { timeInForce: order.timeInForce } : {}),
                ...(order.price ? { price: order.price } : {}),
                ...(order.quantity ? { quantity: order.quantity } : {}),
                ...(order.quoteAmount ? { quoteAmount: order.quoteAmount } : {}),
              }),
          ...(order.selfTradeMode ? { selfTradeMode: order.selfTradeMode } : {}),
          ...(tradePassword ? { tradePassword } : {}),
        }),
      );
      if (tradePassword) lastPasswordMs.current = Date.now();
      setDraft(undefined);
      showSuccess(t("coinCoin.confirm.conditionalPlaced"));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "trade_password_not_set") {
        setDraft(undefined);
        void askToSetTradePassword();
        return;
      }
      if (code === "trade_password_required") lastPasswordMs.current = undefined;
      showError(error);
    }
    refresh();
  };

  const place = async (order: OrderDraft, tradePassword: string | undefined) => {
    if (order.conditional) return placeConditional(order, order.conditional, tradePassword);
    try {
      const result = await withLoading(
        placeSpotOrder({
          clientOrderId: newIdempotencyKey(),
          instrumentId: market.instrumentId,
          side: order.side,
          type: order.type,
          timeInForce: order.timeInForce,
          ...(order.price ? { price: order.price } : {}),
          ...(order.quantity ? { quantity: order.quantity } : {}),
          ...(order.quoteAmount ? { quoteAmount: order.quoteAmount } : {}),
          ...(order.selfTradeMode ? { selfTradeMode: order.selfTradeMode } : {}),
          ...(tradePassword ? { tradePassword } : {}),
        }),
      );
      if (tradePassword) lastPasswordMs.current = Date.now();
      setDraft(undefined);
      showSuccess(
        result.fills.length > 0
          ? t("coinCoin.confirm.placedFilled", { fills: result.fills.length })
          : t("coinCoin.confirm.placed"),
      );
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "trade_password_not_set") {
        setDraft(undefined);
        void askToSetTradePassword();
        return;
      }
      if (code === "trade_password_required") lastPasswordMs.current = undefined;
      showError(error);
    }
    refresh();
  };

  return (
    <>
      <section className="order-form-card">
        <OrderForm
          pair={pair}
          market={market}
          balances={balances}
          lastPrice={lastPrice}
          bestBid={bestBid}
          bestAsk={bestAsk}
          marketOpen={marketOpen ?? market.open}
          pickedPrice={pickedPrice}
          onSubmit={setDraft}
        />
      </section>
      <ConfirmSheet
        draft={draft}
        market={market}
        symbol={pair.symbol}
        needsPassword={needsPassword}
        onCancel={() => setDraft(undefined)}
        onConfirm={(password) => draft && void place(draft, password)}
      />
    </>
  );
}

/** The confirmation sheet before placing, with the trade password when it is needed. */
function ConfirmSheet({
  draft,
  market,
  symbol,
  needsPassword,
  onCancel,
  onConfirm,
}: {
  draft: OrderDraft | undefined;
  market: SpotMarketView;
  symbol: string;
  needsPassword: boolean;
  onCancel: () => void;
  onConfirm: (tradePassword: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  useEffect(() => setPassword(""), [draft]);
  return (
    <Popup
      visible={draft !== undefined}
      onMaskClick={onCancel}
      onClose={onCancel}
      position="bottom"
    >
      {draft ? (
        <div
          className="page"
          role="dialog"
          aria-labelledby="confirm-title"
          data-testid="confirm-sheet"
        >
          <h2 id="confirm-title">{t("coinCoin.confirm.title")}</h2>
          <dl className="detail-list">
            <dt>{t("coinCoin.confirm.pair")}</dt>
            <dd>{symbol}</dd>
            <dt>{t("coinCoin.confirm.direction")}</dt>
            <dd className={draft.side === "buy" ? "change up" : "change down"}>
              {t(`coinCoin.order.side.${draft.side}`)} · {t(`coinCoin.form.${draft.type}`)} ·{" "}
              {t(`coinCoin.form.tif.${draft.timeInForce}`)}
            </dd>
            {draft.conditional ? (
              <>
                <dt>{t("coinCoin.form.triggerPrice")}</dt>
                <dd data-testid="confirm-trigger">
                  <Amount value={draft.conditional.triggerPrice} /> {market.quoteAsset}
                </dd>
              </>
            ) : null}
            {draft.price ? (
              <>
                <dt>{t("coinCoin.book.price")}</dt>
                <dd data-testid="confirm-price">
                  <Amount value={draft.price} /> {market.quoteAsset}
                </dd>
              </>
            ) : null}
            {draft.quantity ? (
              <>
                <dt>{t("coinCoin.book.quantity")}</dt>
                <dd data-testid="confirm-quantity">
                  <Amount value={draft.quantity} /> {market.baseAsset}
                </dd>
              </>
            ) : null}
            {draft.quoteAmount ? (
              <>
                <dt>{t("coinCoin.form.amount", { asset: market.quoteAsset })}</dt>
                <dd>
                  <Amount value={draft.quoteAmount} /> {market.quoteAsset}
                </dd>
              </>
            ) : null}
            {draft.total ? (
              <>
                <dt>{t("coinCoin.form.total")}</dt>
                <dd>
                  <Amount value={draft.total} /> {market.quoteAsset}
                </dd>
              </>
            ) : null}
            <dt>{t("coinCoin.form.feeEstimate")}</dt>
            <dd>
              <Amount value={draft.fee} /> {draft.feeAsset}
            </dd>
          </dl>
          {draft.priceWarning ? (
            <p className="order-warning" role="alert">
              {draft.priceWarning}
            </p>
          ) : null}
          {needsPassword ? (
            <Input
              type="password"
              aria-label={t("coinCoin.password.label")}
              placeholder={t("coinCoin.password.label")}
              value={password}
              onChange={setPassword}
              data-testid="trade-password"
            />
          ) : null}
          <div className="stack">
            <Button
              block
              color="primary"
              disabled={needsPassword && password === ""}
              onClick={() => onConfirm(needsPassword ? password : undefined)}
              data-testid="confirm-order"
            >
              {t("coinCoin.confirm.submit")}
            </Button>
            <Button block onClick={onCancel}>
              {t("common.cancel")}
            </Button>
          </div>
        </div>
      ) : null}
    </Popup>
  );
}
