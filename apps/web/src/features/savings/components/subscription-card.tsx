import type { SavingsSubscriptionView } from "@candor/contract";
import { Button, Tag } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { confirmThenRun } from "../../../lib/dialogs.tsx";
import { useFormat } from "../../../lib/format.ts";
import { redeemSavingsEarly } from "../api/savings-api.ts";

/** One subscription with the spec's fields; for mining, the ledger record ("NFT"). */
export function SubscriptionCard({
  subscription: s,
  onChanged,
}: {
  subscription: SavingsSubscriptionView;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const active = s.state === "pending" || s.state === "in_progress";

  const redeem = async () => {
    const outcome = await confirmThenRun(t("savings.sub.redeemConfirm"), () =>
      redeemSavingsEarly(s.subscriptionId),
    );
    if (outcome !== "dismissed") onChanged();
  };

  return (
    <section
      className="spot-card"
      aria-labelledby={`sub-${s.subscriptionId}`}
      data-testid="subscription-card"
      data-state={s.state}
    >
      <div className="row">
        <h2 id={`sub-${s.subscriptionId}`}>{s.planName}</h2>
        <Tag color={active ? "primary" : "default"} data-testid="subscription-state">
          {t(`savings.state.${s.state}`)}
        </Tag>
      </div>
      <dl className="detail-list">
        <dt>{t("savings.sub.amount")}</dt>
        <dd>
          <Amount value={s.amount} /> {s.asset}
        </dd>
        {s.kind === "mining" && s.quantity !== null ? (
          <>
            <dt>{t("savings.sub.quantity")}</dt>
            <dd>{s.quantity}</dd>
            <dt>{t("savings.sub.beneficiary")}</dt>
            <dd>{t("savings.sub.beneficiaryYou")}</dd>
          </>
        ) : null}
        <dt>{t("savings.plan.cycle")}</dt>
        <dd>{t("savings.plan.days", { count: s.cycleDays })}</dd>
        <dt>{t("savings.plan.dailyRate")}</dt>
        <dd>{format.percent(s.dailyRatePercent)}</dd>
        <dt>{t("savings.sub.start")}</dt>
        <dd>{format.dateTime(s.startMs)}</dd>
        {s.nextPayoutAtMs !== null ? (
          <>
            <dt>{t("savings.sub.nextPayout")}</dt>
            <dd>{format.dateTime(s.nextPayoutAtMs)}</dd>
          </>
        ) : null}
        <dt>{t("savings.sub.remainingDays")}</dt>
        <dd data-testid="remaining-days">{s.remainingDays}</dd>
        <dt>{t("savings.sub.expected")}</dt>
        <dd>
          <Amount value={s.expectedProfit} /> {s.asset}
        </dd>
        <dt>{t("savings.sub.cumulative")}</dt>
        <dd data-testid="cumulative-profit">
          <Amount value={s.cumulativeProfit} /> {s.asset}
        </dd>
        <dt>{t("savings.sub.daily")}</dt>
        <dd>
          <Amount value={s.dailyProfit} /> {s.asset}
        </dd>
        {s.principalReturned !== null ? (
          <>
            <dt>{t("savings.sub.principalReturned")}</dt>
            <dd>
              <Amount value={s.principalReturned} /> {s.asset}
            </dd>
          </>
        ) : null}
        {s.penalty !== null && s.penalty !== "0" ? (
          <>
            <dt>{t("savings.sub.penalty")}</dt>
            <dd>
              <Amount value={s.penalty} /> {s.asset}
            </dd>
          </>
        ) : null}
      </dl>
      {s.kind === "mining" ? <p className="hint">{t("savings.sub.nftRecord")}</p> : null}
      {active && s.earlyRedemption !== "none" ? (
        <Button size="small" onClick={() => void redeem()} data-testid="subscription-redeem">
          {t("savings.sub.redeem")}
        </Button>
      ) : null}
    </section>
  );
}
