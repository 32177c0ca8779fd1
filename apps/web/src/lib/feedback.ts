import { Toast } from "antd-mobile";
import i18n from "i18next";
import { ApiError } from "./api-client.ts";
import { errorKey } from "./i18n-keys.ts";

/** The "Please wait..." indicator never stays longer than this (spec §9). */
export const loadingLimitMs = 30_000;
/** How long a message toast stays (spec §8: the request layer's 2 s). */
export const toastMs = 2_000;

/** Shows "Please wait..." while `work` runs, for at most 30 s, and hides it afterwards. */
export async function withLoading<T>(work: Promise<T>): Promise<T> {
  const handler = Toast.show({
    icon: "loading",
    content: i18n.t("common.loading"),
    duration: loadingLimitMs,
    maskClickable: false,
  });
  try {
    return await work;
  } finally {
    handler.close();
  }
}

/**
 * Shows a server message as a toast for 2 s: the server's text, else the text of its error
 * code, else the network message.
 */
export function showError(error: unknown) {
  const message =
    error instanceof ApiError
      ? error.message || i18n.t(errorKey(error.code))
      : i18n.t("errors.network");
  Toast.show({ content: message, duration: toastMs });
}

/** Shows "Operation successful" or another short confirmation. */
export function showSuccess(message = i18n.t("common.success")) {
  Toast.show({ icon: "success", content: message, duration: toastMs });
}

/**
 * Runs `work` under the loading mask and says how it went: `success` as a toast ("Operation
 * successful" unless given; `null` for none), or the error. True when the work succeeded.
 */
export async function runWithFeedback(
  work: () => Promise<unknown>,
  success: string | null = i18n.t("common.success"),
): Promise<boolean> {
  try {
    await withLoading(work());
    if (success !== null) showSuccess(success);
    return true;
  } catch (error) {
    showError(error);
    return false;
  }
}
