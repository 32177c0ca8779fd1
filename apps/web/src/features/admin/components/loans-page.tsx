import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { adminKeys, decideLoanAction, fetchPendingLoans } from "../api/admin-api.ts";
import { ActionForm, AdminPage, QueryView, useAdminFormat, useAdminT } from "./admin-ui.tsx";

/** Loan applications waiting for a decision: approve (the kernel re-checks LTV) or reject. */
export function LoansPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  const loans = useQuery({ queryKey: adminKeys.loans(), queryFn: fetchPendingLoans });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage title={t("loans.title")} testId="admin-loans">
      <QueryView
        query={loans}
        isEmpty={(data) => data.items.length === 0}
        emptyText={t("loans.empty")}
      >
        {(data) => (
          <ul className="admin-cards">
            {data.items.map((loan) => (
              <li key={loan.loanId} className="admin-card" data-testid="admin-loan">
                <dl className="admin-dl">
                  <dt>{t("loans.id")}</dt>
                  <dd>{loan.loanId}</dd>
                  <dt>{t("audit.user")}</dt>
                  <dd>
                    <Link to={`/admin/users/${loan.ownerId}`}>{loan.ownerId}</Link>
                  </dd>
                  <dt>{t("loans.product")}</dt>
                  <dd>{loan.productId}</dd>
                  <dt>{t("loans.principal")}</dt>
                  <dd className="admin-number">
                    {format.amount(loan.principalLent)} {loan.loanAsset}
                  </dd>
                  <dt>{t("loans.collateral")}</dt>
                  <dd className="admin-number">
                    {format.amount(loan.collateral)} {loan.collateralAsset}
                  </dd>
                  <dt>{t("loans.term")}</dt>
                  <dd>{loan.terms.termDays}</dd>
                  <dt>{t("loans.appliedAt")}</dt>
                  <dd>{format.time(loan.appliedAtMs)}</dd>
                </dl>
                <div className="admin-actions">
                  <ActionForm
                    submitLabel={t("loans.approve")}
                    testId="admin-loan-approve"
                    run={(reason) => decideLoanAction(loan.loanId, true, reason)}
                    onDone={refresh}
                  />
                  <ActionForm
                    submitLabel={t("loans.reject")}
                    testId="admin-loan-reject"
                    danger
                    run={(reason) => decideLoanAction(loan.loanId, false, reason)}
                    onDone={refresh}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </AdminPage>
  );
}
