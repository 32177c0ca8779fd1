// Invitations and rebates: who invited whom (per mode), the rebate share per product, and the
// rebates paid. A rebate is a share of a fee the invited user just paid, moved out of the
// mode's fee account in the same command (see funds/fee.ts), so it can never exceed the fee.

import type { FeeProduct } from "../funds/fee.ts";
import type { CommandBase, Mode, NoValue } from "../types.ts";

/** Records that `inviteeId` was invited by `inviterId` in `mode`; once per invitee and mode. */
export interface ReferralLinkCommand extends CommandBase {
  type: "referral_link";
  inviterId: string;
  inviteeId: string;
  mode: Mode;
}

/** Sets the rebate share of one product's fees in one mode, 0–10,000 basis points. */
export interface ReferralConfigureCommand extends CommandBase {
  type: "referral_configure";
  mode: Mode;
  /** `spot`, `perp` or `stocks`. */
  product: string;
  rebateBps: number;
  operatorId: string | null;
}

export interface ReferralLinkedEvent {
  type: "referral_linked";
  mode: Mode;
  inviterId: string;
  inviteeId: string;
}

export interface ReferralConfiguredEvent {
  type: "referral_configured";
  mode: Mode;
  product: FeeProduct;
  rebateBps: number;
  operatorId: string | null;
}

/** A rebate paid: `rebate` of the `fee` the invitee just paid went to the inviter. */
export interface ReferralRebateEvent {
  type: "referral_rebate";
  mode: Mode;
  product: FeeProduct;
  inviterId: string;
  inviteeId: string;
  assetId: string;
  fee: bigint;
  rebate: bigint;
  postingSeq: number;
  atMs: number;
}

declare module "../types.ts" {
  interface CommandMap {
    referral_link: ReferralLinkCommand;
    referral_configure: ReferralConfigureCommand;
  }
  interface ResultMap {
    referral_link: NoValue;
    referral_configure: NoValue;
  }
  interface EventMap {
    referral_linked: ReferralLinkedEvent;
    referral_configured: ReferralConfiguredEvent;
    referral_rebate: ReferralRebateEvent;
  }
}
