import type {
  InstrumentView,
  SelfTradeMode,
  SpotBalanceView,
  SpotMarketView,
  SpotSide,
  TimeInForce,
} from "@candor/contract";
import { formatDecimal } from "@candor/decimal";
import { Button, Input, Selector, Tabs } from "antd-mobile";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { SelfTradeModeField } from "../../../components/ui/self-trade-mode-field.tsx";
import {
  bpsToPercentText,
  covers,
  deviationBps,
  feeEstimate,
  quantityForPercent,
  quoteForPercent,
  readField,
  rescale,
  totalQuoteUnits,
  type PairScales,
} from "../lib/order-math.ts";

/** What the form hands on for confirmation: every amount a decimal string. */
export interface OrderDraft {
  side: SpotSide;
  type: "limit" | "market";
  timeInForce: TimeInForce;
  price?: string;
  quantity?: string;
  quoteAmount?: string;
  /** Estimated total in quote (limit orders), for the confirmation sheet. */
  total?: string;
  /** Estimated fee and its asset. */
  fee?: string;
  feeAsset: string;
  /** The far-from-market warning text, shown again on the confirmation sheet. */
  priceWarning?: string;
  /** Self-trade prevention (the "advanced" section); absent means the default. */
  selfTradeMode?: SelfTradeMode;
  /**
   * A conditional order: it waits (its funds held) until a tape tick reaches `triggerPrice`.
   * For an OCO, `price` is the limit leg and `stopPrice` the stop leg's limit (buys only).
   */
  conditional?: { kind: "stop" | "take_profit" | "oco"; triggerPrice: string; stopPrice?: string };
}

/** What the type picker offers. */
export type FormOrderType =
  "limit" | "market" | "stop_limit" | "stop_market" | "take_profit" | "oco";

const formOrderTypes: readonly FormOrderType[] = [
  "limit",
  "market",
  "stop_limit",
  "stop_market",
  "take_profit",
  "oco",
];

const percents = [25, 50, 75, 100] as const;

/** Buy/sell, limit/market, time in force, price, quantity, percentages, total, fee, warnings. */
export function OrderForm({
  pair,
  market,
  balances,
  lastPrice,
  bestBid,
  bestAsk,
  marketOpen,
  pickedPrice,
  onSubmit,
}: {
  pair: InstrumentView;
  market: SpotMarketView;
  balances: readonly SpotBalanceView[];
  lastPrice: string | undefined;
  /** Best bid and ask of the book: a buy starts at the best ask, a sell at the best bid. */
  bestBid: string | undefined;
  bestAsk: string | undefined;
  marketOpen: boolean;
  pickedPrice: { price: string; at: number } | undefined;
  onSubmit: (draft: OrderDraft) => void;
}) {
  const { t } = useTranslation();
  const [side, setSide] = useState<SpotSide>("buy");
  const [formType, setFormType] = useState<FormOrderType>("limit");
  // The order placed now (or when the trigger fires): limit or market.
  const type: "limit" | "market" =
    formType === "market" || formType === "stop_market" ? "market" : "limit";
  const setType = (value: "limit") => setFormType(value);
  const conditional = formType !== "limit" && formType !== "market";
  const [triggerPrice, setTriggerPrice] = useState("");
  const [stopPrice, setStopPrice] = useState("");
  const [selfTradeMode, setSelfTradeMode] = useState<SelfTradeMode>("cancel_resting");
  const [timeInForce, setTimeInForce] = useState<TimeInForce>("gtc");
  const [price, setPrice] = useState("");
  const [quantity, setQuantity] = useState("");
  const [quoteAmount, setQuoteAmount] = useState("");
  const [touched, setTouched] = useState(false);
  // Once the user typed or picked a price, the form stops following the book.
  const [priceEdited, setPriceEdited] = useState(false);

  useEffect(() => {
    if (pickedPrice) {
      setPrice(pickedPrice.price);
      setPriceEdited(true);
      setType("limit");
    }
  }, [pickedPrice]);

  // The price starts at the best price of the other side (what a buy or sell would meet now),
  // else the last price; it is filled when the form opens and when the side changes.
  const suggestedPrice =
    (side === "buy" ? bestAsk : bestBid) ?? lastPrice ?? market.lastPrice ?? undefined;
  const hasSuggestion = suggestedPrice !== undefined;
  useEffect(() => {
    if (!priceEdited && suggestedPrice !== undefined) setPrice(suggestedPrice);
    // Only on a side change or when a first price arrives, not on every book update.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [side, hasSuggestion, priceEdited]);

  const scales: PairScales = {
    priceScale: pair.priceScale,
    tickSize: market.priceStep,
    quantityScale: pair.quantityScale,
    lotSize: market.lotSize,
    quoteDecimals: market.quoteDecimals,
    baseDecimals: market.baseDecimals,
  };
  const spendAsset = side === "buy" ? market.quoteAsset : market.baseAsset;
  const receiveAsset = side === "buy" ? market.baseAsset : market.quoteAsset;
  const spendDecimals = side === "buy" ? market.quoteDecimals : market.baseDecimals;
  const available = balances.find((b) => b.asset === spendAsset)?.available ?? "0";
  const marketBuy = type === "market" && side === "buy";
  const referencePrice = lastPrice ?? market.lastPrice ?? undefined;

  const priceField = type === "limit" ? readField(price, pair.priceScale, market.priceStep) : null;
  const quantityField = marketBuy ? null : readField(quantity, pair.quantityScale, market.lotSize);
  const quoteField = marketBuy ? readField(quoteAmount, market.quoteDecimals, "0") : null;
  const triggerField = conditional
    ? readField(triggerPrice, pair.priceScale, market.priceStep)
    : null;
  const ocoBuy = formType === "oco" && side === "buy";
  const stopField = ocoBuy ? readField(stopPrice, pair.priceScale, market.priceStep) : null;

  const totalUnits = useMemo(() => {
    if (!priceField || !("units" in priceField) || !quantityField || !("units" in quantityField)) {
      return undefined;
    }
    return totalQuoteUnits(priceField.units, quantityField.units, scales);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [price, quantity, type, side, market]);

  // What the order needs of the spend asset: quote for a buy (total or amount), base for a sell.
  let required: string | undefined;
  if (side === "sell" && quantityField && "units" in quantityField) {
    required = formatDecimal(
      rescale(quantityField.units, pair.quantityScale, market.baseDecimals),
      market.baseDecimals,
    );
  } else if (side === "buy" && type === "limit" && totalUnits !== undefined) {
    required = formatDecimal(totalUnits, market.quoteDecimals);
  } else if (marketBuy && quoteField && "units" in quoteField) {
    required = formatDecimal(quoteField.units, market.quoteDecimals);
  }
  const insufficient = required !== undefined && !covers(available, required, spendDecimals);

  // Fee on what this side receives, at the higher of the two rates (the order may take).
  const feeBps = BigInt(Math.max(market.feeBpsMaker, market.feeBpsTaker));
  let fee: string | undefined;
  if (side === "buy" && quantityField && "units" in quantityField) {
    const base = rescale(quantityField.units, pair.quantityScale, market.baseDecimals);
    fee = formatDecimal(feeEstimate(base, feeBps), market.baseDecimals);
  } else if (side === "sell" && totalUnits !== undefined) {
    fee = formatDecimal(feeEstimate(totalUnits, feeBps), market.quoteDecimals);
  }

  let priceWarning: string | undefined;
  if (type === "limit" && referencePrice && priceField && "units" in priceField) {
    const deviation = deviationBps(price, referencePrice);
    if (deviation?.direction === "above" && deviation.bps > BigInt(market.priceWarningBpsUp)) {
      priceWarning = t("coinCoin.form.priceAbove", {
        up_rate: bpsToPercentText(BigInt(market.priceWarningBpsUp)),
      });
    } else if (
      deviation?.direction === "below" &&
      deviation.bps > BigInt(market.priceWarningBpsDown)
    ) {
      priceWarning = t("coinCoin.form.priceBelow", {
        down_rate: bpsToPercentText(BigInt(market.priceWarningBpsDown)),
      });
    }
  }

  const fieldMessage = (field: ReturnType<typeof readField> | null, name: string) => {
    if (!touched || !field || "units" in field) return undefined;
    return t(`coinCoin.form.problem.${field.problem}`, { field: name });
  };
  const priceProblem = fieldMessage(priceField, t("coinCoin.form.price"));
  const quantityProblem = fieldMessage(quantityField, t("coinCoin.form.quantity"));
  const quoteProblem = fieldMessage(
    quoteField,
    t("coinCoin.form.amount", { asset: market.quoteAsset }),
  );
  const triggerProblem = fieldMessage(triggerField, t("coinCoin.form.triggerPrice"));
  const stopProblem = fieldMessage(stopField, t("coinCoin.form.stopPrice"));
  const closed = !marketOpen || !market.open;

  const applyPercent = (percent: (typeof percents)[number]) => {
    if (marketBuy) {
      setQuoteAmount(quoteForPercent(available, percent, market.quoteDecimals) ?? "");
      return;
    }
    const value = quantityForPercent({
      side,
      percent,
      available,
      price: type === "limit" ? price : referencePrice,
      pair: scales,
    });
    if (value !== undefined) setQuantity(value);
  };

  const submit = () => {
    setTouched(true);
    const fieldsValid =
      (!priceField || "units" in priceField) &&
      (!quantityField || "units" in quantityField) &&
      (!quoteField || "units" in quoteField) &&
      (!triggerField || "units" in triggerField) &&
      (!stopField || "units" in stopField);
    if (!fieldsValid || insufficient || closed) return;
    onSubmit({
      side,
      type,
      timeInForce: type === "market" ? "ioc" : timeInForce,
      ...(type === "limit" ? { price } : {}),
      ...(marketBuy ? { quoteAmount } : { quantity }),
      ...(totalUnits !== undefined
        ? { total: formatDecimal(totalUnits, market.quoteDecimals) }
        : {}),
      ...(fee !== undefined ? { fee } : {}),
      feeAsset: receiveAsset,
      ...(priceWarning ? { priceWarning } : {}),
      ...(selfTradeMode !== "cancel_resting" ? { selfTradeMode } : {}),
      ...(conditional
        ? {
            conditional: {
              kind:
                formType === "oco" ? "oco" : formType === "take_profit" ? "take_profit" : "stop",
              triggerPrice,
              ...(ocoBuy ? { stopPrice } : {}),
            },
          }
        : {}),
    });
  };

  return (
    <form
      className="order-form"
      aria-labelledby="order-form-title"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2 id="order-form-title" className="visually-hidden">
        {t("coinCoin.form.title")}
      </h2>
      <Tabs activeKey={side} onChange={(key) => setSide(key as SpotSide)}>
        <Tabs.Tab key="buy" title={t("coinCoin.form.buy", { asset: market.baseAsset })} />
        <Tabs.Tab key="sell" title={t("coinCoin.form.sell", { asset: market.baseAsset })} />
      </Tabs>
      <Selector<FormOrderType>
        aria-label={t("coinCoin.form.type")}
        showCheckMark={false}
        columns={2}
        value={[formType]}
        onChange={(value) => value[0] && setFormType(value[0])}
        options={formOrderTypes.map((value) => ({
          label: t(`coinCoin.form.types.${value}`),
          value,
        }))}
        data-testid="order-type"
      />
      {conditional ? (
        <>
          <p className="hint" data-testid="conditional-hint">
            {t(`coinCoin.form.conditionalHint.${formType}`)}
          </p>
          <FormInput
            label={t("coinCoin.form.triggerPriceIn", { asset: market.quoteAsset })}
            value={triggerPrice}
            onChange={setTriggerPrice}
            problem={triggerProblem}
            testId="order-trigger-price"
          />
        </>
      ) : null}
      {ocoBuy ? (
        <FormInput
          label={t("coinCoin.form.stopPriceIn", { asset: market.quoteAsset })}
          value={stopPrice}
          onChange={setStopPrice}
          problem={stopProblem}
          testId="order-stop-price"
        />
      ) : null}
      {type === "limit" && formType !== "oco" ? (
        <label className="order-field order-field-inline">
          <span className="label">{t("coinCoin.form.timeInForce")}</span>
          <select
            className="native-select"
            value={timeInForce}
            onChange={(event) => setTimeInForce(event.target.value as TimeInForce)}
            data-testid="time-in-force"
          >
            {(["gtc", "ioc", "fok", "post_only"] as const).map((value) => (
              <option key={value} value={value}>
                {t(`coinCoin.form.tif.${value}`)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {type === "limit" ? (
        <FormInput
          label={t("coinCoin.form.priceIn", { asset: market.quoteAsset })}
          value={price}
          onChange={(value) => {
            setPriceEdited(true);
            setPrice(value);
          }}
          problem={priceProblem}
          testId="order-price"
        />
      ) : (
        <p className="hint">{t("coinCoin.form.marketHint")}</p>
      )}
      {marketBuy ? (
        <FormInput
          label={t("coinCoin.form.amount", { asset: market.quoteAsset })}
          value={quoteAmount}
          onChange={setQuoteAmount}
          problem={quoteProblem}
          testId="order-quote-amount"
        />
      ) : (
        <FormInput
          label={t("coinCoin.form.quantityIn", { asset: market.baseAsset })}
          value={quantity}
          onChange={setQuantity}
          problem={quantityProblem}
          testId="order-quantity"
        />
      )}
      <div className="percent-row" role="group" aria-label={t("coinCoin.form.percentOf")}>
        {percents.map((percent) => (
          <Button
            key={percent}
            size="mini"
            type="button"
            onClick={() => applyPercent(percent)}
            data-testid={`percent-${percent}`}
          >
            {percent}%
          </Button>
        ))}
      </div>
      <div className="order-form-row">
        <span className="label">{t("coinCoin.form.available")}</span>
        <span data-testid="order-available">
          <Amount value={available} /> {spendAsset}
        </span>
      </div>
      {type === "limit" ? (
        <div className="order-form-row">
          <span className="label">{t("coinCoin.form.total")}</span>
          <span data-testid="order-total">
            <Amount
              value={
                totalUnits === undefined
                  ? undefined
                  : formatDecimal(totalUnits, market.quoteDecimals)
              }
            />{" "}
            {market.quoteAsset}
          </span>
        </div>
      ) : null}
      <div className="order-form-row">
        <span className="label">{t("coinCoin.form.feeEstimate")}</span>
        <span>
          <Amount value={fee} /> {receiveAsset}
        </span>
      </div>
      <details className="order-advanced" data-testid="order-advanced">
        <summary>{t("coinCoin.form.advanced")}</summary>
        <SelfTradeModeField
          value={selfTradeMode}
          onChange={setSelfTradeMode}
          testId="self-trade-mode"
        />
        <p className="hint">{t("coinCoin.form.stp.hint")}</p>
      </details>
      {closed ? (
        <p className="order-warning" role="alert" data-testid="warning-closed">
          {t("coinCoin.closed")}
        </p>
      ) : null}
      {insufficient ? (
        <p className="order-warning" role="alert" data-testid="warning-balance">
          {t("coinCoin.form.insufficient", { asset: spendAsset })}
        </p>
      ) : null}
      {priceWarning ? (
        <p className="order-warning" role="alert" data-testid="warning-price">
          {priceWarning}
        </p>
      ) : null}
      <Button
        block
        type="submit"
        color={side === "buy" ? "success" : "danger"}
        disabled={closed}
        data-testid="order-submit"
      >
        {side === "buy"
          ? t("coinCoin.form.buy", { asset: market.baseAsset })
          : t("coinCoin.form.sell", { asset: market.baseAsset })}
      </Button>
    </form>
  );
}

function FormInput({
  label,
  value,
  onChange,
  problem,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | undefined;
  testId: string;
}) {
  const id = `field-${testId}`;
  return (
    <div className="order-field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <Input
        id={id}
        className="boxed-input"
        inputMode="decimal"
        value={value}
        onChange={(text) => onChange(text.replace(",", "."))}
        data-testid={testId}
      />
      {problem ? (
        <p className="order-warning" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
