// VIP levels as a kernel module (type code 92 of the community programmes' 90–99).

import { assert } from "../assert.ts";
import { compareStrings } from "../ledger/accounts.ts";
import type { Json, KernelModule } from "../module.ts";
import { vipConfigure } from "./handlers.ts";
import { BPS_MAX, createVipState, VIP_LEVEL_MAX, VIP_WINDOW_DAYS, type VipState } from "./state.ts";

declare module "../state.ts" {
  interface KernelSlices {
    vip: VipState;
  }
}

function sortedEntries<V>(map: Map<string, V>): [string, V][] {
  return [...map.entries()].sort((a, b) => compareStrings(a[0], b[0]));
}

export const vipModule = {
  name: "vip",
  createState: createVipState,
  commands: {
    vip_configure: {
      typeCode: 92,
      fields: [
        ["mode", "mode"],
        ["level", "int"],
        ["assetId", "string"],
        ["minVolume", "bigint"],
        ["minBalance", "bigint"],
        ["feeDiscountBps", "int"],
        ["withdrawDailyLimit", "bigint"],
        ["remove", "bool"],
        ["operatorId", "string?"],
      ],
      result: [],
    },
  },
  handlers: { vip_configure: vipConfigure },
  snapshot: {
    write(state) {
      const v = state.vip;
      // Nothing configured: no field, so states without VIP hash as before.
      if (v.levels.size === 0 && v.volumes.size === 0 && v.withdrawn.size === 0) {
        return { vip: undefined };
      }
      return {
        vip: [
          sortedEntries(v.levels).map(([key, l]): Json => [
            key,
            l.level,
            l.assetId,
            l.minVolume.toString(),
            l.minBalance.toString(),
            l.feeDiscountBps,
            l.withdrawDailyLimit.toString(),
          ]),
          sortedEntries(v.volumes).map(([key, buckets]): Json => [
            key,
            buckets.map((b): Json => [b.day, b.amount.toString()]),
          ]),
          sortedEntries(v.withdrawn).map(([key, b]): Json => [key, b.day, b.amount.toString()]),
        ],
      };
    },
    read(state, json) {
      const section = json.vip as [Json[][], Json[][], Json[][]] | undefined;
      if (section === undefined) return;
      const v = state.vip;
      for (const [key, level, assetId, minVolume, minBalance, bps, limit] of section[0]) {
        v.levels.set(key as string, {
          level: level as number,
          assetId: assetId as string,
          minVolume: BigInt(minVolume as string),
          minBalance: BigInt(minBalance as string),
          feeDiscountBps: bps as number,
          withdrawDailyLimit: BigInt(limit as string),
        });
      }
      for (const [key, buckets] of section[1]) {
        v.volumes.set(
          key as string,
          (buckets as Json[][]).map(([day, amount]) => ({
            day: day as number,
            amount: BigInt(amount as string),
          })),
        );
      }
      for (const [key, day, amount] of section[2]) {
        v.withdrawn.set(key as string, { day: day as number, amount: BigInt(amount as string) });
      }
    },
  },
  onDemoReset(state, owner) {
    // A demo reset starts the demo owner's VIP progress again.
    if (owner.mode === "demo") {
      state.vip.volumes.delete("demo|" + owner.ownerId);
      state.vip.withdrawn.delete("demo|" + owner.ownerId);
    }
    return 0;
  },
  checkInvariants(state) {
    const v = state.vip;
    const assets = new Map<string, string>();
    for (const [key, l] of v.levels) {
      const mode = key.slice(0, key.indexOf("|"));
      assert(key === mode + "|" + l.level, "a VIP level under another key");
      assert(l.level >= 0 && l.level <= VIP_LEVEL_MAX, "a VIP level out of range");
      assert(l.feeDiscountBps >= 0 && l.feeDiscountBps <= BPS_MAX, "a VIP discount out of range");
      assert(l.minVolume >= 0n && l.minBalance >= 0n, "a negative VIP threshold");
      assert(l.withdrawDailyLimit >= 0n, "a negative VIP withdrawal limit");
      assert(
        (l.level === 0) === (l.minVolume === 0n && l.minBalance === 0n),
        "a VIP level's thresholds disagree with its number",
      );
      const asset = assets.get(mode);
      assert(asset === undefined || asset === l.assetId, "VIP levels of one mode in two assets");
      assets.set(mode, l.assetId);
    }
    for (const [key, buckets] of v.volumes) {
      assert(assets.has(key.slice(0, key.indexOf("|"))), "VIP volume kept in a mode without VIP");
      assert(buckets.length > 0 && buckets.length <= VIP_WINDOW_DAYS, "VIP buckets out of range");
      for (let i = 0; i < buckets.length; i++) {
        assert(buckets[i]!.amount > 0n, "an empty VIP volume bucket");
        if (i > 0) assert(buckets[i - 1]!.day < buckets[i]!.day, "VIP buckets out of order");
      }
      const last = buckets[buckets.length - 1]!.day;
      assert(buckets[0]!.day > last - VIP_WINDOW_DAYS, "a VIP bucket outside the window");
    }
    for (const [key, record] of v.withdrawn) {
      assert(assets.has(key.slice(0, key.indexOf("|"))), "VIP withdrawals kept without VIP");
      assert(record.amount > 0n, "an empty VIP withdrawal record");
    }
  },
} satisfies KernelModule;
