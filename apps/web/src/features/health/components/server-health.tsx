import { useQuery } from "@tanstack/react-query";
import { List } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { fetchHealth, healthKeys } from "../api/health-api.ts";

/** The "About" section of settings: the server's state, version and database, as a list. */
export function ServerHealth() {
  const { t } = useTranslation();
  const health = useQuery({
    queryKey: healthKeys.all,
    queryFn: fetchHealth,
    refetchInterval: 10_000,
  });
  return (
    <section aria-label={t("health.title")} data-testid="health" className="about">
      <List header={t("health.about")}>
        {health.isPending ? <List.Item>{t("common.loading")}</List.Item> : null}
        {health.isError ? (
          <List.Item>
            <span role="alert">{t("health.unreachable")}</span>
          </List.Item>
        ) : null}
        {health.isSuccess ? (
          <>
            <List.Item extra={<span data-testid="health-status">{t("health.ok")}</span>}>
              {t("health.status")}
            </List.Item>
            <List.Item extra={health.data.version}>{t("health.version")}</List.Item>
            <List.Item extra={t(`health.databaseKind.${health.data.database}`)}>
              {t("health.database")}
            </List.Item>
          </>
        ) : null}
      </List>
    </section>
  );
}
