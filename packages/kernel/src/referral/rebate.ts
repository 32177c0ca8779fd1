// Paying a rebate out of a fee just collected. Called only by funds/fee.ts.

import { accountOf, ownerOf } from "../ledger/accounts.ts";
import { post, type PostingRefs } from "../ledger/post.ts";
import type { Account } from "../ledger/state.ts";
import { emit } from "../events.ts";
import type { FeeProduct } from "../funds/fee.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { BPS_MAX } from "./state.ts";

/** The rebate of one fee: floor(fee × bps / 10,000); at most the fee since bps ≤ 10,000. */
export function rebateOf(fee: bigint, bps: number): bigint {
  if (fee <= 0n || bps <= 0) return 0n;
  return (fee * BigInt(bps)) / BigInt(BPS_MAX);
}

/**
 * `fee` was just posted from `payerId`'s account to `feeAccount`: if the payer was invited in
 * this mode, pays the configured share of that fee from `feeAccount` to the inviter's fund
 * account of the same asset. Nothing happens without a link, a share, or an open inviter.
 * Returns the rebate paid (the agent rebate, agent/handlers.ts, takes at most the rest).
 */
export function payRebate(
  state: KernelState,
  product: FeeProduct,
  mode: Mode,
  payerId: string,
  feeAccount: Account,
  fee: bigint,
  refs: PostingRefs | undefined,
): bigint {
  const referral = state.referral;
  if (referral.inviters.size === 0 || fee <= 0n) return 0n;
  const inviterId = referral.inviters.get(mode + "|" + payerId);
  if (inviterId === undefined) return 0n;
  const assetKey = mode + "|" + feeAccount.assetId;
  referral.feesOfInvited.set(assetKey, (referral.feesOfInvited.get(assetKey) ?? 0n) + fee);
  const rebate = rebateOf(fee, referral.rebateBps.get(mode + "|" + product) ?? 0);
  if (rebate === 0n) return 0n;
  const inviter = ownerOf(state, mode, inviterId);
  if (inviter === undefined) return 0n;
  const postingSeq = post(state, {
    debit: feeAccount,
    credit: accountOf(state, inviter, "fund", feeAccount.assetId),
    amount: rebate,
    reason: "referral_rebate",
    refs: {
      orderId: refs?.orderId,
      fillId: refs?.fillId,
      tickId: refs?.tickId,
      reference: payerId,
    },
  });
  referral.rebatesPaid.set(assetKey, (referral.rebatesPaid.get(assetKey) ?? 0n) + rebate);
  emit(state, {
    type: "referral_rebate",
    mode,
    product,
    inviterId,
    inviteeId: payerId,
    assetId: feeAccount.assetId,
    fee,
    rebate,
    postingSeq,
    atMs: state.nowMs,
  });
  return rebate;
}
