import { List } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useAccountHistory } from "../api/residence-api.ts";
import { accountHistoryActionOf } from "../lib/account-history.ts";

/**
 * What operators did to the user's own account (issue 17): every audited operator action that
 * touched them (freezes, identity decisions, credited deposits, withdrawal approvals, loan
 * decisions), with the reason the operator gave, the operator's id and the time. Money moves
 * also appear in the statement, with the same operator ids.
 */
export function AccountHistoryPage() {
  const { t, i18n } = useTranslation();
  const history = useAccountHistory();
  return (
    <section className="page" aria-labelledby="account-history-title">
      <h1 id="account-history-title">{t("accountHistory.title")}</h1>
      <p className="hint">{t("accountHistory.intro")}</p>
      {history.isPending ? (
        <LoadingState />
      ) : history.isError ? (
        <ErrorState message={history.error.message} onRetry={() => void history.refetch()} />
      ) : history.data.entries.length === 0 ? (
        <EmptyState text={t("accountHistory.empty")} />
      ) : (
        <List data-testid="account-history">
          {history.data.entries.map((entry) => {
            const action = accountHistoryActionOf(entry.action);
            const when = `${new Date(entry.at).toLocaleString(i18n.language, { timeZone: "UTC" })} UTC`;
            const who =
              entry.operatorId === null
                ? t("accountHistory.bootstrap")
                : t("accountHistory.operator", { id: entry.operatorId });
            return (
              <List.Item
                key={entry.id}
                description={`${when} · ${who} · ${t("accountHistory.reason", { reason: entry.reason })}`}
              >
                {action === null
                  ? t("accountHistory.other", { action: entry.action })
                  : t(`accountHistory.actions.${action}`)}
              </List.Item>
            );
          })}
        </List>
      )}
    </section>
  );
}
