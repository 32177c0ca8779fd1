import i18n from "i18next";
import { AdminApp } from "../../features/admin/components/admin-app.tsx";
import { loadAdminTexts } from "../../features/admin/lib/admin-i18n.ts";

// The back office's texts load with its chunk, before it first shows.
await loadAdminTexts(i18n.language);

/** `#/admin/*`: the back office (issue 17), its own chunk, outside the mobile shell. */
export function Component() {
  return <AdminApp />;
}
