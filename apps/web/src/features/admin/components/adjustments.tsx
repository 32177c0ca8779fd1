import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import {
  adminKeys,
  approveAdjustment,
  fetchAdjustments,
  rejectAdjustment,
} from "../api/admin-api.ts";
import { useOperatorSession } from "../lib/operator-session.ts";
import { ActionForm, QueryView, useAdminFormat, useAdminT } from "./admin-ui.tsx";

/**
 * Manual adjustments (operator deposits to a user above the two-person limit) waiting for a
 * second operator: a different operator than the one who asked approves or refuses.
 */
export function PendingAdjustments() {
  const t = useAdminT();
  const format = useAdminFormat();
  const me = useOperatorSession()?.operator.id;
  const queryClient = useQueryClient();
  const adjustments = useQuery({ queryKey: adminKeys.adjustments(), queryFn: fetchAdjustments });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <section data-testid="admin-adjustments">
      <h2>{t("adjustments.title")}</h2>
      <QueryView
        query={adjustments}
        isEmpty={(data) => data.items.length === 0}
        emptyText={t("adjustments.empty")}
      >
        {(data) => (
          <ul className="admin-cards">
            {data.items.map((item) => (
              <li key={item.adjustmentId} className="admin-card" data-testid="admin-adjustment">
                <dl className="admin-dl">
                  <dt>{t("audit.user")}</dt>
                  <dd>
                    <Link to={`/admin/users/${item.userId}`}>{item.userId}</Link>
                  </dd>
                  <dt>{t("common.amount")}</dt>
                  <dd className="admin-number">
                    {format.amount(item.amount)} {item.asset}
                  </dd>
                  <dt>{t("funding.reference")}</dt>
                  <dd>{item.reference}</dd>
                  <dt>{t("adjustments.requestedBy")}</dt>
                  <dd>{item.requestedBy}</dd>
                  <dt>{t("reason.label")}</dt>
                  <dd>{item.reason}</dd>
                  <dt>{t("common.time")}</dt>
                  <dd>{format.time(item.requestedAt)}</dd>
                </dl>
                {item.requestedBy === me ? (
                  <p className="admin-hint">{t("adjustments.yours")}</p>
                ) : (
                  <div className="admin-actions">
                    <ActionForm
                      submitLabel={t("adjustments.approve")}
                      testId="admin-adjustment-approve"
                      run={(reason) => approveAdjustment(item.adjustmentId, reason)}
                      onDone={refresh}
                    />
                    <ActionForm
                      submitLabel={t("adjustments.reject")}
                      testId="admin-adjustment-reject"
                      danger
                      run={(reason) => rejectAdjustment(item.adjustmentId, reason)}
                      onDone={refresh}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
