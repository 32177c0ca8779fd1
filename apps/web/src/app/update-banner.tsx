import { useState } from "react";
import { useTranslation } from "react-i18next";
import { applyUpdate, useWaitingUpdate } from "../lib/pwa.ts";

/** "A new version is ready — Reload / Later", when a deploy has installed in the background. */
export function UpdateBanner() {
  const { t } = useTranslation();
  const waiting = useWaitingUpdate();
  const [dismissed, setDismissed] = useState<ServiceWorker | null>(null);
  if (waiting === null || waiting === dismissed) return null;
  return (
    <div className="update-banner" role="status" data-testid="update-banner">
      <span>{t("pwa.updateReady")}</span>
      <button type="button" onClick={() => applyUpdate(waiting)}>
        {t("pwa.reload")}
      </button>
      <button type="button" onClick={() => setDismissed(waiting)}>
        {t("pwa.later")}
      </button>
    </div>
  );
}
