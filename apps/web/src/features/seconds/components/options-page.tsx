import type {
  SecondsContractView,
  SecondsDisclosureView,
  SecondsProductView,
} from "@candor/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Input, Popup, Selector } from "antd-mobile";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { askToSetTradePassword } from "../../../lib/trade-password.tsx";
import { useFormat } from "../../../lib/format.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { localCache } from "../../../lib/local-cache.ts";
import { marketSocket } from "../../../lib/ws-client.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import {
  fetchSecondsContract,
  fetchSecondsProducts,
  purchaseSecondsContract,
  secondsKeys,
  tickRoute,
} from "../api/seconds-api.ts";
import { bpsToPercent, payoutOf, secondsLeft } from "../lib/seconds-math.ts";
import { ContractDetails } from "./contract-details.tsx";

/** Remembers that the user read the disclosure on this device (asked again after 30 days). */
const disclosureKey = "seconds.disclosureAccepted";
const disclosureLifetimeS = 30 * 86_400;
const quickStakes = ["10", "50", "100", "500"];
/** Sheets taller than the screen scroll inside (the result lists every field). */
const sheetStyle = { maxHeight: "85vh", overflowY: "auto" } as const;

/** Decimals of a price as the tape writes it (for the chart's price scale). */
function decimalsOf(price: string | null): number {
  const point = price?.indexOf(".") ?? -1;
  return price && point >= 0 ? price.length - point - 1 : 2;
}

/** The disclosure figures: payout and break-even, and what users actually got (30 days). */
function Disclosure({
  product,
  disclosure,
}: {
  product: SecondsProductView | undefined;
  disclosure: SecondsDisclosureView;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <section className="spot-card" aria-labelledby="seconds-disclosure" data-testid="disclosure">
      <h2 id="seconds-disclosure">{t("seconds.disclosure.title")}</h2>
      <p>{t("seconds.disclosure.house")}</p>
      <dl className="detail-list">
        {product ? (
          <>
            <dt>{t("seconds.disclosure.payout")}</dt>
            <dd>{format.percent(bpsToPercent(product.payoutBps))}</dd>
            <dt>{t("seconds.disclosure.breakEven")}</dt>
            <dd data-testid="break-even">
              {format.percent(bpsToPercent(product.breakEvenWinRateBps))}
            </dd>
          </>
        ) : null}
        <dt>{t("seconds.disclosure.wonShare")}</dt>
        <dd data-testid="won-share">
          {disclosure.wonShareBps === null
            ? t("seconds.disclosure.none")
            : `${format.percent(bpsToPercent(disclosure.wonShareBps))} (${disclosure.wonCount}/${disclosure.settledCount})`}
        </dd>
        <dt>{t("seconds.disclosure.usersNet")}</dt>
        <dd>
          {disclosure.usersNet.length === 0
            ? t("seconds.disclosure.none")
            : disclosure.usersNet.map((n) => (
                <span key={n.asset}>
                  <Amount value={n.amount} /> {n.asset}{" "}
                </span>
              ))}
        </dd>
      </dl>
      <p className="hint">{t("seconds.disclosure.rules")}</p>
    </section>
  );
}

/** The contract just bought: countdown while in trade, then the result sheet. */
function ActiveContract({
  initial,
  onClose,
}: {
  initial: SecondsContractView;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [nowMs, setNowMs] = useState(() => Date.now());
  const detail = useQuery({
    queryKey: secondsKeys.contract(initial.contractId),
    queryFn: () => fetchSecondsContract(initial.contractId),
    initialData: { contract: initial },
    refetchInterval: (query) => (query.state.data?.contract.status === "settled" ? false : 1_000),
  });
  const contract = detail.data.contract;
  const queryClient = useQueryClient();
  // The settlement arrives on the private stream at once; the poll above is the fallback.
  useEffect(
    () =>
      marketSocket().subscribe({ channel: "seconds" }, (message) => {
        if (message.type !== "seconds_contract") return;
        if (message.data.contractId !== initial.contractId) return;
        queryClient.setQueryData(secondsKeys.contract(initial.contractId), {
          contract: message.data,
        });
      }),
    [initial.contractId, queryClient],
  );
  useEffect(() => {
    if (contract.status === "settled") return;
    const timer = setInterval(() => setNowMs(Date.now()), 250);
    return () => clearInterval(timer);
  }, [contract.status]);
  const left = secondsLeft(contract.expiresAtMs, nowMs);
  const settled = contract.status === "settled";
  return (
    <>
      {!settled ? (
        <section className="spot-card" aria-live="polite" data-testid="countdown">
          <h2>{t(`seconds.direction.${contract.direction}`)}</h2>
          <p className="seconds-countdown" data-testid="countdown-seconds">
            {left > 0 ? t("seconds.countdown", { count: left }) : t("seconds.waiting")}
          </p>
          <p>
            {t("seconds.contract.openPrice")}: <Amount value={contract.openPrice} /> ·{" "}
            <Link to={tickRoute(contract.instrumentId, contract.openTickId)}>
              {contract.openTickId}
            </Link>
          </p>
        </section>
      ) : null}
      <Popup
        visible={settled}
        onMaskClick={onClose}
        onClose={onClose}
        position="bottom"
        bodyStyle={sheetStyle}
      >
        {settled ? (
          <div
            className="page"
            role="dialog"
            aria-labelledby="seconds-result-title"
            data-testid="result-sheet"
          >
            <h2 id="seconds-result-title">
              {contract.outcome ? t(`seconds.outcome.${contract.outcome}`) : ""}
            </h2>
            <ContractDetails contract={contract} />
            <Button block onClick={onClose} data-testid="result-close">
              {t("seconds.close")}
            </Button>
          </div>
        ) : null}
      </Popup>
    </>
  );
}

interface Draft {
  product: SecondsProductView;
  direction: "up" | "down";
  stake: string;
}

/**
 * The Options page (spec index/Options): instrument picker, live chart, period chips with
 * their payout, stake with quick amounts, up/down with a confirmation, the countdown and the
 * result. The disclosure is shown on the screen and must be read before the first purchase.
 */
export function OptionsPage({
  chart,
}: {
  /** The live chart of an instrument (the market-data feature's, put in by the route). */
  chart: (props: { instrumentId: string; priceScale: number }) => ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const demo = isDemo(session);
  const mode = demo ? "demo" : "real";
  const queryClient = useQueryClient();
  const products = useQuery({
    queryKey: secondsKeys.products(mode),
    queryFn: () => fetchSecondsProducts(mode),
    refetchInterval: 1_000,
  });
  const [instrumentId, setInstrumentId] = useState<string | undefined>();
  const [periodS, setPeriodS] = useState<number | undefined>();
  const [stake, setStake] = useState("10");
  const [draft, setDraft] = useState<Draft | undefined>();
  const [showDisclosure, setShowDisclosure] = useState(false);
  const [pending, setPending] = useState<Draft | undefined>();
  const [password, setPassword] = useState("");
  const [active, setActive] = useState<SecondsContractView | undefined>();
  const passwordConfirmedMs = useRef<number | undefined>(undefined);

  if (products.isPending) return <LoadingState />;
  if (products.isError) {
    return <ErrorState message={products.error.message} onRetry={() => void products.refetch()} />;
  }
  const data = products.data;
  if (!data.enabled) {
    return (
      <section className="page" aria-labelledby="options-title">
        <h1 id="options-title">{t("seconds.title")}</h1>
        <p data-testid="seconds-disabled">{t("seconds.disabled")}</p>
      </section>
    );
  }
  const instruments = [...new Set(data.items.map((p) => p.instrumentId))];
  const selectedInstrument = instrumentId ?? instruments[0];
  const periods = data.items.filter((p) => p.instrumentId === selectedInstrument);
  const product = periods.find((p) => p.periodS === periodS) ?? periods[0];
  const payout = product ? payoutOf(stake, product.payoutBps, product.assetDecimals) : undefined;
  // Real money asks the trade password like spot orders, remembered for 15 minutes here.
  const needsPassword =
    !demo &&
    (passwordConfirmedMs.current === undefined ||
      Date.now() - passwordConfirmedMs.current > 15 * 60_000);

  const start = (direction: "up" | "down") => {
    if (!product) return;
    if (!session) {
      navigate("/login");
      return;
    }
    const next = { product, direction, stake };
    if (!localCache().get<boolean>(disclosureKey)) {
      setPending(next);
      setShowDisclosure(true);
      return;
    }
    setPassword("");
    setDraft(next);
  };

  const buy = async (order: Draft) => {
    try {
      const result = await withLoading(
        purchaseSecondsContract({
          requestId: newIdempotencyKey(),
          instrumentId: order.product.instrumentId,
          periodS: order.product.periodS,
          direction: order.direction,
          stake: order.stake,
          ...(needsPassword ? { tradePassword: password } : {}),
        }),
      );
      if (needsPassword) passwordConfirmedMs.current = Date.now();
      setDraft(undefined);
      setActive(result.contract);
      void queryClient.invalidateQueries({ queryKey: secondsKeys.contractsAll() });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "trade_password_not_set") {
        setDraft(undefined);
        void askToSetTradePassword();
        return;
      }
      if (code === "trade_password_required") passwordConfirmedMs.current = undefined;
      showError(error);
    }
  };

  return (
    <section className="page" aria-labelledby="options-title">
      <div className="row">
        <h1 id="options-title">{t("seconds.title")}</h1>
        <Link to="/options/orders" data-testid="option-orders-link">
          {t("seconds.orders.title")}
        </Link>
      </div>
      <Selector<string>
        aria-label={t("seconds.instrument")}
        showCheckMark={false}
        columns={Math.min(4, Math.max(1, instruments.length))}
        value={selectedInstrument ? [selectedInstrument] : []}
        onChange={(value) => value[0] && setInstrumentId(value[0])}
        options={instruments.map((id) => ({ label: id, value: id }))}
        data-testid="instrument-picker"
      />
      {product ? (
        <>
          <p data-testid="last-price">
            {t("seconds.lastPrice")}: <Amount value={product.lastPrice ?? undefined} />{" "}
            {product.lastTickId ? (
              <Link to={tickRoute(product.instrumentId, product.lastTickId)}>
                {product.lastTickId}
              </Link>
            ) : null}
          </p>
          {chart({ instrumentId: product.instrumentId, priceScale: decimalsOf(product.lastPrice) })}
          <Selector<number>
            aria-label={t("seconds.period")}
            showCheckMark={false}
            columns={Math.min(4, periods.length)}
            value={[product.periodS]}
            onChange={(value) => value[0] !== undefined && setPeriodS(value[0])}
            options={periods.map((p) => ({
              label: `${t("seconds.seconds", { count: p.periodS })} · ${bpsToPercent(p.payoutBps)}%`,
              value: p.periodS,
              disabled: !p.open,
            }))}
            data-testid="period-chips"
          />
          <Input
            aria-label={t("seconds.stake", { asset: product.asset })}
            placeholder={t("seconds.stakeRange", {
              min: product.stakeMin,
              max: product.stakeMax,
              asset: product.asset,
            })}
            className="boxed-input"
            inputMode="decimal"
            value={stake}
            onChange={setStake}
            data-testid="stake-input"
          />
          <Selector<string>
            aria-label={t("seconds.quickStakes")}
            showCheckMark={false}
            columns={4}
            value={quickStakes.includes(stake) ? [stake] : []}
            onChange={(value) => value[0] && setStake(value[0])}
            options={quickStakes.map((value) => ({ label: value, value }))}
          />
          <p>
            {t("seconds.winPays")}: <Amount value={payout} /> {product.asset}
          </p>
          <div className="seconds-buttons">
            <Button
              block
              color="success"
              disabled={payout === undefined || !product.open}
              onClick={() => start("up")}
              data-testid="buy-up"
            >
              {t("seconds.direction.up")}
            </Button>
            <Button
              block
              color="danger"
              disabled={payout === undefined || !product.open}
              onClick={() => start("down")}
              data-testid="buy-down"
            >
              {t("seconds.direction.down")}
            </Button>
          </div>
        </>
      ) : (
        <p>{t("seconds.noProducts")}</p>
      )}
      {active ? (
        <ActiveContract
          key={active.contractId}
          initial={active}
          onClose={() => setActive(undefined)}
        />
      ) : null}
      <Disclosure product={product} disclosure={data.disclosure} />

      <Popup
        visible={showDisclosure}
        position="bottom"
        bodyStyle={sheetStyle}
        onClose={() => setShowDisclosure(false)}
      >
        <div
          className="page"
          role="dialog"
          aria-labelledby="seconds-first-use"
          data-testid="disclosure-sheet"
        >
          <h2 id="seconds-first-use">{t("seconds.disclosure.firstUse")}</h2>
          <Disclosure product={pending?.product} disclosure={data.disclosure} />
          <Button
            block
            color="primary"
            data-testid="disclosure-accept"
            onClick={() => {
              localCache().set(disclosureKey, true, disclosureLifetimeS);
              setShowDisclosure(false);
              setPassword("");
              setDraft(pending);
            }}
          >
            {t("seconds.disclosure.accept")}
          </Button>
          <Button block onClick={() => setShowDisclosure(false)}>
            {t("common.cancel")}
          </Button>
        </div>
      </Popup>

      <Popup
        visible={draft !== undefined}
        position="bottom"
        bodyStyle={sheetStyle}
        onClose={() => setDraft(undefined)}
      >
        {draft ? (
          <div
            className="page"
            role="dialog"
            aria-labelledby="seconds-confirm-title"
            data-testid="confirm-sheet"
          >
            <h2 id="seconds-confirm-title">{t("seconds.confirm.title")}</h2>
            <dl className="detail-list">
              <dt>{t("seconds.contract.instrument")}</dt>
              <dd>{draft.product.instrumentId}</dd>
              <dt>{t("seconds.contract.direction")}</dt>
              <dd className={draft.direction === "up" ? "change up" : "change down"}>
                {t(`seconds.direction.${draft.direction}`)}
              </dd>
              <dt>{t("seconds.contract.period")}</dt>
              <dd>{t("seconds.seconds", { count: draft.product.periodS })}</dd>
              <dt>{t("seconds.contract.stake")}</dt>
              <dd>
                <Amount value={draft.stake} /> {draft.product.asset}
              </dd>
              <dt>{t("seconds.winPays")}</dt>
              <dd>
                <Amount
                  value={payoutOf(
                    draft.stake,
                    draft.product.payoutBps,
                    draft.product.assetDecimals,
                  )}
                />{" "}
                {draft.product.asset}
              </dd>
            </dl>
            <p className="hint">{t("seconds.confirm.rule")}</p>
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
                onClick={() => void buy(draft)}
                data-testid="confirm-purchase"
              >
                {t("seconds.confirm.submit")}
              </Button>
              <Button block onClick={() => setDraft(undefined)}>
                {t("common.cancel")}
              </Button>
            </div>
          </div>
        ) : null}
      </Popup>
    </section>
  );
}
