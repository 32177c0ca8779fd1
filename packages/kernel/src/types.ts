// The kernel's public vocabulary: commands in, events and a result out. The engine (journal,
// server) and the market maker are written against these shapes, so they only ever grow:
// new commands, events, fields or codes may be added, nothing is renamed or removed.
// Every command field is always present; `null` means "absent", so a command has exactly one
// canonical encoding.

import type { RejectCode } from "./reject-codes.ts";
import type { Side, TimeInForce } from "./book/types.ts";

export type { Side, TimeInForce } from "./book/types.ts";

/** Real money or simulated (demo) money: two ledger namespaces that never exchange value. */
export type Mode = "real" | "demo";

/** Which wallet of an owner an account belongs to. Spot trading uses `fund`. */
export type Wallet = "fund" | "contract" | "fiat";

/** Limit orders name a price; market orders take what the book offers within the price band. */
export type OrderType = "limit" | "market";

/**
 * Labelled system owners. Their accounts exist from the start; the market maker trades
 * through the same commands as users, and its trades appear on the tape like anyone's.
 * `external` is the clearing counterpart of deposits and withdrawals (real mode only; it goes
 * negative by what users hold); `demo_faucet` funds demo accounts (demo mode only).
 */
export const systemOwners = {
  fees: "system:fees",
  treasury: "system:treasury",
  marketMaker: "system:market_maker",
  house: "system:house",
  insuranceFund: "system:insurance_fund",
  demoFaucet: "system:demo_faucet",
  external: "system:external",
} as const;

/** The owner id of a system account, e.g. `system:fees`. */
export type SystemOwnerId = (typeof systemOwners)[keyof typeof systemOwners];

/** Fields every command carries. */
export interface CommandBase {
  /**
   * Client-supplied idempotency key (1–128 printable ASCII characters). A repeated id returns
   * the first result and changes nothing; the same id with different content (any field but
   * `atMs`) is rejected with `command_id_reused`. Ids are remembered for at least
   * `KernelOptions.idempotencyWindowMs`.
   */
  id: string;
  /** Time of the command in milliseconds since the Unix epoch; never earlier than the last one. */
  atMs: number;
}

/** Declares an asset. Assets cannot be redefined. */
export interface DefineAssetCommand extends CommandBase {
  type: "define_asset";
  /** e.g. "USDT", "BTC". 1–32 characters of A–Z, a–z, 0–9, '_', '-', '.'. */
  assetId: string;
  /** Decimals of the smallest unit, 0–18 (USDT 6, BTC 8). */
  scale: number;
  /** Largest amount any single command may move, in smallest units; null: no limit beyond sanity. */
  amountMax: bigint | null;
}

/**
 * Declares a spot market `base/quote`. Markets start closed (see `set_market_session`).
 * Prices are counted in ticks of `priceStep` and quantities in lots of `lotSize`; one lot at one
 * tick must be a whole number of the quote's smallest unit (`priceStep * lotSize * 10^quoteScale`
 * is an integer), so the notional of any order is exact and never rounded.
 */
export interface DefineMarketCommand extends CommandBase {
  type: "define_market";
  /** e.g. "BTC-USDT". Same character rules as asset ids. */
  marketId: string;
  baseAssetId: string;
  quoteAssetId: string;
  /** Instrument on the price tape whose last tick anchors the market-order band; null: marketId. */
  instrumentId: string | null;
  /** Price increment as a decimal string, quote per one whole base unit (e.g. "0.01"). */
  priceStep: string;
  /** Quantity increment as a decimal string of base (e.g. "0.0001"). */
  lotSize: string;
  /** Smallest order, in lots (≥ 1). */
  quantityLotsMin: number;
  /** Largest order, in lots. */
  quantityLotsMax: number;
  /** Maker fee in basis points of what the maker receives (0–1000). */
  feeBpsMaker: number;
  /** Taker fee in basis points of what the taker receives (0–1000). */
  feeBpsTaker: number;
  /** Market orders may trade at most this far from the last tick, in basis points (1–5000). */
  priceBandBps: number;
  /** Most price levels on one side of each book; null: `KernelOptions.levelsPerSideMax`. */
  levelsPerSideMax: number | null;
  /** Most resting orders in each book; null: `KernelOptions.ordersPerBookMax`. */
  ordersPerBookMax: number | null;
}

/**
 * Opens or closes a market for trading (both modes). Closing does not cancel resting orders; it
 * stops new orders and replacements. Cancels are always allowed.
 */
export interface SetMarketSessionCommand extends CommandBase {
  type: "set_market_session";
  marketId: string;
  open: boolean;
}

/**
 * Opens an owner's accounts in one mode. Opening demo accounts also grants
 * `KernelOptions.demoGrants` from the demo faucet. Rejected with `accounts_already_open` twice.
 */
export interface OpenAccountsCommand extends CommandBase {
  type: "open_accounts";
  /** The user id (decimal digits, e.g. "100001"). System owners are always open. */
  ownerId: string;
  mode: Mode;
}

/**
 * Resets a demo owner: cancels every demo order, returns every demo balance to the demo faucet,
 * then grants `KernelOptions.demoGrants` again. `mode` must be "demo" (`real_not_allowed`).
 */
export interface ResetDemoCommand extends CommandBase {
  type: "reset_demo";
  ownerId: string;
  mode: Mode;
}

/** Moves demo money from the demo faucet to a demo fund account. `mode` must be "demo". */
export interface GrantDemoCommand extends CommandBase {
  type: "grant_demo";
  ownerId: string;
  mode: Mode;
  assetId: string;
  /** Smallest units, positive. */
  amount: bigint;
}

/** Credits a deposit: external clearing → the owner's fund wallet. Real mode only. */
export interface CreditDepositCommand extends CommandBase {
  type: "credit_deposit";
  ownerId: string;
  mode: Mode;
  assetId: string;
  amount: bigint;
  /** Chain transaction or bank reference (1–200 characters). */
  reference: string;
  /** Operator who credited it, when it was a manual credit. */
  operatorId: string | null;
}

/** Holds funds of the fund wallet for a withdrawal (available → held). Real mode only. */
export interface WithdrawalHoldCommand extends CommandBase {
  type: "withdrawal_hold";
  ownerId: string;
  mode: Mode;
  assetId: string;
  amount: bigint;
  /** Unique withdrawal id chosen by the server. */
  withdrawalId: string;
}

/** Pays a held withdrawal out: the owner's held funds → external clearing. */
export interface WithdrawalCompleteCommand extends CommandBase {
  type: "withdrawal_complete";
  withdrawalId: string;
  /** Chain transaction or bank reference of the payout. */
  reference: string;
  operatorId: string | null;
}

/** Releases a held withdrawal back to available. */
export interface WithdrawalCancelCommand extends CommandBase {
  type: "withdrawal_cancel";
  withdrawalId: string;
  operatorId: string | null;
}

/** Moves available funds between two wallets of the same owner and mode. */
export interface TransferWalletCommand extends CommandBase {
  type: "transfer_wallet";
  ownerId: string;
  mode: Mode;
  assetId: string;
  amount: bigint;
  sourceWallet: Wallet;
  targetWallet: Wallet;
}

/** Moves available funds from one user's fund wallet to another's. Real mode only. */
export interface TransferUserCommand extends CommandBase {
  type: "transfer_user";
  ownerId: string;
  mode: Mode;
  assetId: string;
  amount: bigint;
  targetOwnerId: string;
}

/**
 * Places a spot order on the book of `marketId` in `mode`. The kernel issues the order id.
 * - limit: `priceTicks` and `quantityLots` set, `quoteAmount` null; any time in force.
 * - market sell: `quantityLots` set, others null; `timeInForce` must be "ioc".
 * - market buy: exactly one of `quantityLots` or `quoteAmount` (quote smallest units to spend)
 *   set, `priceTicks` null; `timeInForce` must be "ioc".
 * Market orders trade only within `priceBandBps` of the last tick of the market's instrument.
 */
export interface PlaceOrderCommand extends CommandBase {
  type: "place_order";
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  priceTicks: number | null;
  quantityLots: number | null;
  quoteAmount: bigint | null;
}

/** Cancels one open order of the owner. */
export interface CancelOrderCommand extends CommandBase {
  type: "cancel_order";
  ownerId: string;
  mode: Mode;
  orderId: number;
}

/**
 * Moves an open order to a new price and remaining quantity. It keeps its order id, loses its
 * time priority and may trade like a new order. A rejection leaves the old order as it was.
 */
export interface ReplaceOrderCommand extends CommandBase {
  type: "replace_order";
  ownerId: string;
  mode: Mode;
  orderId: number;
  priceTicks: number;
  quantityLots: number;
}

/** Cancels every open order of the owner in `mode`, in one market or (null) all. */
export interface CancelAllCommand extends CommandBase {
  type: "cancel_all";
  ownerId: string;
  mode: Mode;
  marketId: string | null;
}

/** Records a price tick on the public tape. Tick ids are unique per instrument. */
export interface RecordTickCommand extends CommandBase {
  type: "record_tick";
  tickId: string;
  instrumentId: string;
  /** Positive decimal string, up to 18 decimals. */
  price: string;
  /** When the price was observed (ms since epoch). */
  tickAtMs: number;
}

/** Advances kernel time and prunes the idempotency window. */
export interface ClockTickCommand extends CommandBase {
  type: "clock_tick";
}

/** Everything the kernel accepts. */
export type Command =
  | DefineAssetCommand
  | DefineMarketCommand
  | SetMarketSessionCommand
  | OpenAccountsCommand
  | ResetDemoCommand
  | GrantDemoCommand
  | CreditDepositCommand
  | WithdrawalHoldCommand
  | WithdrawalCompleteCommand
  | WithdrawalCancelCommand
  | TransferWalletCommand
  | TransferUserCommand
  | PlaceOrderCommand
  | CancelOrderCommand
  | ReplaceOrderCommand
  | CancelAllCommand
  | RecordTickCommand
  | ClockTickCommand;

/** The `type` of a command. */
export type CommandType = Command["type"];

// ---------------------------------------------------------------------------------------------
// Ledger

/** Why a posting was made. Append-only. */
export type PostingReason =
  | "deposit"
  | "withdrawal"
  | "transfer_wallet"
  | "transfer_user"
  | "demo_grant"
  | "demo_reset"
  | "trade"
  | "fee_maker"
  | "fee_taker";

/**
 * One balanced movement of `amount` of `assetId`: the debit account loses it, the credit
 * account gains it. `debitHeld` says whether it came out of the debit account's held balance.
 */
export interface Posting {
  /** Sequence number, 1, 2, 3, … over the whole kernel. */
  seq: number;
  /** Account keys, see {@link accountKey}. */
  debitAccount: string;
  creditAccount: string;
  assetId: string;
  /** Smallest units, positive. */
  amount: bigint;
  debitHeld: boolean;
  reason: PostingReason;
  commandId: string;
  atMs: number;
  orderId: number | null;
  fillId: number | null;
  tickId: string | null;
  operatorId: string | null;
  /** Deposit/withdrawal reference, withdrawal id, or the counterparty of a transfer. */
  reference: string | null;
}

/** One account's balances. */
export interface AccountBalance {
  /** `owner|mode|wallet|asset`. */
  account: string;
  ownerId: string;
  mode: Mode;
  wallet: Wallet;
  assetId: string;
  /** Smallest units; never negative except for `system:external` and `system:demo_faucet`. */
  available: bigint;
  /** Reserved for open orders and pending withdrawals. */
  held: bigint;
}

// ---------------------------------------------------------------------------------------------
// Events

/** How an order ended or stands. */
export type OrderStatus = "open" | "filled" | "cancelled" | "expired" | "rejected";

/** Why an order was cancelled. */
export type CancelReason = "user" | "cancel_all" | "replaced" | "self_trade" | "demo_reset";

/** An order as the kernel holds it (and reports it in queries). */
export interface OrderView {
  orderId: number;
  /** The id of the place_order (or replace_order) command: the client's order id. */
  clientOrderId: string;
  ownerId: string;
  mode: Mode;
  marketId: string;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  /** Limit price; for market orders, the band edge it was allowed to trade to. */
  priceTicks: number;
  /** Ordered lots; for a market buy by quote amount, the lots the quote amount could buy. */
  quantityLots: number;
  /** Quote to spend (market buy by quote amount), else null. */
  quoteAmount: bigint | null;
  filledLots: number;
  remainingLots: number;
  /** Funds still held for it: quote for buys, base for sells. */
  heldAmount: bigint;
  status: OrderStatus;
  createdAtMs: number;
}

export interface OrderAcceptedEvent {
  type: "order_accepted";
  order: OrderView;
}

/** The unfilled remainder now rests in the book. */
export interface OrderRestedEvent {
  type: "order_rested";
  orderId: number;
  priceTicks: number;
  remainingLots: number;
  heldAmount: bigint;
}

/** One trade. Fees are in the asset each side receives, rounded up. */
export interface FillEvent {
  type: "fill";
  /** Sequence number over the whole kernel. */
  fillId: number;
  marketId: string;
  mode: Mode;
  makerOrderId: number;
  takerOrderId: number;
  makerOwnerId: string;
  takerOwnerId: string;
  /** The taker's side. */
  takerSide: Side;
  priceTicks: number;
  quantityLots: number;
  /** Base smallest units traded. */
  baseAmount: bigint;
  /** Quote smallest units traded. */
  quoteAmount: bigint;
  /** In the asset the maker receives (base if the maker bought, quote if it sold). */
  feeMaker: bigint;
  feeMakerAssetId: string;
  feeTaker: bigint;
  feeTakerAssetId: string;
  /** Latest tick of the market's instrument at the time of the fill, or null if none yet. */
  tickId: string | null;
  atMs: number;
}

/** An open order was moved (replace_order), before any matching at its new price. */
export interface OrderReplacedEvent {
  type: "order_replaced";
  orderId: number;
  priceTicks: number;
  remainingLots: number;
  heldAmount: bigint;
}

export interface OrderCancelledEvent {
  type: "order_cancelled";
  orderId: number;
  reason: CancelReason;
  remainingLots: number;
  /** Funds released back to available. */
  releasedAmount: bigint;
}

/** The order left the kernel: filled, cancelled, or expired (ioc / market remainder dropped). */
export interface OrderDoneEvent {
  type: "order_done";
  orderId: number;
  status: "filled" | "cancelled" | "expired";
  filledLots: number;
}

export interface PostingEvent {
  type: "posting";
  posting: Posting;
}

/** Balances of every account this command touched, after it. */
export interface BalancesChangedEvent {
  type: "balances_changed";
  balances: AccountBalance[];
}

/** A recorded price tick. */
export interface Tick {
  tickId: string;
  instrumentId: string;
  price: string;
  tickAtMs: number;
  /** Kernel time when it was recorded. */
  recordedAtMs: number;
}

export interface TickRecordedEvent {
  type: "tick_recorded";
  tick: Tick;
}

export interface AssetDefinedEvent {
  type: "asset_defined";
  asset: AssetView;
}

export interface MarketDefinedEvent {
  type: "market_defined";
  market: MarketView;
}

export interface MarketSessionChangedEvent {
  type: "market_session_changed";
  marketId: string;
  open: boolean;
}

export interface AccountsOpenedEvent {
  type: "accounts_opened";
  ownerId: string;
  mode: Mode;
}

export interface DemoResetEvent {
  type: "demo_reset";
  ownerId: string;
}

export interface WithdrawalChangedEvent {
  type: "withdrawal_changed";
  withdrawal: WithdrawalView;
}

/** Everything the kernel reports. */
export type Event =
  | OrderAcceptedEvent
  | OrderRestedEvent
  | OrderReplacedEvent
  | FillEvent
  | OrderCancelledEvent
  | OrderDoneEvent
  | PostingEvent
  | BalancesChangedEvent
  | TickRecordedEvent
  | AssetDefinedEvent
  | MarketDefinedEvent
  | MarketSessionChangedEvent
  | AccountsOpenedEvent
  | DemoResetEvent
  | WithdrawalChangedEvent;

/** The `type` of an event. */
export type EventType = Event["type"];

// ---------------------------------------------------------------------------------------------
// Results and queries

/**
 * What a successful command returns. Fields that do not apply to the command are null:
 * `orderId`/`orderStatus`/`filledLots`/`restingLots` for place_order and replace_order,
 * `cancelledCount` for cancel_order, cancel_all and reset_demo, `postingSeq` for commands that
 * move money in one posting.
 */
export interface CommandValue {
  orderId: number | null;
  orderStatus: OrderStatus | null;
  filledLots: number | null;
  restingLots: number | null;
  cancelledCount: number | null;
  postingSeq: number | null;
}

/** The result of one command: a value, or a stable rejection code (which changes nothing). */
export type CommandResult = { ok: true; value: CommandValue } | { ok: false; code: RejectCode };

/** What `apply` returns. */
export interface ApplyOutput {
  result: CommandResult;
  /** Empty for rejections and duplicates. */
  events: Event[];
  /** True when the id was seen before: `result` is the first result and nothing changed. */
  duplicate: boolean;
}

/** An asset as declared. */
export interface AssetView {
  assetId: string;
  scale: number;
  amountMax: bigint | null;
}

/** A market as declared, with its session state and derived unit sizes. */
export interface MarketView {
  marketId: string;
  baseAssetId: string;
  quoteAssetId: string;
  instrumentId: string;
  priceStep: string;
  lotSize: string;
  /** Base smallest units in one lot. */
  lotUnits: bigint;
  /** Quote smallest units of one lot at one tick: notional = priceTicks × lots × this. */
  tickLotUnits: bigint;
  quantityLotsMin: number;
  quantityLotsMax: number;
  feeBpsMaker: number;
  feeBpsTaker: number;
  priceBandBps: number;
  levelsPerSideMax: number;
  ordersPerBookMax: number;
  open: boolean;
  /** Decimals of the base and quote assets. */
  baseScale: number;
  quoteScale: number;
}

/** Book depth of one market and mode, best first. */
export interface DepthView {
  marketId: string;
  mode: Mode;
  bids: { priceTicks: number; quantityLots: number; orderCount: number }[];
  asks: { priceTicks: number; quantityLots: number; orderCount: number }[];
}

/** A pending or finished withdrawal. */
export interface WithdrawalView {
  withdrawalId: string;
  ownerId: string;
  assetId: string;
  amount: bigint;
  status: "pending" | "completed" | "cancelled";
  reference: string | null;
}

/** Limits and defaults of a kernel; part of its state (snapshots carry them). */
export interface KernelOptions {
  /** Most open orders per owner and mode, over all markets. Default 200. */
  openOrdersPerOwnerMax: number;
  /** Most open orders of `system:market_maker` per mode. Default 100,000. */
  openOrdersMarketMakerMax: number;
  /** Default most price levels on one side of a book. Default 1,000. */
  levelsPerSideMax: number;
  /** Default most resting orders in one book. Default 100,000. */
  ordersPerBookMax: number;
  /** How long command ids are remembered, pruned by clock_tick. Default 600,000 (10 minutes). */
  idempotencyWindowMs: number;
  /**
   * Postings each account keeps in memory for `getStatement` (at least this many, the latest).
   * Default 1,000. Older postings live in the event stream and the server's statement tables.
   */
  statementPostingsMax: number;
  /** Granted on opening demo accounts and on reset_demo, as decimal strings of defined assets. */
  demoGrants: { assetId: string; amount: string }[];
}
