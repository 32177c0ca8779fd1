// Collecting a trading fee into the mode's fee account: the one place products move fees, so
// that the referral rebate (issue 23) is paid out of the fee just collected and never from
// anywhere else: the rebate is a share (≤ 100 %) of this fee, posted from the same fee account
// in the same command. The agent rebate (agent/) follows it from the same fee and takes at most
// what the invitation rebate left, so the two together never exceed the fee.

import { accountOf, systemOwner } from "../ledger/accounts.ts";
import { post, type PostingRefs } from "../ledger/post.ts";
import type { Account } from "../ledger/state.ts";
import { payRebate } from "../referral/rebate.ts";
import { payAgentRebate } from "../agent/handlers.ts";
import type { PostingReason } from "../ledger/types.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";

/** The product a fee was paid on; the rebate configuration will be keyed by it. */
export type FeeProduct = "spot" | "perp" | "stocks";

export interface FeeInput {
  product: FeeProduct;
  mode: Mode;
  /** The payer's account the fee leaves (its available part unless `debitHeld`). */
  payer: Account;
  /** Smallest units; nothing is posted when zero. */
  amount: bigint;
  debitHeld?: boolean;
  reason: PostingReason;
  refs?: PostingRefs;
}

/** Posts `amount` from the payer to the fee account of the payer's asset. */
export function collectFee(state: KernelState, input: FeeInput): void {
  if (input.amount <= 0n) return;
  const fees = systemOwner(state, input.mode, systemOwners.fees);
  const feeAccount = accountOf(state, fees, "fund", input.payer.assetId);
  post(state, {
    debit: input.payer,
    credit: feeAccount,
    amount: input.amount,
    debitHeld: input.debitHeld,
    reason: input.reason,
    refs: input.refs,
  });
  const referral = payRebate(state, input.product, input.mode, input.payer.ownerId, feeAccount, input.amount, input.refs); // prettier-ignore
  payAgentRebate(state, input.product, input.mode, input.payer.ownerId, feeAccount, input.amount, referral, input.refs); // prettier-ignore
}

/**
 * A product that posts its fee itself (perp takes it from margin or cash in one step) calls this
 * right after, with the fee account it credited and the amount that was actually collected.
 */
export function rebateCollectedFee(
  state: KernelState,
  input: {
    product: FeeProduct;
    mode: Mode;
    payerId: string;
    feeAccount: Account;
    amount: bigint;
    refs?: PostingRefs;
  },
): void {
  const referral = payRebate(state, input.product, input.mode, input.payerId, input.feeAccount, input.amount, input.refs); // prettier-ignore
  payAgentRebate(state, input.product, input.mode, input.payerId, input.feeAccount, input.amount, referral, input.refs); // prettier-ignore
}
