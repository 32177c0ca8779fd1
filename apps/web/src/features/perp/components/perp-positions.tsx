import type { PerpOrderView, PerpPositionView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Input, Selector } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { promptText } from "../../../lib/dialogs.tsx";
import { runWithFeedback, showError, withLoading } from "../../../lib/feedback.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { bpsText } from "../lib/perp-math.ts";
import {
  amendPerpOrder,
  cancelPerpOrder,
  changePerpMargin,
  closeAllPerpPositions,
  closePerpPosition,
  perpKeys,
  reversePerpPosition,
  setPerpTpSl,
} from "../api/perp-api.ts";
import { ConfirmSheet } from "./perp-sheet.tsx";

type Action =
  | { kind: "close" | "reverse" | "tpsl" | "margin"; position: PerpPositionView }
  | { kind: "closeAll" };

/** The session's open positions with their figures and actions, and the open orders. */
export function PerpPositions({
  positions,
  orders,
  real,
  referencePrice,
}: {
  positions: PerpPositionView[];
  orders: PerpOrderView[];
  real: boolean;
  /** The market's reference (index) price from the tape. */
  referencePrice: (marketId: string) => string | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<Action | undefined>();
  const [takeProfit, setTakeProfit] = useState("");
  const [stopLoss, setStopLoss] = useState("");
  const [marginDirection, setMarginDirection] = useState<"add" | "remove">("add");
  const [marginAmount, setMarginAmount] = useState("");
  const open = positions.filter((p) => p.side !== "flat");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: perpKeys.all });

  /** Lower an open order's size (it keeps its queue place; a larger size is refused). */
  const amend = async (orderId: string, remaining: number) => {
    const contracts = await promptText({
      title: t("coinCoin.order.amendTitle"),
      hint: t("perp.orders.amendHint"),
      label: t("perp.form.contracts"),
      initial: String(remaining),
      inputMode: "numeric",
      testId: "perp-amend-contracts",
    });
    if (contracts === null) return;
    const value = Number(contracts);
    if (!Number.isSafeInteger(value) || value <= 0) {
      showError(new Error(t("perp.orders.amendHint")));
      return;
    }
    if (await runWithFeedback(() => amendPerpOrder(orderId, value), null)) refresh();
  };
  const close = () => setAction(undefined);

  const run = async (tradePassword: string | undefined) => {
    if (!action) return;
    const secret = tradePassword === undefined ? {} : { tradePassword };
    if (action.kind === "closeAll") {
      await closeAllPerpPositions({ requestId: newIdempotencyKey(), ...secret });
    } else if (action.kind === "close") {
      await closePerpPosition(action.position.marketId, {
        requestId: newIdempotencyKey(),
        ...secret,
      });
    } else if (action.kind === "reverse") {
      await reversePerpPosition(action.position.marketId, {
        requestId: newIdempotencyKey(),
        ...secret,
      });
    } else if (action.kind === "tpsl") {
      await setPerpTpSl(action.position.marketId, {
        ...(takeProfit.trim() === "" ? {} : { takeProfitPrice: takeProfit.trim() }),
        ...(stopLoss.trim() === "" ? {} : { stopLossPrice: stopLoss.trim() }),
        ...secret,
      });
    } else {
      await changePerpMargin(action.position.marketId, {
        direction: marginDirection,
        amount: marginAmount.trim(),
        ...secret,
      });
    }
    refresh();
  };

  const titles: Record<Action["kind"], string> = {
    close: t("perp.actions.closeConfirm"),
    reverse: t("perp.actions.reverseConfirm"),
    tpsl: t("perp.actions.tpslTitle"),
    margin: t("perp.actions.marginTitle"),
    closeAll: t("perp.actions.closeAllConfirm"),
  };

  return (
    <section className="spot-card" aria-labelledby="perp-positions-title">
      <div className="row">
        <h2 id="perp-positions-title">{t("perp.positions.title")}</h2>
        {open.length > 0 ? (
          <Button
            size="small"
            onClick={() => setAction({ kind: "closeAll" })}
            data-testid="perp-close-all"
          >
            {t("perp.actions.closeAll")}
          </Button>
        ) : null}
      </div>
      {open.length === 0 ? <p data-testid="perp-no-positions">{t("perp.positions.none")}</p> : null}
      {open.map((p) => (
        <article key={p.marketId} className="spot-card" data-testid={`perp-position-${p.marketId}`}>
          <h3 className={p.side === "long" ? "change up" : "change down"}>
            {p.marketId} · {t(`perp.side.${p.side}`)} · {p.leverage}× ·{" "}
            {t(`perp.marginMode.${p.marginMode}`)}
          </h3>
          <dl className="detail-list">
            <dt>{t("perp.positions.contracts")}</dt>
            <dd data-testid="perp-position-contracts">{p.contracts}</dd>
            <dt>{t("perp.positions.entryPrice")}</dt>
            <dd>
              <Amount value={p.entryPrice ?? undefined} />
            </dd>
            <dt>{t("perp.positions.markPrice")}</dt>
            <dd>
              <Amount value={p.markPrice ?? undefined} />
            </dd>
            <dt>{t("perp.positions.referencePrice")}</dt>
            <dd data-testid="perp-reference-price">
              <Amount value={referencePrice(p.marketId) ?? undefined} />
            </dd>
            <dt>{t("perp.positions.liquidationPrice")}</dt>
            <dd data-testid="perp-liquidation-price">
              {p.liquidationPrice === null ? (
                t("perp.positions.noLiquidation")
              ) : (
                <Amount value={p.liquidationPrice} />
              )}
            </dd>
            <dt>{t("perp.positions.margin")}</dt>
            <dd>
              <Amount value={p.margin} /> {p.asset}
            </dd>
            <dt>{t("perp.positions.unrealisedPnl")}</dt>
            <dd data-testid="perp-position-pnl">
              <Amount value={p.unrealisedPnl} /> {p.asset}
              {p.returnRateBps === null ? "" : ` (${bpsText(p.returnRateBps)}%)`}
            </dd>
            <dt>{t("perp.positions.equity")}</dt>
            <dd>
              <Amount value={p.equity} /> {p.asset}
            </dd>
            <dt>{t("perp.positions.riskRatio")}</dt>
            <dd>{p.riskRatioBps === null ? "—" : `${bpsText(p.riskRatioBps)}%`}</dd>
            <dt>{t("perp.positions.tpsl")}</dt>
            <dd data-testid="perp-position-tpsl">
              {p.takeProfitPrice ?? "—"} / {p.stopLossPrice ?? "—"}
            </dd>
            <dt>{t("perp.positions.estimatedProfit")}</dt>
            <dd data-testid="perp-position-tpsl-pnl">
              {p.takeProfitPnl === null ? "—" : <Amount value={p.takeProfitPnl} />} /{" "}
              {p.stopLossPnl === null ? "—" : <Amount value={p.stopLossPnl} />} {p.asset}
            </dd>
          </dl>
          <div className="seconds-buttons">
            <Button
              size="small"
              onClick={() => setAction({ kind: "close", position: p })}
              data-testid="perp-close"
            >
              {t("perp.actions.close")}
            </Button>
            <Button
              size="small"
              onClick={() => setAction({ kind: "reverse", position: p })}
              data-testid="perp-reverse"
            >
              {t("perp.actions.reverse")}
            </Button>
            <Button
              size="small"
              onClick={() => {
                setTakeProfit(p.takeProfitPrice ?? "");
                setStopLoss(p.stopLossPrice ?? "");
                setAction({ kind: "tpsl", position: p });
              }}
              data-testid="perp-tpsl"
            >
              {t("perp.actions.tpsl")}
            </Button>
            {p.marginMode === "isolated" ? (
              <Button
                size="small"
                onClick={() => setAction({ kind: "margin", position: p })}
                data-testid="perp-margin"
              >
                {t("perp.actions.margin")}
              </Button>
            ) : null}
          </div>
        </article>
      ))}

      <h2>{t("perp.orders.open")}</h2>
      {orders.length === 0 ? <p>{t("perp.orders.none")}</p> : null}
      {orders.map((o) => (
        <article key={o.orderId} className="spot-card" data-testid="perp-open-order">
          <p>
            {o.marketId} · {t(`perp.orderSide.${o.side}`)} · {o.price ?? t("perp.orderType.market")}{" "}
            · {o.filledContracts}/{o.contracts}{" "}
            {o.reduceOnly ? `· ${t("perp.form.reduceOnly")}` : ""}
          </p>
          <Button
            size="small"
            onClick={() => void amend(o.orderId, o.contracts - o.filledContracts)}
            data-testid="perp-order-amend"
          >
            {t("coinCoin.order.amend")}
          </Button>
          <Button
            size="small"
            onClick={() =>
              void withLoading(cancelPerpOrder(o.orderId)).then(refresh).catch(showError)
            }
          >
            {t("perp.orders.cancel")}
          </Button>
        </article>
      ))}

      <ConfirmSheet
        title={action ? titles[action.kind] : ""}
        testId={`perp-${action?.kind ?? "action"}-sheet`}
        visible={action !== undefined}
        real={real}
        submitLabel={t("perp.actions.confirm")}
        onClose={close}
        onConfirm={run}
      >
        {action && action.kind !== "closeAll" ? (
          <p>
            {action.position.marketId} · {t(`perp.side.${action.position.side}`)} ·{" "}
            {action.position.contracts}
          </p>
        ) : null}
        {action?.kind === "reverse" ? (
          <p className="hint">{t("perp.actions.reverseRule")}</p>
        ) : null}
        {action?.kind === "tpsl" ? (
          <>
            <Input
              aria-label={t("perp.actions.takeProfit")}
              placeholder={t("perp.actions.takeProfit")}
              className="boxed-input"
              inputMode="decimal"
              value={takeProfit}
              onChange={setTakeProfit}
              data-testid="perp-take-profit"
            />
            <Input
              aria-label={t("perp.actions.stopLoss")}
              placeholder={t("perp.actions.stopLoss")}
              className="boxed-input"
              inputMode="decimal"
              value={stopLoss}
              onChange={setStopLoss}
              data-testid="perp-stop-loss"
            />
            <p className="hint">{t("perp.actions.tpslRule")}</p>
          </>
        ) : null}
        {action?.kind === "margin" ? (
          <>
            <Selector<"add" | "remove">
              showCheckMark={false}
              columns={2}
              value={[marginDirection]}
              onChange={(v) => v[0] && setMarginDirection(v[0])}
              options={[
                { label: t("perp.actions.marginAdd"), value: "add" },
                { label: t("perp.actions.marginRemove"), value: "remove" },
              ]}
            />
            <Input
              aria-label={t("perp.actions.marginAmount")}
              placeholder={t("perp.actions.marginAmount")}
              className="boxed-input"
              inputMode="decimal"
              value={marginAmount}
              onChange={setMarginAmount}
            />
          </>
        ) : null}
      </ConfirmSheet>
    </section>
  );
}
