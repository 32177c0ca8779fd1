// The perpetuals product's slice of kernel state (`state.perp`): markets with one side per mode
// (book, mark, trigger index, premium samples), one account record per owner, market and mode,
// and open orders. Money never lives here: the records say how the ledger's contract-wallet
// balances are split (order holds, position margins, debts), and the invariants check that.

import type { OrderBook, SelfTradeMode } from "../book/types.ts";
import type { Account, OwnerState } from "../ledger/state.ts";
import type { Mode } from "../types.ts";
import type { PremiumSample } from "./funding.ts";
import type { PerpMarginMode } from "./kernel-types.ts";
import type { MarkPrice } from "./mark-price.ts";
import type { PerpMarket } from "./params.ts";
import type { Position } from "./position.ts";
import type { TriggerIndex } from "./trigger-index.ts";
import type { PerpConditional } from "./conditional.ts";

/** One owner's record in one perpetual market and mode. */
export interface PerpAccount {
  /** `mode|ownerId|marketId`; trigger ids are built from it. */
  key: string;
  owner: OwnerState;
  side: PerpSide;
  /** The owner's contract-wallet account in the quote asset. */
  wallet: Account;
  leverage: number;
  marginMode: PerpMarginMode;
  position: Position;
  /**
   * Held in `wallet`: isolated, the position's margin (PnL, fees and funding settle in it);
   * cross, the initial margin of the open lots (PnL settles in the available balance).
   */
  margin: bigint;
  /** Realised loss or funding the margin and wallet could not pay: owed to clearing. */
  debt: bigint;
  takeProfitTicks: bigint | null;
  stopLossTicks: bigint | null;
  /** Open order ids. */
  orders: Set<number>;
  /** Waiting conditional order ids (conditional.ts). */
  conditionals: Set<number>;
}

export interface PerpOrder {
  orderId: number;
  clientOrderId: string;
  account: PerpAccount;
  side: "buy" | "sell";
  orderType: "limit" | "market";
  timeInForce: "gtc" | "ioc" | "fok" | "post_only";
  priceTicks: number;
  quantityLots: number;
  filledLots: number;
  reduceOnly: boolean;
  /** Quote held in the owner's contract wallet for the opening lots. */
  heldAmount: bigint;
  createdAtMs: number;
  /** Self-trade prevention; absent means `cancel_resting`. */
  selfTradeMode?: SelfTradeMode;
}

/** One mode of one market. */
export interface PerpSide {
  market: PerpMarketState;
  mode: Mode;
  book: OrderBook;
  mark: MarkPrice | null;
  /** Liquidation prices (`L|key`) and take-profit / stop-loss (`T|key`, `S|key`). */
  triggers: TriggerIndex;
  accounts: Map<string, PerpAccount>;
  /**
   * Cross accounts with a position here and another cross position in a different market: their
   * liquidation price here moves with the other marks, so every tick of this market re-checks
   * them and their other positions (open question 6 of docs/perpetuals.md).
   */
  multiCross: Set<PerpAccount>;
  premiumSamples: PremiumSample[];
  fundingStartMs: number;
  /** Ledger accounts (contract wallet, quote asset) of the system owners it pays. */
  clearing: Account;
  fund: Account;
  fees: Account;
  remainder: Account;
}

export interface PerpMarketState {
  params: PerpMarket;
  /** The command that defined it, for snapshots (restored by replaying the definition). */
  definition: Record<string, string | number>;
  real: PerpSide;
  demo: PerpSide;
}

export interface PerpState {
  markets: Map<string, PerpMarketState>;
  orders: Map<number, PerpOrder>;
  orderIdNext: number;
  /** Waiting stop and take-profit orders (conditional.ts), by id. */
  conditionals: Map<number, PerpConditional>;
  conditionalIdNext: number;
  fillIdNext: number;
  /** The order being matched, for the book listener. */
  taker: PerpOrder | null;
  /** Taker fee override while a liquidation order matches (its fee goes to the fund). */
  liquidating: boolean;
}

export const CLEARING_OWNER = "system:perp_clearing";
export const FUNDING_REMAINDER_OWNER = "system:funding_remainder";

export function createPerpState(): PerpState {
  return {
    markets: new Map(),
    orders: new Map(),
    orderIdNext: 1,
    conditionals: new Map(),
    conditionalIdNext: 1,
    fillIdNext: 1,
    taker: null,
    liquidating: false,
  };
}

export function sideOf(market: PerpMarketState, mode: Mode): PerpSide {
  return mode === "real" ? market.real : market.demo;
}
