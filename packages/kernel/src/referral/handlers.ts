// The referral commands: linking an invitee to its inviter, and configuring the rebate shares.

import { findOwner, validOwnerId } from "../ledger/accounts.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import { emit } from "../events.ts";
import type { FeeProduct } from "../funds/fee.ts";
import { BPS_MAX, feeProducts } from "./state.ts";

export const referralLink: Handler<"referral_link"> = (state, command) => {
  if (!validOwnerId(command.inviterId)) return fail("owner_id_invalid");
  const invitee = findOwner(state, command.inviteeId, command.mode);
  if (typeof invitee === "string") return fail(invitee);
  if (invitee.system) return fail("owner_not_allowed");
  if (command.inviterId === command.inviteeId) return fail("referral_self");
  const key = command.mode + "|" + command.inviteeId;
  if (state.referral.inviters.has(key)) return fail("referral_exists");
  state.referral.inviters.set(key, command.inviterId);
  emit(state, {
    type: "referral_linked",
    mode: command.mode,
    inviterId: command.inviterId,
    inviteeId: command.inviteeId,
  });
  return DONE;
};

export const referralConfigure: Handler<"referral_configure"> = (state, command) => {
  if (!(feeProducts as readonly string[]).includes(command.product)) {
    return fail("referral_product_invalid");
  }
  const bps = command.rebateBps;
  if (!Number.isSafeInteger(bps) || bps < 0 || bps > BPS_MAX)
    return fail("referral_rebate_invalid");
  const key = command.mode + "|" + command.product;
  if (bps === 0) state.referral.rebateBps.delete(key);
  else state.referral.rebateBps.set(key, bps);
  emit(state, {
    type: "referral_configured",
    mode: command.mode,
    product: command.product as FeeProduct,
    rebateBps: bps,
    operatorId: command.operatorId,
  });
  return DONE;
};
