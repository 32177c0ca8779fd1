import { useQuery, useQueryClient } from "@tanstack/react-query";
import i18n from "i18next";
import { Button, Dialog, Input, Popup } from "antd-mobile";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { apiFetch } from "../../../lib/api-client.ts";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { marketSocket } from "../../../lib/ws-client.ts";
import {
  fetchSpotBalances,
  fetchSpotMarkets,
  grantDemoFunds,
  newClientOrderId,
  placeSpotOrder,
  type SpotMarketView,
} from "../api/spot-api.ts";
import type { TradingSlotProps } from "./coin-coin-page.tsx";
import { OrderForm, type OrderDraft } from "./order-form.tsx";
import { OrdersPanel } from "./orders-panel.tsx";

/** Demo money a tap on "Get demo funds" asks for (the server caps grants). */
const demoGrantUsdt = "10000";

/** Keeps the lists and balances fresh when the server pushes the user's own events. */
function usePrivateStreams(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: ["spot-open-orders"] });
      void queryClient.invalidateQueries({ queryKey: ["spot-history"] });
      void queryClient.invalidateQueries({ queryKey: ["spot-balances"] });
    };
    const offs = (["orders", "fills", "balances"] as const).map((channel) =>
      marketSocket().subscribe({ channel }, refresh),
    );
    return () => offs.forEach((off) => off());
  }, [enabled, queryClient]);
}

/** The order form, balances, demo funds and the user's orders; asks to log in when signed out. */
export function TradingPanel({ pair, lastPrice, marketOpen, pickedPrice }: TradingSlotProps) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  usePrivateStreams(Boolean(session));
  if (!session) {
    return (
      <section className="spot-card" aria-labelledby="order-form-title">
        <h2 id="order-form-title">{t("coinCoin.form.title")}</h2>
        <p>{t("coinCoin.form.loginToTrade")}</p>
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
  return (
    <SignedInTrading
      pair={pair}
      lastPrice={lastPrice}
      marketOpen={marketOpen}
      pickedPrice={pickedPrice}
      demo={isDemo(session)}
    />
  );
}

function SignedInTrading({
  pair,
  lastPrice,
  marketOpen,
  pickedPrice,
  demo,
}: TradingSlotProps & { demo: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const markets = useQuery({ queryKey: ["spot-markets"], queryFn: fetchSpotMarkets });
  const balances = useQuery({
    queryKey: ["spot-balances"],
    queryFn: fetchSpotBalances,
    refetchInterval: 5_000,
  });
  const [draft, setDraft] = useState<OrderDraft | undefined>();
  const lastPasswordMs = useRef<number | undefined>(undefined);

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
  const needsPassword =
    lastPasswordMs.current === undefined ||
    windowMs === 0 ||
    Date.now() - lastPasswordMs.current > windowMs;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["spot-open-orders"] });
    void queryClient.invalidateQueries({ queryKey: ["spot-history"] });
    void queryClient.invalidateQueries({ queryKey: ["spot-balances"] });
  };

  const getDemoFunds = async () => {
    try {
      await withLoading(
        grantDemoFunds({
          requestId: newClientOrderId(),
          asset: market.quoteAsset,
          amount: demoGrantUsdt,
        }),
      );
      showSuccess();
    } catch (error) {
      showError(error);
    }
    refresh();
  };

  const place = async (order: OrderDraft, tradePassword: string | undefined) => {
    try {
      const result = await withLoading(
        placeSpotOrder({
          clientOrderId: newClientOrderId(),
          instrumentId: market.instrumentId,
          side: order.side,
          type: order.type,
          timeInForce: order.timeInForce,
          ...(order.price ? { price: order.price } : {}),
          ...(order.quantity ? { quantity: order.quantity } : {}),
          ...(order.quoteAmount ? { quoteAmount: order.quoteAmount } : {}),
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

  const items = balances.data?.items ?? [];
  return (
    <>
      <section className="spot-card" aria-labelledby="funds-title">
        <h2 id="funds-title">{t("coinCoin.funds.title")}</h2>
        {balances.isError ? <ErrorState message={balances.error.message} /> : null}
        <dl className="detail-list" data-testid="spot-balances">
          {[market.baseAsset, market.quoteAsset].map((asset) => {
            const balance = items.find((b) => b.asset === asset);
            return (
              <div key={asset} style={{ display: "contents" }}>
                <dt>{asset}</dt>
                <dd data-testid={`balance-${asset}`}>
                  <Amount value={balance?.available ?? (balances.isSuccess ? "0" : undefined)} />
                  {balance && balance.held !== "0" ? (
                    <span className="hint">
                      {" "}
                      ({t("coinCoin.funds.held")} <Amount value={balance.held} />)
                    </span>
                  ) : null}
                </dd>
              </div>
            );
          })}
        </dl>
        <div className="link-row">
          <Link to="/assets/statement" data-testid="statement-link">
            {t("coinCoin.funds.statement")}
          </Link>
          {demo ? (
            <Button
              size="small"
              color="warning"
              onClick={() => void getDemoFunds()}
              data-testid="demo-funds"
            >
              {t("coinCoin.funds.getDemo")}
            </Button>
          ) : null}
        </div>
        {demo ? <p className="hint">{t("mode.explain")}</p> : null}
      </section>
      <section className="spot-card">
        <OrderForm
          pair={pair}
          market={market}
          balances={items}
          lastPrice={lastPrice}
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
      <OrdersPanel instrumentId={pair.id} />
    </>
  );
}

/** "Please go to set the transaction password", with the form to set it right here. */
async function askToSetTradePassword() {
  const t = (key: string) => i18n.t(key);
  let password = "";
  let confirm = "";
  const go = await Dialog.confirm({
    "aria-label": t("coinCoin.password.goSet"),
    title: t("coinCoin.password.goSet"),
    content: (
      <div className="stack">
        <Input
          type="password"
          aria-label={t("coinCoin.password.new")}
          placeholder={t("coinCoin.password.new")}
          onChange={(value) => (password = value)}
        />
        <Input
          type="password"
          aria-label={t("coinCoin.password.confirm")}
          placeholder={t("coinCoin.password.confirm")}
          onChange={(value) => (confirm = value)}
        />
        <p className="hint">{t("auth.fields.passwordRule")}</p>
      </div>
    ),
    confirmText: t("common.confirm"),
    cancelText: t("common.cancel"),
  });
  if (!go) return;
  try {
    await withLoading(
      apiFetch("/me/trade-password", {
        method: "PUT",
        auth: true,
        body: JSON.stringify({ tradePassword: password, tradePasswordConfirm: confirm }),
      }),
    );
    showSuccess();
  } catch (error) {
    showError(error);
  }
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
