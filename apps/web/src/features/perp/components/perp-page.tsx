import type {
  PerpDisclosureView,
  PerpMarketView,
  PerpPositionView,
  SelfTradeMode,
} from "@candor/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Checkbox, Input, Popup, Selector } from "antd-mobile";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { useFormat } from "../../../lib/format.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { localCache } from "../../../lib/local-cache.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { marketSocket } from "../../../lib/ws-client.ts";
import {
  cancelPerpConditionalOrder,
  fetchPerpConditionalOrders,
  fetchPerpMarkets,
  fetchPerpOpenOrders,
  fetchPerpPositions,
  perpKeys,
  placePerpConditionalOrder,
  placePerpOcoOrder,
  placePerpOrder,
  setPerpLeverage,
  setPerpMarginMode,
  tickRoute,
} from "../api/perp-api.ts";
import { bpsText, estimateOrder, percentOfFraction } from "../lib/perp-math.ts";
import { PerpBook } from "./perp-book.tsx";
import { PerpConditionalOrders } from "./perp-conditional-orders.tsx";
import { PerpHistory } from "./perp-history.tsx";
import { PerpPositions } from "./perp-positions.tsx";
import { ConfirmSheet } from "./perp-sheet.tsx";
import { SelfTradeModeField } from "../../../components/ui/self-trade-mode-field.tsx";

const disclosureKey = "perp.disclosureAccepted";
const disclosureLifetimeS = 30 * 86_400;
const leverageChoices = [1, 2, 3, 5, 10, 20, 25, 50, 75, 100, 125, 200];
const sheetStyle = { maxHeight: "85vh", overflowY: "auto" } as const;

type OrderType =
  | "limit"
  | "market"
  | "stop_market"
  | "stop_limit"
  | "take_profit_market"
  | "take_profit_limit"
  | "oco";
const orderTypes: readonly OrderType[] = [
  "market",
  "limit",
  "stop_market",
  "stop_limit",
  "take_profit_market",
  "take_profit_limit",
  "oco",
];
/** The order a form type places now (or when its trigger fires): limit or market. */
const placedType = (type: OrderType): "limit" | "market" =>
  type === "limit" || type === "stop_limit" || type === "take_profit_limit" ? "limit" : "market";
const conditionalKind = (type: OrderType): "stop" | "take_profit" | null =>
  type.startsWith("stop_") ? "stop" : type.startsWith("take_profit_") ? "take_profit" : null;
type TimeInForce = "gtc" | "post_only" | "ioc";

interface Draft {
  market: PerpMarketView;
  side: "buy" | "sell";
  orderType: OrderType;
  timeInForce: TimeInForce;
  price: string;
  /** The trigger; an OCO's take-profit trigger. */
  triggerPrice: string;
  /** An OCO's stop trigger. */
  stopTriggerPrice: string;
  /** An OCO leg's limit price (GTC) when it fires; empty: a market order. */
  takeProfitLimit: string;
  stopLimit: string;
  contracts: string;
  reduceOnly: boolean;
  leverage: number;
  selfTradeMode: SelfTradeMode;
}

/** A price field of the order form: its label is also its placeholder; decimal keyboard. */
function PriceInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <Input
      aria-label={props.label}
      placeholder={props.label}
      className="boxed-input"
      inputMode="decimal"
      value={props.value}
      onChange={props.onChange}
      data-testid={props.testId}
    />
  );
}

/** The risks in plain words and the share of real-money accounts that lost (90 days). */
function Disclosure({ disclosure }: { disclosure: PerpDisclosureView }) {
  const { t } = useTranslation();
  return (
    <section className="spot-card" data-testid="perp-disclosure">
      <h2>{t("perp.disclosure.title")}</h2>
      <p>{t("perp.disclosure.risks")}</p>
      <p data-testid="perp-lost-share">
        {disclosure.lostShareBps === null
          ? t("perp.disclosure.none")
          : t("perp.disclosure.lostShare", {
              share: bpsText(disclosure.lostShareBps),
              lost: disclosure.lostCount,
              total: disclosure.accountsCount,
            })}
      </p>
    </section>
  );
}

/**
 * The perpetual screen (spec Futures, FutureList, futures/heyueDetail, Holding, History):
 * market picker with mark, index and funding, the order form with leverage and margin mode and
 * the cost and liquidation estimate, a confirmation, positions with their actions, open orders
 * and history. Before first use the risks and the 90-day loss share must be read.
 */
export function PerpPage({
  chart,
}: {
  chart?: (props: { instrumentId: string; priceScale: number }) => ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const session = useSession();
  const demo = isDemo(session);
  const mode = demo ? "demo" : "real";
  const queryClient = useQueryClient();
  const markets = useQuery({
    queryKey: perpKeys.markets(mode),
    queryFn: () => fetchPerpMarkets(mode),
    refetchInterval: 2_000,
  });
  const positions = useQuery({
    queryKey: perpKeys.positions(),
    queryFn: fetchPerpPositions,
    enabled: session !== null,
    refetchInterval: 2_000,
  });
  const conditionalOrders = useQuery({
    queryKey: perpKeys.conditionalOrders(),
    queryFn: fetchPerpConditionalOrders,
    enabled: session !== null,
    refetchInterval: 3_000,
  });
  const openOrders = useQuery({
    queryKey: perpKeys.openOrders(),
    queryFn: fetchPerpOpenOrders,
    enabled: session !== null,
    refetchInterval: 3_000,
  });
  // Position and mark changes are pushed on the private stream; the polls above are the fallback.
  useEffect(() => {
    if (session === null) return;
    return marketSocket().subscribe({ channel: "perp" }, (message) => {
      if (message.type === "perp_position" || message.type === "perp_order") {
        void queryClient.invalidateQueries({ queryKey: perpKeys.positions() });
        void queryClient.invalidateQueries({ queryKey: perpKeys.openOrders() });
        // A fired stop or take-profit order leaves the waiting list.
        void queryClient.invalidateQueries({ queryKey: perpKeys.conditionalOrders() });
      } else if (message.type === "perp_mark") {
        // A new mark: the market's figures and every position's PnL, risk and liquidation.
        void queryClient.invalidateQueries({ queryKey: perpKeys.markets(mode) });
        void queryClient.invalidateQueries({ queryKey: perpKeys.positions() });
      } else if (message.type === "perp_funding") {
        void queryClient.invalidateQueries({ queryKey: perpKeys.positions() });
        void queryClient.invalidateQueries({ queryKey: perpKeys.history("funding") });
      }
    });
  }, [session, queryClient, mode]);
  const [marketId, setMarketId] = useState<string | undefined>();
  const [side, setSide] = useState<"buy" | "sell">("buy");
  const [orderType, setOrderType] = useState<OrderType>("market");
  const [timeInForce, setTimeInForce] = useState<TimeInForce>("gtc");
  const [price, setPrice] = useState("");
  const [triggerPrice, setTriggerPrice] = useState("");
  const [stopTriggerPrice, setStopTriggerPrice] = useState("");
  const [takeProfitLimit, setTakeProfitLimit] = useState("");
  const [stopLimit, setStopLimit] = useState("");
  const [contracts, setContracts] = useState("1");
  const [reduceOnly, setReduceOnly] = useState(false);
  const [selfTradeMode, setSelfTradeMode] = useState<SelfTradeMode>("cancel_resting");
  const [draft, setDraft] = useState<Draft | undefined>();
  const [showDisclosure, setShowDisclosure] = useState(false);

  if (markets.isPending) return <LoadingState />;
  if (markets.isError) {
    return <ErrorState message={markets.error.message} onRetry={() => void markets.refetch()} />;
  }
  const data = markets.data;
  if (!data.enabled) {
    return (
      <section className="page">
        <h1>{t("perp.title")}</h1>
        <p data-testid="perp-disabled">{t("perp.disabled")}</p>
      </section>
    );
  }
  const market = data.items.find((m) => m.marketId === marketId) ?? data.items[0];
  if (!market) return <p>{t("perp.noMarkets")}</p>;
  const allPositions: PerpPositionView[] = positions.data?.items ?? [];
  const record = allPositions.find((p) => p.marketId === market.marketId);
  const leverage = record?.leverage ?? market.leverageDefault;
  const marginMode = record?.marginMode ?? "cross";
  const wallet = positions.data?.wallet.find((w) => w.asset === market.asset);
  const limit = placedType(orderType) === "limit";
  const orderPrice = limit ? price : (market.markPrice ?? "");
  const estimate = estimateOrder({
    contracts,
    contractSize: market.contractSize,
    price: orderPrice,
    leverage,
    feeBps: market.feeBpsTaker,
    maintenanceRateBps: market.tiers[0]?.maintenanceRateBps ?? 0,
    side,
    assetDecimals: market.assetDecimals,
    priceStep: market.priceStep,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: perpKeys.all });
  /** What an OCO leg places when it fires: a limit order at its price, or a market order. */
  const legOrderText = (limitPrice: string) =>
    limitPrice.trim() === ""
      ? t("perp.orderType.market")
      : `${t("perp.orderType.limit")} · ${limitPrice.trim()}`;
  const change = (work: Promise<unknown>) => void withLoading(work).then(refresh).catch(showError);

  const start = (next: "buy" | "sell") => {
    if (!session) {
      navigate("/login");
      return;
    }
    setSide(next);
    const order: Draft = {
      market,
      side: next,
      orderType,
      timeInForce,
      price,
      triggerPrice,
      stopTriggerPrice,
      takeProfitLimit,
      stopLimit,
      contracts,
      reduceOnly,
      leverage,
      selfTradeMode,
    };
    if (!localCache().get<boolean>(disclosureKey)) {
      setDraft(order);
      setShowDisclosure(true);
      return;
    }
    setDraft(order);
  };

  const place = async (order: Draft, tradePassword: string | undefined) => {
    const options = {
      ...(order.selfTradeMode === "cancel_resting" ? {} : { selfTradeMode: order.selfTradeMode }),
      ...(tradePassword === undefined ? {} : { tradePassword }),
    };
    if (order.orderType === "oco") {
      await placePerpOcoOrder({
        clientOrderId: newIdempotencyKey(),
        marketId: order.market.marketId,
        side: order.side,
        contracts: Number(order.contracts),
        takeProfitTriggerPrice: order.triggerPrice.trim(),
        stopTriggerPrice: order.stopTriggerPrice.trim(),
        ...(order.takeProfitLimit.trim() === ""
          ? {}
          : { takeProfitPrice: order.takeProfitLimit.trim() }),
        ...(order.stopLimit.trim() === "" ? {} : { stopPrice: order.stopLimit.trim() }),
        reduceOnly: order.reduceOnly,
        ...options,
      });
      refresh();
      return;
    }
    const kind = conditionalKind(order.orderType);
    if (kind !== null) {
      const type = placedType(order.orderType);
      await placePerpConditionalOrder({
        clientOrderId: newIdempotencyKey(),
        marketId: order.market.marketId,
        side: order.side,
        kind,
        orderType: type,
        triggerPrice: order.triggerPrice.trim(),
        ...(type === "limit" ? { price: order.price.trim(), timeInForce: order.timeInForce } : {}),
        contracts: Number(order.contracts),
        reduceOnly: order.reduceOnly,
        ...options,
      });
      refresh();
      return;
    }
    await placePerpOrder({
      clientOrderId: newIdempotencyKey(),
      marketId: order.market.marketId,
      side: order.side,
      orderType: placedType(order.orderType),
      ...(order.orderType === "limit"
        ? { price: order.price.trim(), timeInForce: order.timeInForce }
        : {}),
      contracts: Number(order.contracts),
      reduceOnly: order.reduceOnly,
      ...options,
    });
    refresh();
  };

  const draftEstimate = draft
    ? estimateOrder({
        contracts: draft.contracts,
        contractSize: draft.market.contractSize,
        price:
          placedType(draft.orderType) === "limit" ? draft.price : (draft.market.markPrice ?? ""),
        leverage: draft.leverage,
        feeBps: draft.market.feeBpsTaker,
        maintenanceRateBps: draft.market.tiers[0]?.maintenanceRateBps ?? 0,
        side: draft.side,
        assetDecimals: draft.market.assetDecimals,
        priceStep: draft.market.priceStep,
      })
    : undefined;

  return (
    <section className="page" aria-labelledby="perp-title" data-testid="perp-page">
      <h1 id="perp-title">{t("perp.title")}</h1>
      <Selector<string>
        aria-label={t("perp.market.picker")}
        showCheckMark={false}
        columns={Math.min(4, Math.max(1, data.items.length))}
        value={[market.marketId]}
        onChange={(v) => v[0] && setMarketId(v[0])}
        options={data.items.map((m) => ({ label: m.marketId, value: m.marketId }))}
        data-testid="perp-market-picker"
      />
      <dl className="detail-list" data-testid="perp-market-info">
        <dt>{t("perp.market.markPrice")}</dt>
        <dd data-testid="perp-mark-price">
          <Amount value={market.markPrice ?? undefined} />{" "}
          {market.markTickIds.map((id) => (
            <Link key={id} to={tickRoute(market.instrumentId, id)}>
              {id}
            </Link>
          ))}
        </dd>
        <dt>{t("perp.market.indexPrice")}</dt>
        <dd>
          <Amount value={market.indexPrice ?? undefined} />
        </dd>
        <dt>{t("perp.market.bidAsk")}</dt>
        <dd>
          <Amount value={market.bestBid ?? undefined} /> /{" "}
          <Amount value={market.bestAsk ?? undefined} />
        </dd>
        <dt>{t("perp.market.fundingRate")}</dt>
        <dd>{format.percent(percentOfFraction(market.estimatedFundingRate), { signed: true })}</dd>
        <dt>{t("perp.market.nextFunding")}</dt>
        <dd>{format.time(market.nextFundingAtMs)}</dd>
        <dt>{t("perp.market.terms")}</dt>
        <dd>
          {t("perp.market.termsText", {
            size: market.contractSize,
            step: market.priceStep,
            maker: bpsText(market.feeBpsMaker),
            taker: bpsText(market.feeBpsTaker),
            leverage: market.leverageMax,
          })}
        </dd>
      </dl>
      {chart?.({ instrumentId: market.instrumentId, priceScale: 2 })}
      <PerpBook
        marketId={market.marketId}
        instrumentId={market.instrumentId}
        mode={mode}
        markPrice={market.markPrice}
        onPick={(picked) => {
          setOrderType("limit");
          setPrice(picked);
        }}
      />

      {session ? (
        <p data-testid="perp-wallet">
          {t("perp.wallet.available")}: <Amount value={wallet?.available} /> {market.asset} ·{" "}
          <Link to="/assets/transfer" data-testid="perp-transfer-link">
            {t("perp.wallet.transfer")}
          </Link>
        </p>
      ) : null}

      <section className="spot-card" aria-label={t("perp.form.title")}>
        <Selector<string>
          aria-label={t("perp.form.leverage")}
          showCheckMark={false}
          columns={4}
          value={[String(leverage)]}
          onChange={(v) =>
            v[0] && session && change(setPerpLeverage(market.marketId, Number(v[0])))
          }
          options={leverageChoices
            .filter((l) => l <= market.leverageMax)
            .map((l) => ({ label: `${l}×`, value: String(l) }))}
          data-testid="perp-leverage"
        />
        <Selector<"cross" | "isolated">
          aria-label={t("perp.form.marginMode")}
          showCheckMark={false}
          columns={2}
          value={[marginMode]}
          onChange={(v) => v[0] && session && change(setPerpMarginMode(market.marketId, v[0]))}
          options={[
            { label: t("perp.marginMode.cross"), value: "cross" },
            { label: t("perp.marginMode.isolated"), value: "isolated" },
          ]}
          data-testid="perp-margin-mode"
        />
        <Selector<OrderType>
          aria-label={t("perp.form.orderType")}
          showCheckMark={false}
          columns={2}
          value={[orderType]}
          onChange={(v) => v[0] && setOrderType(v[0])}
          options={orderTypes.map((value) => ({ label: t(`perp.orderType.${value}`), value }))}
          data-testid="perp-order-type"
        />
        {conditionalKind(orderType) !== null ? (
          <>
            <p className="hint" data-testid="perp-conditional-hint">
              {t("perp.form.conditionalHint")}
            </p>
            <PriceInput
              label={t("perp.form.triggerPrice")}
              value={triggerPrice}
              onChange={setTriggerPrice}
              testId="perp-trigger-price"
            />
          </>
        ) : null}
        {orderType === "oco" ? (
          <>
            <p className="hint" data-testid="perp-oco-hint">
              {t("perp.form.ocoHint")}
            </p>
            <PriceInput
              label={t("perp.form.takeProfitTrigger")}
              value={triggerPrice}
              onChange={setTriggerPrice}
              testId="perp-oco-take-profit"
            />
            <PriceInput
              label={t("perp.form.stopTrigger")}
              value={stopTriggerPrice}
              onChange={setStopTriggerPrice}
              testId="perp-oco-stop"
            />
            <PriceInput
              label={t("perp.form.takeProfitLimit")}
              value={takeProfitLimit}
              onChange={setTakeProfitLimit}
              testId="perp-oco-take-profit-limit"
            />
            <PriceInput
              label={t("perp.form.stopLimit")}
              value={stopLimit}
              onChange={setStopLimit}
              testId="perp-oco-stop-limit"
            />
          </>
        ) : null}
        {limit ? (
          <>
            <PriceInput
              label={t("perp.form.price")}
              value={price}
              onChange={setPrice}
              testId="perp-price"
            />
            <Selector<TimeInForce>
              aria-label={t("perp.form.timeInForce")}
              showCheckMark={false}
              columns={3}
              value={[timeInForce]}
              onChange={(v) => v[0] && setTimeInForce(v[0])}
              options={(["gtc", "post_only", "ioc"] as const).map((k) => ({
                label: t(`perp.tif.${k}`),
                value: k,
              }))}
            />
          </>
        ) : null}
        <Input
          aria-label={t("perp.form.contracts")}
          placeholder={t("perp.form.contracts")}
          className="boxed-input"
          inputMode="numeric"
          value={contracts}
          onChange={setContracts}
          data-testid="perp-contracts"
        />
        <Checkbox checked={reduceOnly} onChange={setReduceOnly}>
          {t("perp.form.reduceOnly")}
        </Checkbox>
        <details className="order-advanced" data-testid="perp-advanced">
          <summary>{t("coinCoin.form.advanced")}</summary>
          <SelfTradeModeField
            value={selfTradeMode}
            onChange={setSelfTradeMode}
            testId="perp-self-trade-mode"
          />
        </details>
        <dl className="detail-list" data-testid="perp-estimate">
          <dt>{t("perp.form.notional")}</dt>
          <dd>
            <Amount value={estimate?.notional} /> {market.asset}
          </dd>
          <dt>{t("perp.form.margin")}</dt>
          <dd data-testid="perp-estimate-margin">
            <Amount value={estimate?.margin} /> {market.asset}
          </dd>
          <dt>{t("perp.form.fee")}</dt>
          <dd>
            <Amount value={estimate?.fee} /> {market.asset}
          </dd>
          <dt>{t("perp.form.liquidation")}</dt>
          <dd data-testid="perp-estimate-liquidation">
            <Amount value={estimate?.liquidationPrice} />
          </dd>
        </dl>
        <div className="seconds-buttons">
          <Button block color="success" onClick={() => start("buy")} data-testid="perp-buy">
            {t("perp.form.long")}
          </Button>
          <Button block color="danger" onClick={() => start("sell")} data-testid="perp-sell">
            {t("perp.form.short")}
          </Button>
        </div>
      </section>

      {session ? (
        <>
          <PerpPositions
            positions={allPositions}
            orders={openOrders.data?.items ?? []}
            real={!demo}
            referencePrice={(id) => data.items.find((m) => m.marketId === id)?.indexPrice ?? null}
          />
          <PerpConditionalOrders
            items={conditionalOrders.data?.items ?? []}
            onCancel={(orderId) => change(cancelPerpConditionalOrder(orderId))}
          />
          <PerpHistory
            instrumentOf={(id) => data.items.find((m) => m.marketId === id)?.instrumentId ?? id}
          />
        </>
      ) : null}
      <Disclosure disclosure={data.disclosure} />

      <Popup
        visible={showDisclosure}
        position="bottom"
        bodyStyle={sheetStyle}
        onClose={() => setShowDisclosure(false)}
      >
        <div
          className="page"
          role="dialog"
          aria-label={t("perp.disclosure.firstUse")}
          data-testid="perp-disclosure-sheet"
        >
          <h2>{t("perp.disclosure.firstUse")}</h2>
          <Disclosure disclosure={data.disclosure} />
          <Button
            block
            color="primary"
            data-testid="perp-disclosure-accept"
            onClick={() => {
              localCache().set(disclosureKey, true, disclosureLifetimeS);
              setShowDisclosure(false);
            }}
          >
            {t("perp.disclosure.accept")}
          </Button>
          <Button
            block
            onClick={() => {
              setShowDisclosure(false);
              setDraft(undefined);
            }}
          >
            {t("common.cancel")}
          </Button>
        </div>
      </Popup>

      <ConfirmSheet
        title={t("perp.confirm.title")}
        testId="perp-confirm"
        visible={draft !== undefined && !showDisclosure}
        real={!demo}
        submitLabel={t("perp.confirm.submit")}
        onClose={() => setDraft(undefined)}
        onConfirm={(password) => (draft ? place(draft, password) : Promise.resolve())}
      >
        {draft ? (
          <dl className="detail-list">
            <dt>{t("perp.market.picker")}</dt>
            <dd>{draft.market.marketId}</dd>
            <dt>{t("perp.form.direction")}</dt>
            <dd className={draft.side === "buy" ? "change up" : "change down"}>
              {draft.side === "buy" ? t("perp.form.long") : t("perp.form.short")}
            </dd>
            <dt>{t("perp.form.orderType")}</dt>
            <dd>
              {t(`perp.orderType.${draft.orderType}`)}
              {placedType(draft.orderType) === "limit" ? ` · ${draft.price}` : ""}
            </dd>
            {conditionalKind(draft.orderType) !== null ? (
              <>
                <dt>{t("perp.form.triggerPrice")}</dt>
                <dd data-testid="perp-confirm-trigger">{draft.triggerPrice}</dd>
              </>
            ) : null}
            {draft.orderType === "oco" ? (
              <>
                <dt>{t("perp.form.takeProfitTrigger")}</dt>
                <dd data-testid="perp-confirm-take-profit">{draft.triggerPrice}</dd>
                <dt>{t("perp.confirm.takeProfitOrder")}</dt>
                <dd data-testid="perp-confirm-take-profit-order">
                  {legOrderText(draft.takeProfitLimit)}
                </dd>
                <dt>{t("perp.form.stopTrigger")}</dt>
                <dd data-testid="perp-confirm-stop">{draft.stopTriggerPrice}</dd>
                <dt>{t("perp.confirm.stopOrder")}</dt>
                <dd data-testid="perp-confirm-stop-order">{legOrderText(draft.stopLimit)}</dd>
              </>
            ) : null}
            <dt>{t("perp.form.contracts")}</dt>
            <dd>{draft.contracts}</dd>
            <dt>{t("perp.form.leverage")}</dt>
            <dd>{draft.leverage}×</dd>
            <dt>{t("perp.form.margin")}</dt>
            <dd>
              <Amount value={draftEstimate?.margin} /> {draft.market.asset}
            </dd>
            <dt>{t("perp.form.liquidation")}</dt>
            <dd data-testid="perp-confirm-liquidation">
              <Amount value={draftEstimate?.liquidationPrice} />
            </dd>
          </dl>
        ) : null}
        <p className="hint">
          {draft && draft.orderType === "oco"
            ? t("perp.form.ocoHint")
            : draft && conditionalKind(draft.orderType) !== null
              ? t("perp.confirm.conditionalRule")
              : t("perp.confirm.rule")}
        </p>
      </ConfirmSheet>
    </section>
  );
}
