// VIP levels (issue 23): levels by 30-day traded volume and/or balance in one asset per mode,
// each with a trading-fee discount and a daily withdrawal limit, from configuration entered by
// `vip_configure`. The kernel keeps each owner's rolling 30-day volume and applies the level's
// discount to a fee before it is collected, so a discount only ever lowers a fee.

import type { CommandBase, Mode, NoValue } from "../types.ts";

/**
 * Sets (or, with `remove`, deletes) one VIP level of one mode. Level 0 is the base level every
 * owner has (its thresholds must be 0); level n ≥ 1 is reached with 30-day volume ≥ `minVolume`
 * or balance ≥ `minBalance` (a threshold of 0 is not used; at least one is set). Every level of
 * a mode measures volume and balance in the same asset.
 */
export interface VipConfigureCommand extends CommandBase {
  type: "vip_configure";
  mode: Mode;
  level: number;
  assetId: string;
  /** 30-day traded volume in the asset's smallest units (0: not a condition). */
  minVolume: bigint;
  /** Fund-wallet balance (available + held) in the asset's smallest units (0: not a condition). */
  minBalance: bigint;
  /** Discount on trading fees, 0–10,000 basis points of the fee. */
  feeDiscountBps: number;
  /** Most that may be withdrawn of the asset per UTC day (0: no limit from VIP). */
  withdrawDailyLimit: bigint;
  remove: boolean;
  operatorId: string | null;
}

export interface VipConfiguredEvent {
  type: "vip_configured";
  mode: Mode;
  level: number;
  assetId: string;
  minVolume: bigint;
  minBalance: bigint;
  feeDiscountBps: number;
  withdrawDailyLimit: bigint;
  removed: boolean;
  operatorId: string | null;
}

declare module "../types.ts" {
  interface CommandMap {
    vip_configure: VipConfigureCommand;
  }
  interface ResultMap {
    vip_configure: NoValue;
  }
  interface EventMap {
    vip_configured: VipConfiguredEvent;
  }
}
