import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useParams } from "react-router";
import {
  adminKeys,
  fetchUserDetail,
  freezeUser,
  searchUsers,
  unfreezeUser,
} from "../api/admin-api.ts";
import { ActionForm, AdminPage, Field, QueryView, useAdminFormat, useAdminT } from "./admin-ui.tsx";
import { AuditTable } from "./audit-page.tsx";

/** Users: search by id, e-mail, phone, wallet address or nickname. */
export function UsersPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const users = useQuery({ queryKey: adminKeys.users(q), queryFn: () => searchUsers(q) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQ(text.trim());
  };
  return (
    <AdminPage title={t("users.title")} testId="admin-users">
      <form className="admin-inline-form" role="search" onSubmit={submit}>
        <Field
          label={t("users.search")}
          type="search"
          value={text}
          onChange={setText}
          testId="admin-user-search"
        />
        <button type="submit" className="admin-button">
          {t("common.search")}
        </button>
      </form>
      <QueryView
        query={users}
        isEmpty={(data) => data.users.length === 0}
        emptyText={t("users.empty")}
      >
        {(data) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t("users.id")}</th>
                <th scope="col">{t("users.username")}</th>
                <th scope="col">{t("users.nickname")}</th>
                <th scope="col">{t("users.country")}</th>
                <th scope="col">{t("users.identity")}</th>
                <th scope="col">{t("users.status")}</th>
                <th scope="col">{t("users.createdAt")}</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((user) => (
                <tr key={user.id} data-testid="admin-user-row">
                  <td>
                    <Link to={`/admin/users/${user.id}`}>{user.id}</Link>
                  </td>
                  <td>{user.username}</td>
                  <td>{user.nickname ?? "--"}</td>
                  <td>{user.country ?? "--"}</td>
                  <td>{t(`identityStates.${identityState(user.identityState)}`)}</td>
                  <td>{user.frozen ? t("users.frozen") : t("users.active")}</td>
                  <td>{format.time(user.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
    </AdminPage>
  );
}

const identityStates = ["unverified", "under_review", "passed", "not_approved"] as const;
function identityState(value: string): (typeof identityStates)[number] {
  return (identityStates as readonly string[]).includes(value)
    ? (value as (typeof identityStates)[number])
    : "unverified";
}

/** One user: profile, balances, statement with operator ids, sessions, audit; freeze. */
export function UserDetailPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const { userId = "" } = useParams();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: adminKeys.user(userId),
    queryFn: () => fetchUserDetail(userId),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage title={t("users.detailTitle", { id: userId })} testId="admin-user-detail">
      <QueryView query={detail}>
        {({ user, balances, statement, sessions, audit }) => (
          <>
            <dl className="admin-dl">
              <dt>{t("users.username")}</dt>
              <dd>{user.username}</dd>
              <dt>{t("users.kind")}</dt>
              <dd>{t(`userKinds.${user.kind}`)}</dd>
              <dt>{t("users.nickname")}</dt>
              <dd>{user.nickname ?? "--"}</dd>
              <dt>{t("users.country")}</dt>
              <dd>{user.country ?? "--"}</dd>
              <dt>{t("users.identity")}</dt>
              <dd>{t(`identityStates.${identityState(user.identityState)}`)}</dd>
              <dt>{t("users.status")}</dt>
              <dd data-testid="admin-user-status">
                {user.frozen ? t("users.frozen") : t("users.active")}
              </dd>
              <dt>{t("users.createdAt")}</dt>
              <dd>{format.time(user.createdAt)}</dd>
            </dl>
            {user.frozen ? (
              <ActionForm
                submitLabel={t("users.unfreeze")}
                testId="admin-unfreeze"
                run={(reason) => unfreezeUser(user.id, reason)}
                onDone={refresh}
              />
            ) : (
              <ActionForm
                submitLabel={t("users.freeze")}
                testId="admin-freeze"
                danger
                run={(reason) => freezeUser(user.id, reason)}
                onDone={refresh}
              />
            )}
            <h2>{t("users.balances")}</h2>
            {balances.length === 0 ? (
              <p className="admin-state">{t("common.empty")}</p>
            ) : (
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t("users.account")}</th>
                    <th scope="col">{t("common.asset")}</th>
                    <th scope="col">{t("common.available")}</th>
                    <th scope="col">{t("common.held")}</th>
                  </tr>
                </thead>
                <tbody>
                  {balances.map((row) => (
                    <tr key={`${row.account}:${row.asset}`}>
                      <td>{row.account}</td>
                      <td>{row.asset}</td>
                      <td className="admin-number">{format.amount(row.available)}</td>
                      <td className="admin-number">{format.amount(row.held)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h2>{t("users.statement")}</h2>
            {statement.length === 0 ? (
              <p className="admin-state">{t("common.empty")}</p>
            ) : (
              <table className="admin-table" data-testid="admin-user-statement">
                <thead>
                  <tr>
                    <th scope="col">{t("users.seq")}</th>
                    <th scope="col">{t("common.time")}</th>
                    <th scope="col">{t("users.entry")}</th>
                    <th scope="col">{t("common.asset")}</th>
                    <th scope="col">{t("common.amount")}</th>
                    <th scope="col">{t("common.operator")}</th>
                  </tr>
                </thead>
                <tbody>
                  {statement.map((line) => (
                    <tr key={`${line.seq}:${line.asset}:${line.amount}`}>
                      <td>{line.seq}</td>
                      <td>{format.time(line.at)}</td>
                      <td>{line.reason}</td>
                      <td>{line.asset}</td>
                      <td className="admin-number">{format.amount(line.amount)}</td>
                      <td>{line.operatorId ?? "--"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h2>{t("users.sessions")}</h2>
            {sessions.length === 0 ? (
              <p className="admin-state">{t("common.empty")}</p>
            ) : (
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t("users.device")}</th>
                    <th scope="col">{t("users.lastUsed")}</th>
                    <th scope="col">{t("users.createdAt")}</th>
                  </tr>
                </thead>
                <tbody>
                  {sessions.map((session) => (
                    <tr key={`${session.device}:${session.createdAt}`}>
                      <td>{session.device}</td>
                      <td>{format.time(session.lastUsedAt)}</td>
                      <td>{format.time(session.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h2>{t("users.audit")}</h2>
            <AuditTable entries={audit} />
          </>
        )}
      </QueryView>
    </AdminPage>
  );
}
