// The kernel's internal state. Only the kernel's own modules touch these records; everyone
// else reads through the queries in `queries.ts`.

import type { IdIndex } from "./id-index.ts";
import type { BookListener, OrderBook, OrderBookFactory } from "./book/types.ts";
import type {
  Command,
  CommandResult,
  Event,
  KernelOptions,
  Mode,
  OrderStatus,
  OrderType,
  Posting,
  Side,
  TimeInForce,
  Tick,
  Wallet,
} from "./types.ts";

export interface AssetState {
  assetId: string;
  scale: number;
  amountMax: bigint | null;
}

export interface Account {
  key: string;
  ownerId: string;
  mode: Mode;
  wallet: Wallet;
  assetId: string;
  available: bigint;
  held: bigint;
  /** Only `system:external` and `system:demo_faucet` may go below zero. */
  negativeAllowed: boolean;
  /**
   * The latest postings touching this account, oldest first: at least
   * `KernelOptions.statementPostingsMax` of them (fewer only if there were fewer). The full
   * history is in the event stream (and the server's read model).
   */
  postings: Posting[];
  /** Serial of the last command that touched it, to list each account once per command. */
  touchedSerial: number;
  /** Scratch for `checkInvariants`: the holds it expects. */
  heldExpected: bigint;
}

export interface OwnerState {
  /** `mode|ownerId`. */
  key: string;
  ownerId: string;
  mode: Mode;
  /** Small integer identity used inside books for self-trade prevention. */
  index: number;
  system: boolean;
  openOrdersMax: number;
  /** Open order ids. */
  orderIds: Set<number>;
  /** Accounts by `wallet|assetId`. */
  accounts: Map<string, Account>;
  /** The fund wallet's accounts by asset id (the trading path; no key strings built). */
  fund: Map<string, Account>;
}

export interface MarketState {
  marketId: string;
  base: AssetState;
  quote: AssetState;
  instrumentId: string;
  priceStep: string;
  lotSize: string;
  priceStepScaled: bigint;
  lotUnits: bigint;
  tickLotUnits: bigint;
  /** The same as doubles for the exact fast path, or +Infinity when too large. */
  lotUnitsNumber: number;
  tickLotUnitsNumber: number;
  quantityLotsMin: number;
  quantityLotsMax: number;
  feeBpsMaker: number;
  feeBpsTaker: number;
  priceBandBps: number;
  levelsPerSideMax: number;
  ordersPerBookMax: number;
  open: boolean;
  bookReal: OrderBook;
  bookDemo: OrderBook;
  /** Band edges from the last tick; 0 when no tick has been recorded yet. */
  bandBuyMaxTicks: number;
  bandSellMinTicks: number;
  /** Latest tick id of the instrument, or null. */
  tickId: string | null;
}

export interface OrderState {
  orderId: number;
  clientOrderId: string;
  owner: OwnerState;
  market: MarketState;
  book: OrderBook;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  priceTicks: number;
  quantityLots: number;
  quoteAmount: bigint | null;
  filledLots: number;
  heldAmount: bigint;
  /** Quote account for buys, base account for sells. */
  holdAccount: Account;
  baseAccount: Account;
  quoteAccount: Account;
  status: OrderStatus;
  createdAtMs: number;
}

export interface WithdrawalState {
  withdrawalId: string;
  account: Account;
  amount: bigint;
  status: "pending" | "completed" | "cancelled";
  reference: string | null;
}

export interface KernelState {
  options: KernelOptions;
  bookFactory: OrderBookFactory;
  nowMs: number;
  assets: Map<string, AssetState>;
  markets: Map<string, MarketState>;
  /** Markets anchored to each instrument of the tape. */
  marketsByInstrument: Map<string, MarketState[]>;
  ticks: Map<string, Tick>;
  /** Every owner by `mode|ownerId` (for snapshots), and by id per mode (for lookups). */
  owners: Map<string, OwnerState>;
  ownersReal: Map<string, OwnerState>;
  ownersDemo: Map<string, OwnerState>;
  ownerIndexNext: number;
  accounts: Map<string, Account>;
  orders: Map<number, OrderState>;
  orderIdNext: number;
  fillIdNext: number;
  withdrawals: Map<string, WithdrawalState>;
  /** Sequence number of the last posting. */
  postingSeqLast: number;
  /**
   * Remembered command ids → their position in arrival (and so time) order. Position `p` lives
   * at index `p - idBase` of `idCommands`/`idResults`; positions before `idHead` are pruned.
   */
  idPositions: IdIndex;
  idCommands: (Command | undefined)[];
  idResults: (CommandResult | undefined)[];
  idBase: number;
  idHead: number;
  // Per-command scratch, reset by `apply`.
  commandSerial: number;
  events: Event[];
  touched: Account[];
  command: Command | null;
  /** The order being matched, for the shared book listener. */
  taker: OrderState | null;
  listener: BookListener;
}

export const defaultKernelOptions: KernelOptions = {
  openOrdersPerOwnerMax: 200,
  openOrdersMarketMakerMax: 100_000,
  levelsPerSideMax: 1_000,
  ordersPerBookMax: 100_000,
  idempotencyWindowMs: 600_000,
  statementPostingsMax: 1_000,
  demoGrants: [{ assetId: "USDT", amount: "100000" }],
};

/** `owner|mode|wallet|asset`: the key of an account in postings and balances. */
export function accountKey(ownerId: string, mode: Mode, wallet: Wallet, assetId: string): string {
  return ownerId + "|" + mode + "|" + wallet + "|" + assetId;
}

/** `mode|ownerId`. */
export function ownerKey(mode: Mode, ownerId: string): string {
  return mode + "|" + ownerId;
}
