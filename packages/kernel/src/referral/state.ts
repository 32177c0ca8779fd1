// The referral slice of kernel state.

import type { FeeProduct } from "../funds/fee.ts";
import type { Mode } from "../types.ts";

export interface ReferralState {
  /** `mode|inviteeId` → inviterId. */
  inviters: Map<string, string>;
  /** `mode|product` → rebate share in basis points (absent: no rebate). */
  rebateBps: Map<string, number>;
  /** `mode|assetId` → fees paid by invited users since their link (the rebates' base). */
  feesOfInvited: Map<string, bigint>;
  /** `mode|assetId` → rebates paid. Never more than `feesOfInvited` of the same key. */
  rebatesPaid: Map<string, bigint>;
}

export function createReferralState(): ReferralState {
  return {
    inviters: new Map(),
    rebateBps: new Map(),
    feesOfInvited: new Map(),
    rebatesPaid: new Map(),
  };
}

export const feeProducts: readonly FeeProduct[] = ["spot", "perp", "stocks"];

export const BPS_MAX = 10_000;

export function inviterOf(
  state: { referral: ReferralState },
  mode: Mode,
  inviteeId: string,
): string | null {
  return state.referral.inviters.get(mode + "|" + inviteeId) ?? null;
}

/** The rebate shares in force in `mode`, in basis points per product (0: none). */
export function referralShares(
  state: { referral: ReferralState },
  mode: Mode,
): Record<FeeProduct, number> {
  const share = (product: FeeProduct) => state.referral.rebateBps.get(mode + "|" + product) ?? 0;
  return { spot: share("spot"), perp: share("perp"), stocks: share("stocks") };
}
