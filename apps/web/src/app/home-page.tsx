import { useTranslation } from "react-i18next";
import { LanguagePicker } from "../features/health/language-picker.tsx";
import { ServerHealth } from "../features/health/server-health.tsx";

export function HomePage() {
  const { t } = useTranslation();
  return (
    <main className="page">
      <h1>{t("app.name")}</h1>
      <p>{t("app.tagline")}</p>
      <ServerHealth />
      <LanguagePicker />
    </main>
  );
}
