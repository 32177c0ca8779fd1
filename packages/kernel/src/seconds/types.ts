// Seconds contracts (up/down on the recorded tape): commands, views and events.
//
// A contract's result comes only from two ticks of the public tape: the open tick (the
// instrument's last tick recorded before the purchase) and the settlement tick (the first tick
// observed at or after expiry). The operator configures products (payout ratio, stake limits,
// exposure limit); no command sets a price or a result.

import type { CommandBase, Mode, NoValue } from "../types.ts";

/** Which way the user bets the price moves. */
export type SecondsDirection = "up" | "down";

/**
 * How a contract ended: the direction was right (`win`) or wrong (`loss`), the two prices were
 * equal (`tie`, stake refunded), or no tick arrived within the grace period (`no_tick`, stake
 * refunded).
 */
export type SecondsOutcome = "win" | "loss" | "tie" | "no_tick";

/**
 * Configures one product: an instrument of the tape and a period. Configuration only: it
 * applies to later purchases (each contract keeps the terms it was bought with), never to
 * open contracts. Both modes share products.
 */
export interface SecondsConfigureCommand extends CommandBase {
  type: "seconds_configure";
  /** Tape instrument, e.g. "BTC-USDT". */
  instrumentId: string;
  /** Contract length, ms, 5,000–3,600,000, whole seconds. */
  periodMs: number;
  /** Asset of stakes and payouts (e.g. "USDT"). */
  assetId: string;
  /** What a win pays on top of the stake, basis points of the stake, 1–20,000. */
  payoutBps: number;
  /** Stake bounds, smallest units, 0 < min ≤ max. */
  stakeMin: bigint;
  stakeMax: bigint;
  /** Most the house may have reserved for open contracts of this product and mode. */
  exposureMax: bigint;
  /** How long after expiry a settlement tick may arrive before the stake is refunded, ms. */
  graceMs: number;
  /** The open tick may be at most this old at purchase (command time − tick time), ms. */
  tickAgeMaxMs: number;
  /** False stops new purchases (open contracts still settle). */
  open: boolean;
  /** Operator who configured it. */
  operatorId: string | null;
}

/**
 * Buys a contract. The contract id is the command id. The stake moves from the user's fund
 * wallet into the house's escrow (`system:house` contract wallet); the most the contract can
 * pay (stake × payoutBps / 10,000, rounded down) is held in the house's fund wallet.
 */
export interface SecondsPurchaseCommand extends CommandBase {
  type: "seconds_purchase";
  ownerId: string;
  mode: Mode;
  instrumentId: string;
  periodMs: number;
  /** "up" or "down". */
  direction: string;
  /** Smallest units of the product's asset. */
  stake: bigint;
}

/** A product as configured. */
export interface SecondsProductView {
  productId: string;
  instrumentId: string;
  periodMs: number;
  assetId: string;
  payoutBps: number;
  stakeMin: bigint;
  stakeMax: bigint;
  exposureMax: bigint;
  graceMs: number;
  tickAgeMaxMs: number;
  open: boolean;
}

/** A contract, open or settled. */
export interface SecondsContractView {
  contractId: string;
  ownerId: string;
  mode: Mode;
  productId: string;
  instrumentId: string;
  periodMs: number;
  assetId: string;
  direction: SecondsDirection;
  stake: bigint;
  payoutBps: number;
  /** Reserved from the house at purchase: what a win pays on top of the stake. */
  payoutMax: bigint;
  boughtAtMs: number;
  expiresAtMs: number;
  /** Settles with no tick after this time (expiry + grace). */
  refundAtMs: number;
  openTickId: string;
  openPrice: string;
  openTickAtMs: number;
  status: "open" | "settled";
  settleTickId: string | null;
  settlePrice: string | null;
  settleTickAtMs: number | null;
  settledAtMs: number | null;
  outcome: SecondsOutcome | null;
  /** What the user got back at settlement (stake + payout, stake, or 0). */
  returned: bigint | null;
}

export interface SecondsConfiguredEvent {
  type: "seconds_configured";
  product: SecondsProductView;
  operatorId: string | null;
}

export interface SecondsPurchasedEvent {
  type: "seconds_purchased";
  contract: SecondsContractView;
}

export interface SecondsSettledEvent {
  type: "seconds_settled";
  contract: SecondsContractView;
}

declare module "../types.ts" {
  interface CommandMap {
    seconds_configure: SecondsConfigureCommand;
    seconds_purchase: SecondsPurchaseCommand;
  }
  interface ResultMap {
    seconds_configure: NoValue;
    seconds_purchase: NoValue;
  }
  interface EventMap {
    seconds_configured: SecondsConfiguredEvent;
    seconds_purchased: SecondsPurchasedEvent;
    seconds_settled: SecondsSettledEvent;
  }
}
