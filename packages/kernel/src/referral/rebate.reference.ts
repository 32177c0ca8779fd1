// The slow reference of invitations and rebates: links, shares and the rebate each fill's fees
// should pay, written plainly from the rules, for the property test to compare the kernel with.

import type { FillEvent } from "../spot/types.ts";
import type { Mode } from "../types.ts";

export interface RefRebate {
  mode: Mode;
  inviterId: string;
  inviteeId: string;
  assetId: string;
  fee: bigint;
  rebate: bigint;
}

export class ReferralReference {
  readonly inviters = new Map<string, string>();
  readonly shares = new Map<string, number>();
  constructor(private readonly opened: (mode: Mode, ownerId: string) => boolean) {}

  link(inviterId: string, inviteeId: string, mode: Mode): boolean {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(inviterId)) return false;
    if (!this.opened(mode, inviteeId)) return false;
    if (inviterId === inviteeId || this.inviters.has(mode + "|" + inviteeId)) return false;
    this.inviters.set(mode + "|" + inviteeId, inviterId);
    return true;
  }

  configure(product: string, bps: number, mode: Mode): boolean {
    if (!["spot", "perp", "stocks"].includes(product)) return false;
    if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) return false;
    this.shares.set(mode + "|" + product, bps);
    return true;
  }

  /** The rebates a spot fill should pay: one per fee whose payer has an open inviter. */
  rebatesOf(fill: FillEvent): RefRebate[] {
    const out: RefRebate[] = [];
    const bps = this.shares.get(fill.mode + "|spot") ?? 0;
    for (const [payer, fee, assetId] of [
      [fill.makerOwnerId, fill.feeMaker, fill.feeMakerAssetId],
      [fill.takerOwnerId, fill.feeTaker, fill.feeTakerAssetId],
    ] as const) {
      const inviterId = this.inviters.get(fill.mode + "|" + payer);
      if (inviterId === undefined || fee === 0n) continue;
      // Plain long division: the share of the fee, rounded down.
      let rebate = 0n;
      let rest = fee * BigInt(bps);
      while (rest >= 10_000n) {
        const chunk = rest / 10_000n;
        rebate += chunk;
        rest -= chunk * 10_000n;
      }
      if (rebate > 0n && this.opened(fill.mode, inviterId)) {
        out.push({ mode: fill.mode, inviterId, inviteeId: payer, assetId, fee, rebate });
      }
    }
    return out;
  }
}
