// Invitations and rebates as a kernel module: the inviter of each invitee (per mode), the rebate
// share per product and mode, and the totals that show rebates never exceed the fees they come
// from. Type codes 90–99 are the community programmes' (referral 90–91).

import { assert } from "../assert.ts";
import { compareStrings } from "../ledger/accounts.ts";
import type { Json, KernelModule } from "../module.ts";
import { referralConfigure, referralLink } from "./handlers.ts";
import { BPS_MAX, createReferralState, feeProducts, type ReferralState } from "./state.ts";

declare module "../state.ts" {
  interface KernelSlices {
    referral: ReferralState;
  }
}

function sortedEntries<V>(map: Map<string, V>): [string, V][] {
  return [...map.entries()].sort((a, b) => compareStrings(a[0], b[0]));
}

export const referralModule = {
  name: "referral",
  createState: createReferralState,
  commands: {
    referral_link: {
      typeCode: 90,
      fields: [
        ["inviterId", "string"],
        ["inviteeId", "string"],
        ["mode", "mode"],
      ],
      result: [],
    },
    referral_configure: {
      typeCode: 91,
      fields: [
        ["mode", "mode"],
        ["product", "string"],
        ["rebateBps", "int"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
  },
  handlers: {
    referral_link: referralLink,
    referral_configure: referralConfigure,
  },
  snapshot: {
    write(state) {
      const r = state.referral;
      // Nothing linked or configured: no field, so states without referrals hash as before.
      if (r.inviters.size === 0 && r.rebateBps.size === 0 && r.feesOfInvited.size === 0) {
        return { referral: undefined };
      }
      const big = (map: Map<string, bigint>): Json =>
        sortedEntries(map).map(([key, value]): Json => [key, value.toString()]);
      return {
        referral: [
          sortedEntries(r.inviters).map(([key, value]): Json => [key, value]),
          sortedEntries(r.rebateBps).map(([key, value]): Json => [key, value]),
          big(r.feesOfInvited),
          big(r.rebatesPaid),
        ],
      };
    },
    read(state, json) {
      const section = json.referral as [Json[][], Json[][], Json[][], Json[][]] | undefined;
      if (section === undefined) return;
      const r = state.referral;
      for (const [key, value] of section[0]) r.inviters.set(key as string, value as string);
      for (const [key, value] of section[1]) r.rebateBps.set(key as string, value as number);
      for (const [key, value] of section[2])
        r.feesOfInvited.set(key as string, BigInt(value as string));
      for (const [key, value] of section[3])
        r.rebatesPaid.set(key as string, BigInt(value as string));
    },
  },
  checkInvariants(state) {
    const r = state.referral;
    for (const [key, inviterId] of r.inviters) {
      const inviteeId = key.slice(key.indexOf("|") + 1);
      assert(inviterId !== inviteeId, "a user invited itself");
    }
    for (const [key, bps] of r.rebateBps) {
      const product = key.slice(key.indexOf("|") + 1);
      assert((feeProducts as readonly string[]).includes(product), "a rebate of no product");
      assert(Number.isSafeInteger(bps) && bps > 0 && bps <= BPS_MAX, "a rebate share out of range");
    }
    // Rebates come out of fees just collected: never more than those fees, per mode and asset.
    for (const [key, paid] of r.rebatesPaid) {
      assert(paid > 0n, "a zero rebate total is kept");
      assert(paid <= (r.feesOfInvited.get(key) ?? 0n), "rebates exceed the fees they come from");
    }
  },
} satisfies KernelModule;
