import type { SpotConditionalOrderView } from "@candor/contract";
import { knownErrorKey } from "../../../lib/i18n-keys.ts";
import type { ErrorTextCode } from "../../../lib/i18n-resources.ts";

/** The cancel reasons a conditional order can end with (the kernel's `CancelReason` subset). */
const cancelReasons = ["user", "cancel_all", "oco", "demo_reset"] as const;
type ConditionalCancelReason = (typeof cancelReasons)[number];

function isCancelReason(reason: string): reason is ConditionalCancelReason {
  return (cancelReasons as readonly string[]).includes(reason);
}

export type ReasonText =
  | { key: `errors.${ErrorTextCode}` | `coinCoin.order.cancelReason.${ConditionalCancelReason}` }
  | { code: string };

/**
 * Why a finished conditional order ended, in words: the refusal of the order it placed (its
 * error text) or who cancelled it. `code` is the refusal code when it has no text, so the card
 * shows the code rather than nothing; null when there is nothing to say.
 */
export function conditionalReason(
  order: Pick<SpotConditionalOrderView, "status" | "reason" | "rejectCode">,
  exists?: (key: string) => boolean,
): ReasonText | null {
  if (order.status === "rejected" && order.rejectCode) {
    const key = knownErrorKey(order.rejectCode, exists);
    return key === null ? { code: order.rejectCode } : { key };
  }
  if (order.status === "cancelled" && order.reason !== null && isCancelReason(order.reason)) {
    return { key: `coinCoin.order.cancelReason.${order.reason}` };
  }
  return null;
}
