import type { Messages } from "@candor/contract";
import type adminEn from "../locales/admin/en.json";
import type en from "../locales/en.json";

/**
 * The texts the web app loads (`i18n.ts`): its own, with the API's error texts merged under
 * `errors`. English is the source of the keys; the locale test keeps the other eleven complete.
 */
export type WebResources = Omit<typeof en, "errors"> & {
  errors: (typeof en)["errors"] & Messages["errors"];
};

/** An error code that has a text under `errors` (the API's codes and the web's own). */
export type ErrorTextCode = keyof WebResources["errors"];

// Typed keys: `t("wrong.key")` does not compile, with or without a default value. Dynamic keys
// are built from typed parts (`nav.${tab.key}`), or through a helper such as `errorKey`.
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    // The back office's texts are their own namespace, loaded with its chunk (features/admin).
    resources: { translation: WebResources; admin: typeof adminEn };
    strictKeyChecks: true;
  }
}
