import type { SavingsPlanView } from "@candor/contract";
import { Button, Tag } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { useFormat } from "../../../lib/format.ts";
import { bpsToPercent, hoursOf } from "../lib/savings-math.ts";

/** One plan: its terms, the reserve behind its promises, and whether it is sold out. */
export function PlanCard({
  plan,
  onSubscribe,
}: {
  plan: SavingsPlanView;
  onSubscribe: (plan: SavingsPlanView) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const unavailable = plan.soldOut || !plan.open;
  return (
    <section className="spot-card" aria-labelledby={`plan-${plan.planId}`} data-testid="plan-card">
      <div className="row">
        <h2 id={`plan-${plan.planId}`}>{plan.name}</h2>
        {plan.soldOut ? (
          <Tag color="warning" data-testid="sold-out">
            {t("savings.plan.soldOut")}
          </Tag>
        ) : !plan.open ? (
          <Tag>{t("savings.plan.closed")}</Tag>
        ) : null}
      </div>
      <dl className="detail-list">
        <dt>{t("savings.plan.dailyRate")}</dt>
        <dd data-testid="daily-rate">{format.percent(plan.dailyRatePercent)}</dd>
        <dt>{t("savings.plan.cycle")}</dt>
        <dd>{t("savings.plan.days", { count: plan.cycleDays })}</dd>
        <dt>{t("savings.plan.range")}</dt>
        <dd>
          <Amount value={plan.amountMin} /> – <Amount value={plan.amountMax} /> {plan.asset}
        </dd>
        {plan.kind === "mining" ? (
          <>
            <dt>{t("savings.plan.unit")}</dt>
            <dd>
              <Amount value={plan.amountStep} /> {plan.asset}
            </dd>
          </>
        ) : null}
        <dt>{t("savings.plan.start")}</dt>
        <dd>
          {plan.startDelayS === 0
            ? t("savings.plan.startsNow")
            : t("savings.plan.startsAfter", { count: hoursOf(plan.startDelayS) })}
        </dd>
        <dt>{t("savings.plan.early")}</dt>
        <dd>
          {plan.earlyRedemption === "none"
            ? t("savings.plan.earlyNone")
            : plan.earlyPenaltyBps > 0
              ? t("savings.plan.earlyPenalty", {
                  percent: format.percent(bpsToPercent(plan.earlyPenaltyBps)),
                })
              : t("savings.plan.earlyForfeit")}
        </dd>
        <dt>{t("savings.plan.capacityLeft")}</dt>
        <dd>
          <Amount value={plan.capacityLeft} /> {plan.asset}
        </dd>
        <dt>{t("savings.plan.reserved")}</dt>
        <dd data-testid="plan-reserved">
          <Amount value={plan.reserved} /> {plan.asset}
        </dd>
        <dt>{t("savings.plan.yieldAvailable")}</dt>
        <dd data-testid="plan-yield">
          <Amount value={plan.yieldAvailable} /> {plan.asset}
        </dd>
      </dl>
      {plan.hardware ? (
        <>
          <h3>{t("savings.plan.hardware")}</h3>
          <dl className="detail-list" data-testid="hardware">
            <dt>{t("savings.plan.manufacturer")}</dt>
            <dd>{plan.hardware.manufacturer}</dd>
            <dt>{t("savings.plan.hashrate")}</dt>
            <dd>{plan.hardware.hashrate}</dd>
            <dt>{t("savings.plan.wallPower")}</dt>
            <dd>{plan.hardware.wallPower}</dd>
            <dt>{t("savings.plan.boxSize")}</dt>
            <dd>{plan.hardware.boxSize}</dd>
            <dt>{t("savings.plan.pool")}</dt>
            <dd>{plan.hardware.pool}</dd>
          </dl>
        </>
      ) : null}
      <Button
        block
        color="primary"
        disabled={unavailable}
        onClick={() => onSubscribe(plan)}
        data-testid="plan-subscribe"
      >
        {plan.soldOut ? t("savings.plan.soldOut") : t("savings.plan.subscribe")}
      </Button>
    </section>
  );
}
