import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import {
  adminKeys,
  approveWithdrawalAction,
  completeWithdrawalAction,
  fetchWithdrawals,
  markWithdrawalSentAction,
  rejectWithdrawalAction,
  type WithdrawalStatus,
} from "../api/admin-api.ts";
import { approvalOperatorIds, isTxHash, mayApprove } from "../lib/forms.ts";
import { useOperatorSession } from "../lib/operator-session.ts";
import {
  ActionForm,
  AdminPage,
  Field,
  QueryView,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";

const statuses: readonly WithdrawalStatus[] = [
  "pending",
  "approved",
  "sent",
  "completed",
  "rejected",
  "cancelled",
];

function SentForm({ withdrawalId, onDone }: { withdrawalId: string; onDone: () => void }) {
  const t = useAdminT();
  const [txHash, setTxHash] = useState("");
  return (
    <ActionForm
      submitLabel={t("withdrawals.markSent")}
      testId="admin-withdrawal-sent"
      valid={isTxHash(txHash)}
      run={(reason) => markWithdrawalSentAction(withdrawalId, txHash, reason)}
      onDone={onDone}
    >
      <Field
        label={t("withdrawals.txHash")}
        value={txHash}
        onChange={setTxHash}
        testId="admin-withdrawal-tx-hash"
        placeholder="0x…"
      />
    </ActionForm>
  );
}

/**
 * Withdrawal approvals: who approved so far; above the threshold a second, different operator
 * co-approves; then mark sent with the transaction hash, complete, or reject.
 */
export function WithdrawalsPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const session = useOperatorSession();
  const me = session?.operator.id ?? "";
  const [status, setStatus] = useState<WithdrawalStatus>("pending");
  const queryClient = useQueryClient();
  const withdrawals = useQuery({
    queryKey: adminKeys.withdrawals(status),
    queryFn: () => fetchWithdrawals(status),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage title={t("withdrawals.title")} testId="admin-withdrawals">
      <SelectField
        label={t("common.state")}
        value={status}
        onChange={setStatus}
        options={statuses.map((value) => ({ value, text: t(`withdrawals.states.${value}`) }))}
        testId="admin-withdrawal-status"
      />
      <QueryView
        query={withdrawals}
        isEmpty={(data) => data.items.length === 0}
        emptyText={t("withdrawals.empty")}
      >
        {(data) => (
          <ul className="admin-cards">
            {data.items.map((withdrawal) => {
              const approvedBy = approvalOperatorIds(withdrawal.steps);
              const mine = approvedBy.includes(me);
              return (
                <li
                  key={withdrawal.withdrawalId}
                  className="admin-card"
                  data-testid="admin-withdrawal"
                  data-withdrawal={withdrawal.withdrawalId}
                  data-user={withdrawal.userId}
                >
                  <dl className="admin-dl">
                    <dt>{t("withdrawals.id")}</dt>
                    <dd>{withdrawal.withdrawalId}</dd>
                    <dt>{t("audit.user")}</dt>
                    <dd>
                      <Link to={`/admin/users/${withdrawal.userId}`}>{withdrawal.userId}</Link>
                    </dd>
                    <dt>{t("common.amount")}</dt>
                    <dd className="admin-number">
                      {format.amount(withdrawal.amount)} {withdrawal.asset}
                    </dd>
                    <dt>{t("withdrawals.fee")}</dt>
                    <dd className="admin-number">{format.amount(withdrawal.fee)}</dd>
                    <dt>{t("withdrawals.address")}</dt>
                    <dd className="admin-mono">
                      {withdrawal.address} ({withdrawal.network})
                    </dd>
                    <dt>{t("withdrawals.requestedAt")}</dt>
                    <dd>{format.time(withdrawal.requestedAtMs)}</dd>
                    <dt>{t("withdrawals.approvals")}</dt>
                    <dd data-testid="admin-withdrawal-approvals">
                      {t("withdrawals.approvalsCount", {
                        given: withdrawal.approvals,
                        required: withdrawal.approvalsRequired,
                      })}
                    </dd>
                    <dt>{t("withdrawals.approvedBy")}</dt>
                    <dd data-testid="admin-withdrawal-approved-by">
                      {approvedBy.length === 0
                        ? "--"
                        : approvedBy.map((id) => id ?? t("audit.bootstrap")).join(", ")}
                    </dd>
                    {withdrawal.txHash ? (
                      <>
                        <dt>{t("withdrawals.txHash")}</dt>
                        <dd className="admin-mono">{withdrawal.txHash}</dd>
                      </>
                    ) : null}
                    {withdrawal.rejectReason ? (
                      <>
                        <dt>{t("withdrawals.rejectReason")}</dt>
                        <dd>{withdrawal.rejectReason}</dd>
                      </>
                    ) : null}
                  </dl>
                  <div className="admin-actions">
                    {withdrawal.status === "pending" && mayApprove(withdrawal, me) ? (
                      <ActionForm
                        submitLabel={
                          withdrawal.approvals > 0
                            ? t("withdrawals.coApprove")
                            : t("withdrawals.approve")
                        }
                        testId="admin-withdrawal-approve"
                        run={(reason) => approveWithdrawalAction(withdrawal.withdrawalId, reason)}
                        onDone={refresh}
                      />
                    ) : null}
                    {withdrawal.status === "pending" && mine ? (
                      <p className="admin-hint" data-testid="admin-withdrawal-waiting">
                        {t("withdrawals.waitingSecond")}
                      </p>
                    ) : null}
                    {withdrawal.status === "approved" ? (
                      <SentForm withdrawalId={withdrawal.withdrawalId} onDone={refresh} />
                    ) : null}
                    {withdrawal.status === "sent" ? (
                      <ActionForm
                        submitLabel={t("withdrawals.complete")}
                        testId="admin-withdrawal-complete"
                        run={(reason) => completeWithdrawalAction(withdrawal.withdrawalId, reason)}
                        onDone={refresh}
                      />
                    ) : null}
                    {withdrawal.status === "pending" || withdrawal.status === "approved" ? (
                      <ActionForm
                        submitLabel={t("withdrawals.reject")}
                        testId="admin-withdrawal-reject"
                        danger
                        run={(reason) => rejectWithdrawalAction(withdrawal.withdrawalId, reason)}
                        onDone={refresh}
                      />
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </QueryView>
    </AdminPage>
  );
}
