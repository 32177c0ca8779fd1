import { parseDecimal } from "@candor/decimal";

/** An operator's reason (contract: OperatorReason): 3 to 500 characters once trimmed. */
export const reasonLengthMin = 3;
export const reasonLengthMax = 500;

/** True when `text` is a reason the server accepts. */
export function isReason(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length >= reasonLengthMin && trimmed.length <= reasonLengthMax;
}

/** A banner's link: an app route (#/…) or an https address, or empty (contract: BannerLink). */
export function isBannerLink(text: string): boolean {
  const link = text.trim();
  return link === "" || /^(#\/[A-Za-z0-9/_?=&.-]*|https:\/\/[^\s<>"]+)$/.test(link);
}

/** A withdrawal's transaction hash: 0x and 64 hex digits. */
export function isTxHash(text: string): boolean {
  return /^0x[0-9a-fA-F]{64}$/.test(text.trim());
}

/**
 * True when `text` is a positive decimal amount of at most `decimalsMax` decimals, read by the
 * decimal codec (never a float): "12.5" yes, "0", "-1", "1e3" and "1.5.0" no.
 */
export function isPositiveAmount(text: string, decimalsMax = 18): boolean {
  const parsed = parseDecimal(text.trim(), decimalsMax, { extraZeros: "accept" });
  return parsed.ok && parsed.value > 0n;
}

/** As `isPositiveAmount`, with zero allowed (a fee of 0, a daily transfer limit of 0). */
export function isAmountOrZero(text: string, decimalsMax = 18): boolean {
  const parsed = parseDecimal(text.trim(), decimalsMax, { extraZeros: "accept" });
  return parsed.ok && parsed.value >= 0n;
}

/** A whole number within [min, max] typed by the operator, or null. */
export function readInteger(text: string, min: number, max: number): number | null {
  const trimmed = text.trim();
  if (!/^-?\d{1,9}$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= min && value <= max ? value : null;
}

/** Who approved a withdrawal so far: the operator ids of its `approved` steps, in order. */
export function approvalOperatorIds(
  steps: readonly { status: string; operatorId: string | null }[],
): (string | null)[] {
  return steps.filter((step) => step.status === "approved").map((step) => step.operatorId);
}

/**
 * Whether `operatorId` may approve a pending withdrawal now: not when they already gave one of
 * its approvals (the second must be a different operator; the server enforces it too).
 */
export function mayApprove(
  withdrawal: {
    status: string;
    approvals: number;
    approvalsRequired: number;
    steps: readonly { status: string; operatorId: string | null }[];
  },
  operatorId: string,
): boolean {
  if (withdrawal.status !== "pending") return false;
  if (withdrawal.approvals >= withdrawal.approvalsRequired) return false;
  return !approvalOperatorIds(withdrawal.steps).includes(operatorId);
}
