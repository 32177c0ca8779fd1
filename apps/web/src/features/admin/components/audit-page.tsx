import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { adminKeys, fetchAuditLog } from "../api/admin-api.ts";
import { AdminPage, Field, QueryView, useAdminFormat, useAdminT } from "./admin-ui.tsx";

interface AuditRow {
  id: string;
  operatorId: string | null;
  action: string;
  reason: string;
  userId: string | null;
  detail: string;
  at: string;
}

/** Audit entries as a table; the bootstrap token shows as such. */
export function AuditTable({ entries }: { entries: readonly AuditRow[] }) {
  const t = useAdminT();
  const format = useAdminFormat();
  if (entries.length === 0) {
    return (
      <p className="admin-state" role="status">
        {t("audit.empty")}
      </p>
    );
  }
  return (
    <table className="admin-table" data-testid="admin-audit-table">
      <thead>
        <tr>
          <th scope="col">{t("common.time")}</th>
          <th scope="col">{t("common.operator")}</th>
          <th scope="col">{t("audit.action")}</th>
          <th scope="col">{t("audit.user")}</th>
          <th scope="col">{t("reason.label")}</th>
          <th scope="col">{t("audit.detail")}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id} data-testid="admin-audit-row">
            <td>{format.time(entry.at)}</td>
            <td>
              {entry.operatorId ??
                // A user's own action (identity documents deleted) names no operator.
                (entry.action.includes(" /api/v1/me/") ? t("audit.byUser") : t("audit.bootstrap"))}
            </td>
            <td className="admin-mono">{entry.action}</td>
            <td>
              {entry.userId ? (
                <Link to={`/admin/users/${entry.userId}`}>{entry.userId}</Link>
              ) : (
                "--"
              )}
            </td>
            <td>{entry.reason}</td>
            <td className="admin-mono">{entry.detail}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The audit log, newest first, filtered by user and operator. */
export function AuditPage() {
  const t = useAdminT();
  const [userId, setUserId] = useState("");
  const [operatorId, setOperatorId] = useState("");
  const [filters, setFilters] = useState<{ userId?: string; operatorId?: string }>({});
  const [invalid, setInvalid] = useState(false);
  const log = useQuery({
    queryKey: adminKeys.audit(filters),
    queryFn: () => fetchAuditLog({ ...filters, limit: 200 }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = /^\d{0,18}$/;
    if (!id.test(userId.trim()) || !id.test(operatorId.trim())) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setFilters({
      ...(userId.trim() ? { userId: userId.trim() } : {}),
      ...(operatorId.trim() ? { operatorId: operatorId.trim() } : {}),
    });
  };
  return (
    <AdminPage title={t("audit.title")} testId="admin-audit">
      <form className="admin-inline-form" onSubmit={submit}>
        <Field
          label={t("audit.user")}
          value={userId}
          onChange={setUserId}
          inputMode="numeric"
          testId="admin-audit-user"
        />
        <Field
          label={t("common.operator")}
          value={operatorId}
          onChange={setOperatorId}
          inputMode="numeric"
          testId="admin-audit-operator"
        />
        <button type="submit" className="admin-button">
          {t("audit.filter")}
        </button>
      </form>
      {invalid ? (
        <p className="admin-error" role="alert">
          {t("audit.idInvalid")}
        </p>
      ) : null}
      <QueryView query={log}>{(data) => <AuditTable entries={data.entries} />}</QueryView>
    </AdminPage>
  );
}
