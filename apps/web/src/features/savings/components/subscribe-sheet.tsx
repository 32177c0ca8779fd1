import type { SavingsPlanView } from "@candor/contract";
import { Button, Checkbox, Input, Popup } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Amount } from "../../../components/ui/amount.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { subscribeSavings } from "../api/savings-api.ts";
import { expectedInterest } from "../lib/savings-math.ts";
import { RiskText } from "./risk-text.tsx";

const sheetStyle = { maxHeight: "85vh", overflowY: "auto" } as const;

/** The subscribe sheet: amount, the interest that will be reserved, the risks, confirm. */
export function SubscribeSheet({
  plan,
  demo,
  onClose,
  onDone,
}: {
  plan: SavingsPlanView | undefined;
  demo: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState("");
  const [understood, setUnderstood] = useState(false);
  const interest = plan
    ? expectedInterest(amount, plan.dailyRateE8, plan.cycleDays, plan.assetDecimals)
    : undefined;
  const daily = plan
    ? expectedInterest(amount, plan.dailyRateE8, 1, plan.assetDecimals)
    : undefined;

  const confirm = async () => {
    if (!plan) return;
    try {
      await withLoading(
        subscribeSavings({ requestId: newIdempotencyKey(), planId: plan.planId, amount }),
      );
      showSuccess(t("savings.sheet.done"));
      setAmount("");
      setUnderstood(false);
      onDone();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Popup visible={plan !== undefined} position="bottom" bodyStyle={sheetStyle} onClose={onClose}>
      {plan ? (
        <div
          className="page"
          role="dialog"
          aria-labelledby="savings-sheet-title"
          data-testid="subscribe-sheet"
        >
          <h2 id="savings-sheet-title">{t("savings.sheet.title", { name: plan.name })}</h2>
          <Input
            aria-label={t("savings.sheet.amount", { asset: plan.asset })}
            placeholder={t("savings.sheet.range", {
              min: plan.amountMin,
              max: plan.amountMax,
              asset: plan.asset,
            })}
            className="boxed-input"
            inputMode="decimal"
            value={amount}
            onChange={setAmount}
            data-testid="subscribe-amount"
          />
          <dl className="detail-list">
            <dt>{t("savings.sheet.expected")}</dt>
            <dd data-testid="subscribe-expected">
              <Amount value={interest} /> {plan.asset}
            </dd>
            <dt>{t("savings.sheet.daily")}</dt>
            <dd>
              <Amount value={daily} /> {plan.asset}
            </dd>
            <dt>{t("savings.plan.reserved")}</dt>
            <dd>
              <Amount value={plan.reserved} /> {plan.asset}
            </dd>
            <dt>{t("savings.plan.yieldAvailable")}</dt>
            <dd>
              <Amount value={plan.yieldAvailable} /> {plan.asset}
            </dd>
          </dl>
          <RiskText mining={plan.kind === "mining"} demo={demo} />
          <Checkbox
            checked={understood}
            onChange={setUnderstood}
            data-testid="subscribe-understood"
          >
            {t("savings.sheet.understood")}
          </Checkbox>
          <Button
            block
            color="primary"
            disabled={interest === undefined || !understood}
            onClick={() => void confirm()}
            data-testid="subscribe-confirm"
          >
            {t("savings.sheet.confirm")}
          </Button>
          <Button block onClick={onClose}>
            {t("common.cancel")}
          </Button>
        </div>
      ) : null}
    </Popup>
  );
}
