// Collecting a trading fee into the mode's fee account: the one place products move fees, so
// that a later rebate (issue 23, docs/community-plan.md) can be paid out of the fee just
// collected and never from anywhere else.

import { accountOf, systemOwner } from "../ledger/accounts.ts";
import { post, type PostingRefs } from "../ledger/post.ts";
import type { Account } from "../ledger/state.ts";
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
  post(state, {
    debit: input.payer,
    credit: accountOf(state, fees, "fund", input.payer.assetId),
    amount: input.amount,
    debitHeld: input.debitHeld,
    reason: input.reason,
    refs: input.refs,
  });
}
