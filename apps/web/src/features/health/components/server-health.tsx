import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { fetchHealth, healthKeys } from "../api/health-api.ts";

export function ServerHealth() {
  const { t } = useTranslation();
  const health = useQuery({
    queryKey: healthKeys.all,
    queryFn: fetchHealth,
    refetchInterval: 10_000,
  });
  if (health.isPending) return <p role="status">{t("common.loading")}</p>;
  if (health.isError) return <p role="alert">{t("health.unreachable")}</p>;
  return (
    <section aria-label={t("health.title")} data-testid="health">
      <h2>{t("health.title")}</h2>
      <dl>
        <dt>{t("health.status")}</dt>
        <dd data-testid="health-status">{t("health.ok")}</dd>
        <dt>{t("health.version")}</dt>
        <dd>{health.data.version}</dd>
        <dt>{t("health.database")}</dt>
        <dd>{t(`health.databaseKind.${health.data.database}`)}</dd>
      </dl>
    </section>
  );
}
