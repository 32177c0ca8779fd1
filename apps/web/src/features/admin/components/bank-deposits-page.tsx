import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import {
  adminKeys,
  creditBankDeposit,
  fetchBankDeposits,
  rejectBankDeposit,
} from "../api/admin-api.ts";
import {
  ActionForm,
  AdminPage,
  QueryView,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";
import { DocumentImage } from "./document-image.tsx";

type DepositState = "pending" | "crediting" | "credited" | "rejected";
const states: readonly DepositState[] = ["pending", "crediting", "credited", "rejected"];

/** Bank deposit reviews: the proof of transfer, then credit (journaled) or reject. */
export function BankDepositsPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const [state, setState] = useState<DepositState>("pending");
  const queryClient = useQueryClient();
  const deposits = useQuery({
    queryKey: adminKeys.bankDeposits(state),
    queryFn: () => fetchBankDeposits(state),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage title={t("bankDeposits.title")} testId="admin-bank-deposits">
      <SelectField
        label={t("common.state")}
        value={state}
        onChange={setState}
        options={states.map((value) => ({ value, text: t(`bankDeposits.states.${value}`) }))}
      />
      <QueryView
        query={deposits}
        isEmpty={(data) => data.items.length === 0}
        emptyText={t("bankDeposits.empty")}
      >
        {(data) => (
          <ul className="admin-cards">
            {data.items.map((deposit) => (
              <li key={deposit.depositId} className="admin-card" data-testid="admin-bank-deposit">
                <dl className="admin-dl">
                  <dt>{t("bankDeposits.id")}</dt>
                  <dd>{deposit.depositId}</dd>
                  <dt>{t("audit.user")}</dt>
                  <dd>
                    <Link to={`/admin/users/${deposit.ownerId}`}>{deposit.ownerId}</Link>
                  </dd>
                  <dt>{t("common.amount")}</dt>
                  <dd className="admin-number">
                    {format.amount(deposit.amount)} {deposit.assetId}
                  </dd>
                  <dt>{t("common.state")}</dt>
                  <dd>{t(`bankDeposits.states.${deposit.state}`)}</dd>
                  {deposit.rejectReason ? (
                    <>
                      <dt>{t("bankDeposits.rejectReason")}</dt>
                      <dd>{deposit.rejectReason}</dd>
                    </>
                  ) : null}
                </dl>
                <DocumentImage uploadId={deposit.proofUploadId} label={t("bankDeposits.proof")} />
                {deposit.state === "pending" ? (
                  <div className="admin-actions">
                    <ActionForm
                      submitLabel={t("bankDeposits.credit")}
                      testId="admin-bank-credit"
                      run={(reason) => creditBankDeposit(deposit.depositId, reason)}
                      onDone={refresh}
                    />
                    <ActionForm
                      submitLabel={t("bankDeposits.reject")}
                      testId="admin-bank-reject"
                      danger
                      run={(reason) => rejectBankDeposit(deposit.depositId, reason)}
                      onDone={refresh}
                    >
                      <p className="admin-hint">{t("bankDeposits.rejectHint")}</p>
                    </ActionForm>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </AdminPage>
  );
}
