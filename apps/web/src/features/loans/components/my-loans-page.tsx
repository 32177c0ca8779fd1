import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Input } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { confirmThenRun } from "../../../lib/dialogs.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { useFormat } from "../../../lib/format.ts";
import {
  addLoanCollateral,
  fetchMyLoans,
  loansKeys,
  repayLoan,
  type LoanView,
} from "../api/loans-api.ts";
import { bpsToPercent, decimalsOf } from "../lib/loans-math.ts";

/** ToLoanList: the user's loans and applications with every figure, and repayment. */
export function MyLoansPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const queryClient = useQueryClient();
  const loans = useQuery({
    queryKey: loansKeys.mine(),
    queryFn: fetchMyLoans,
    refetchInterval: 5_000,
  });

  const [extra, setExtra] = useState<Record<string, string>>({});

  const addCollateral = async (loan: LoanView) => {
    const amount = extra[loan.loanId] ?? "";
    if (!/^\d{1,20}(\.\d{1,18})?$/.test(amount)) return;
    try {
      await withLoading(addLoanCollateral(loan.loanId, amount));
      setExtra({ ...extra, [loan.loanId]: "" });
      showSuccess(t("loans.mine.collateralAdded"));
    } catch (error) {
      showError(error);
    }
    void queryClient.invalidateQueries({ queryKey: loansKeys.all });
  };

  const repay = async (loan: LoanView) => {
    const outcome = await confirmThenRun(
      {
        content: t("loans.repayConfirm", {
          amount: loan.repayNow,
          asset: loan.loanAsset,
          fee: loan.earlyFee,
          collateral: loan.collateral,
          collateralAsset: loan.collateralAsset,
        }),
        "aria-label": t("loans.repay"),
      },
      () => repayLoan(loan.loanId, loan.repayNow),
      t("loans.repaid"),
    );
    if (outcome !== "dismissed") void queryClient.invalidateQueries({ queryKey: loansKeys.all });
  };

  return (
    <section className="page" aria-labelledby="my-loans-title">
      <div className="row">
        <h1 id="my-loans-title">{t("loans.mine.title")}</h1>
        <Link to="/loans">{t("loans.title")}</Link>
      </div>
      {loans.isPending ? <LoadingState /> : null}
      {loans.isError ? (
        <ErrorState message={loans.error.message} onRetry={() => void loans.refetch()} />
      ) : null}
      {loans.isSuccess && loans.data.items.length === 0 ? <EmptyState /> : null}
      <ul className="order-list">
        {(loans.data?.items ?? []).map((loan) => (
          <li key={loan.loanId} className="order-card" data-testid="loan-card">
            <dl>
              <dt>{t("loans.mine.state")}</dt>
              <dd data-testid="loan-status">{t(`loans.status.${loan.status}`)}</dd>
              <dt>{t("loans.mine.amount")}</dt>
              <dd>
                <Amount value={loan.principalLent} /> {loan.loanAsset}
              </dd>
              <dt>{t("loans.mine.owed")}</dt>
              <dd>
                <Amount value={loan.debt} /> {loan.loanAsset}
              </dd>
              <dt>{t("loans.mine.interest")}</dt>
              <dd>
                <Amount value={loan.interest} /> {loan.loanAsset}
              </dd>
              <dt>{t("loans.mine.lateFees")}</dt>
              <dd>
                <Amount value={loan.lateFees} /> {loan.loanAsset}
              </dd>
              <dt>{t("loans.collateral", { asset: loan.collateralAsset })}</dt>
              <dd data-testid="loan-collateral-amount">
                <Amount value={loan.collateral} />
              </dd>
              <dt>{t("loans.ltv")}</dt>
              <dd>
                {loan.ltvBps === null
                  ? "--"
                  : format.percent(bpsToPercent(loan.ltvBps), {
                      decimals: decimalsOf(bpsToPercent(loan.ltvBps)),
                    })}
              </dd>
              <dt>{t("loans.liquidationPrice")}</dt>
              <dd>
                <Amount value={loan.liquidationPrice ?? undefined} decimalsMax={2} />
              </dd>
              <dt>{t("loans.mine.due")}</dt>
              <dd>{loan.dueAtMs === null ? "--" : format.dateTime(loan.dueAtMs)}</dd>
              {loan.status === "active" ? (
                <>
                  <dt>{t("loans.mine.repayNow")}</dt>
                  <dd data-testid="loan-repay-now">
                    <Amount value={loan.repayNow} /> {loan.loanAsset}
                  </dd>
                  <dt>{t("loans.mine.earlyFee")}</dt>
                  <dd data-testid="loan-early-fee">
                    <Amount value={loan.earlyFee} /> {loan.loanAsset}
                  </dd>
                </>
              ) : null}
              {loan.status === "repaid" || loan.status === "liquidated" ? (
                <>
                  <dt>{t("loans.mine.paid")}</dt>
                  <dd>
                    <Amount value={loan.interestPaid} /> {loan.loanAsset}
                  </dd>
                </>
              ) : null}
              {loan.closeTickId ? (
                <>
                  <dt>{t("loans.mine.liquidatedAt")}</dt>
                  <dd>
                    <Amount value={loan.closePrice ?? undefined} /> ({loan.closeTickId})
                  </dd>
                </>
              ) : null}
              {loan.marginCall ? (
                <dd className="change down">{t("loans.mine.marginCall")}</dd>
              ) : null}
              {loan.reason ? (
                <>
                  <dt>{t("loans.mine.reason")}</dt>
                  <dd>{loan.reason}</dd>
                </>
              ) : null}
            </dl>
            {loan.status === "active" ? (
              <>
                <Button
                  block
                  color="primary"
                  onClick={() => void repay(loan)}
                  data-testid="loan-repay"
                >
                  {t("loans.repay")}
                </Button>
                <Input
                  aria-label={t("loans.mine.addCollateralAmount", { asset: loan.collateralAsset })}
                  placeholder={t("loans.mine.addCollateralAmount", {
                    asset: loan.collateralAsset,
                  })}
                  className="boxed-input"
                  inputMode="decimal"
                  value={extra[loan.loanId] ?? ""}
                  onChange={(value) => setExtra({ ...extra, [loan.loanId]: value })}
                  data-testid="loan-add-collateral-amount"
                />
                <Button
                  block
                  onClick={() => void addCollateral(loan)}
                  data-testid="loan-add-collateral"
                >
                  {t("loans.mine.addCollateral")}
                </Button>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
