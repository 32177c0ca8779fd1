// The deterministic, single-writer state machine: `apply(state, command)` validates, then
// changes state only through the ledger primitives below, and reports events. A rejection
// changes nothing; a broken invariant throws.

import { assert } from "./assert.ts";
import { divCeil, divFloor, parseAmount, pow10, SCALE_MAX } from "./amount/amount.ts";
import { createOrderBook } from "./book/order-book.ts";
import type { BookFill, BookListener, OrderBookFactory } from "./book/types.ts";
import { commandShapeCode } from "./command-codec.ts";
import { CommandMemory } from "./command-memory.ts";
import { PRICE_TICKS_MAX as PRICE_TICKS_MAX_UNITS } from "./market-units.ts";
import { reject as rejectResult, type RejectCode } from "./reject-codes.ts";
import {
  accountKey,
  defaultKernelOptions,
  ownerKey,
  type Account,
  type AssetState,
  type KernelState,
  type MarketState,
  type OrderState,
  type OwnerState,
} from "./state.ts";
import {
  systemOwners,
  type AccountBalance,
  type ApplyOutput,
  type CancelAllCommand,
  type CancelOrderCommand,
  type CancelReason,
  type Command,
  type CommandResult,
  type CommandValue,
  type Event,
  type CreditDepositCommand,
  type DefineAssetCommand,
  type DefineMarketCommand,
  type GrantDemoCommand,
  type KernelOptions,
  type MarketView,
  type Mode,
  type OpenAccountsCommand,
  type OrderView,
  type PlaceOrderCommand,
  type Posting,
  type PostingReason,
  type RecordTickCommand,
  type ReplaceOrderCommand,
  type ResetDemoCommand,
  type SetMarketSessionCommand,
  type TransferUserCommand,
  type TransferWalletCommand,
  type Wallet,
  type WithdrawalCancelCommand,
  type WithdrawalCompleteCommand,
  type WithdrawalHoldCommand,
  type WithdrawalView,
} from "./types.ts";

let defaultBookFactory: OrderBookFactory = createOrderBook;

/** Sets the order book used by kernels created without an explicit factory (default: fast). */
export function setDefaultBookFactory(factory: OrderBookFactory): void {
  defaultBookFactory = factory;
}

/** Largest price in ticks and lots per order the kernel accepts (keeps book math in safe ints). */
const PRICE_TICKS_MAX = PRICE_TICKS_MAX_UNITS;
const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const OWNER_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const BPS = 10_000n;

const NO_REJECT = null;

function okValue(): CommandValue {
  return {
    orderId: null,
    orderStatus: null,
    filledLots: null,
    restingLots: null,
    cancelledCount: null,
    postingSeq: null,
  };
}

function ok(value: CommandValue = okValue()): CommandResult {
  return { ok: true, value };
}

/** Builds an empty kernel. Markets, assets and owners arrive as commands. */
export function createKernelState(
  options: Partial<KernelOptions> = {},
  bookFactory: OrderBookFactory | null = null,
): KernelState {
  const factory = bookFactory ?? defaultBookFactory;
  const merged: KernelOptions = { ...defaultKernelOptions, ...options };
  merged.demoGrants = merged.demoGrants.map((grant) => ({ ...grant }));
  const state: KernelState = {
    options: merged,
    bookFactory: factory,
    nowMs: 0,
    assets: new Map(),
    markets: new Map(),
    marketsByInstrument: new Map(),
    ticks: new Map(),
    owners: new Map(),
    ownersReal: new Map(),
    ownersDemo: new Map(),
    ownerIndexNext: 1,
    accounts: new Map(),
    orders: new Map(),
    orderIdNext: 1,
    fillIdNext: 1,
    withdrawals: new Map(),
    postingSeqLast: 0,
    memory: new CommandMemory(),
    commandSerial: 0,
    events: [],
    touched: [],
    command: null,
    taker: null,
    listener: null as unknown as BookListener,
  };
  state.listener = makeListener(state);
  for (const mode of ["real", "demo"] as const) {
    for (const ownerId of Object.values(systemOwners)) {
      if (ownerId === systemOwners.external && mode === "demo") continue;
      if (ownerId === systemOwners.demoFaucet && mode === "real") continue;
      openOwner(state, ownerId, mode);
    }
  }
  return state;
}

/** Creates an owner record (no validation). */
export function openOwner(state: KernelState, ownerId: string, mode: Mode): OwnerState {
  const key = ownerKey(mode, ownerId);
  assert(!state.owners.has(key), "owner already open");
  const system = ownerId.startsWith("system:");
  const owner: OwnerState = {
    key,
    ownerId,
    mode,
    index: state.ownerIndexNext++,
    system,
    openOrdersMax:
      ownerId === systemOwners.marketMaker
        ? state.options.openOrdersMarketMakerMax
        : state.options.openOrdersPerOwnerMax,
    orderIds: new Set(),
    accounts: new Map(),
    fund: new Map(),
  };
  state.owners.set(key, owner);
  (mode === "real" ? state.ownersReal : state.ownersDemo).set(ownerId, owner);
  return owner;
}

/** An open owner, or undefined. */
export function ownerOf(state: KernelState, mode: Mode, ownerId: string): OwnerState | undefined {
  return (mode === "real" ? state.ownersReal : state.ownersDemo).get(ownerId);
}

/** The account of an owner, created (at zero) on first use. */
export function accountOf(
  state: KernelState,
  owner: OwnerState,
  wallet: Wallet,
  assetId: string,
): Account {
  if (wallet === "fund") {
    const fund = owner.fund.get(assetId);
    if (fund !== undefined) return fund;
  }
  const walletAsset = wallet + "|" + assetId;
  let account = owner.accounts.get(walletAsset);
  if (account === undefined) {
    const key = accountKey(owner.ownerId, owner.mode, wallet, assetId);
    account = {
      key,
      ownerId: owner.ownerId,
      mode: owner.mode,
      wallet,
      assetId,
      available: 0n,
      held: 0n,
      negativeAllowed:
        owner.ownerId === systemOwners.external || owner.ownerId === systemOwners.demoFaucet,
      postings: [],
      touchedSerial: 0,
      heldExpected: 0n,
    };
    owner.accounts.set(walletAsset, account);
    if (wallet === "fund") owner.fund.set(assetId, account);
    state.accounts.set(key, account);
  }
  return account;
}

function availableOf(owner: OwnerState, wallet: Wallet, assetId: string): bigint {
  if (wallet === "fund") return owner.fund.get(assetId)?.available ?? 0n;
  return owner.accounts.get(wallet + "|" + assetId)?.available ?? 0n;
}

function touch(state: KernelState, account: Account): void {
  if (account.touchedSerial !== state.commandSerial) {
    account.touchedSerial = state.commandSerial;
    state.touched.push(account);
  }
}

// ---------------------------------------------------------------------------------------------
// Ledger primitives: the only code that changes balances.

interface PostingRefs {
  orderId: number | null;
  fillId: number | null;
  tickId: string | null;
  operatorId: string | null;
  reference: string | null;
}

const NO_REFS: PostingRefs = {
  orderId: null,
  fillId: null,
  tickId: null,
  operatorId: null,
  reference: null,
};

/** Moves `amount` from `debit` (its held part when `debitHeld`) to `credit`'s available. */
function post(
  state: KernelState,
  debit: Account,
  credit: Account,
  amount: bigint,
  debitHeld: boolean,
  reason: PostingReason,
  orderId: number | null,
  fillId: number | null,
  tickId: string | null,
  operatorId: string | null,
  reference: string | null,
): number {
  assert(amount > 0n, "posting amount must be positive");
  assert(debit.assetId === credit.assetId, "posting across assets");
  assert(debit.mode === credit.mode, "posting across modes");
  assert(debit !== credit, "posting to the same account");
  if (debitHeld) {
    debit.held -= amount;
    assert(debit.held >= 0n, "held balance went negative");
  } else {
    debit.available -= amount;
    assert(debit.negativeAllowed || debit.available >= 0n, "available balance went negative");
  }
  credit.available += amount;
  const seq = ++state.postingSeqLast;
  const command = state.command!;
  const posting = {
    seq,
    debitAccount: debit.key,
    creditAccount: credit.key,
    assetId: debit.assetId,
    amount,
    debitHeld,
    reason,
    commandId: command.id,
    atMs: command.atMs,
    orderId,
    fillId,
    tickId,
    operatorId,
    reference,
  };
  keepPosting(debit, posting, state.options.statementPostingsMax);
  keepPosting(credit, posting, state.options.statementPostingsMax);
  touch(state, debit);
  touch(state, credit);
  state.events.push({ type: "posting", posting });
  return seq;
}

/** Appends to an account's statement, dropping the oldest half when it holds twice the limit. */
function keepPosting(account: Account, posting: Posting, kept: number): void {
  const list = account.postings;
  list.push(posting);
  if (list.length > 2 * kept) list.splice(0, list.length - kept);
}

function postRefs(
  state: KernelState,
  debit: Account,
  credit: Account,
  amount: bigint,
  debitHeld: boolean,
  reason: PostingReason,
  refs: PostingRefs,
): number {
  return post(
    state,
    debit,
    credit,
    amount,
    debitHeld,
    reason,
    refs.orderId,
    refs.fillId,
    refs.tickId,
    refs.operatorId,
    refs.reference,
  );
}

/** A posting that cites no order, fill, tick, operator or outside reference (demo grants). */
function postUnreferenced(
  state: KernelState,
  debit: Account,
  credit: Account,
  amount: bigint,
  debitHeld: boolean,
  reason: PostingReason,
): number {
  return post(state, debit, credit, amount, debitHeld, reason, null, null, null, null, null);
}

function hold(state: KernelState, account: Account, amount: bigint): void {
  assert(amount >= 0n, "hold must not be negative");
  account.available -= amount;
  assert(account.available >= 0n, "hold exceeds available");
  account.held += amount;
  touch(state, account);
}

function release(state: KernelState, account: Account, amount: bigint): void {
  assert(amount >= 0n, "release must not be negative");
  account.held -= amount;
  assert(account.held >= 0n, "release exceeds held");
  account.available += amount;
  touch(state, account);
}

// ---------------------------------------------------------------------------------------------
// apply

/**
 * Applies one command. Mutates `state` in place; deterministic. A repeated id returns the
 * first result with `duplicate: true` and changes nothing. Rejection results and empty event
 * arrays are shared and frozen.
 */
export function apply(state: KernelState, command: Command): ApplyOutput {
  if (typeof command !== "object" || command === null || typeof command.id !== "string") {
    return rejected("command_malformed");
  }
  const id = command.id;
  if (id.length === 0 || id.length > 128 || !isPrintableAscii(id)) {
    return rejected("command_id_invalid");
  }
  const shapeCode = commandShapeCode(command);
  if (shapeCode !== null) return rejected(shapeCode);
  const seen = state.memory.find(id);
  if (seen !== -1) {
    if (state.memory.sameContent(seen, command)) {
      return { result: state.memory.result(seen), events: NO_EVENTS, duplicate: true };
    }
    return rejected("command_id_reused");
  }
  if (!Number.isSafeInteger(command.atMs) || command.atMs < 0) {
    return rejected("timestamp_invalid");
  }
  if (command.atMs < state.nowMs) return rejected("time_went_backwards");

  state.nowMs = command.atMs;
  state.commandSerial++;
  state.command = command;
  state.events = [];
  if (state.touched.length > 0) state.touched.length = 0;
  const result = dispatch(state, command);
  let events = state.events;
  if (!result.ok) {
    assert(events.length === 0 || onlyRestorable(events), "a rejection emitted events");
    events = NO_EVENTS;
  } else if (state.touched.length > 0) {
    const touched = state.touched;
    const balances: AccountBalance[] = new Array<AccountBalance>(touched.length);
    for (let i = 0; i < touched.length; i++) balances[i] = balanceView(touched[i]!);
    events.push({ type: "balances_changed", balances });
  }
  state.command = null;

  state.memory.remember(command, result);
  // Forget expired ids a few at a time on every command (a steady index, no bursts), and all
  // of them on a clock tick.
  state.memory.prune(
    state.nowMs - state.options.idempotencyWindowMs,
    command.type === "clock_tick" ? Number.MAX_SAFE_INTEGER : 2,
  );
  return { result, events, duplicate: false };
}

// Rejections must leave no events; `order_accepted` pushed before a book rejection is the only
// event a rejected command may have produced, and it is dropped with the rest.
function onlyRestorable(events: readonly { type: string }[]): boolean {
  return events.every(
    (event) => event.type === "order_accepted" || event.type === "order_replaced",
  );
}

/** The events of rejections and duplicates: shared, frozen, empty. */
const NO_EVENTS = Object.freeze([]) as unknown as Event[];

function rejected(code: RejectCode): ApplyOutput {
  return { result: fail(code), events: NO_EVENTS, duplicate: false };
}

function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

function dispatch(state: KernelState, command: Command): CommandResult {
  switch (command.type) {
    case "place_order":
      return placeOrder(state, command);
    case "cancel_order":
      return cancelOrderCommand(state, command);
    case "replace_order":
      return replaceOrder(state, command);
    case "cancel_all":
      return cancelAll(state, command);
    case "record_tick":
      return recordTick(state, command);
    case "clock_tick":
      return ok();
    case "define_asset":
      return defineAsset(state, command);
    case "define_market":
      return defineMarket(state, command);
    case "set_market_session":
      return setMarketSession(state, command);
    case "open_accounts":
      return openAccounts(state, command);
    case "reset_demo":
      return resetDemo(state, command);
    case "grant_demo":
      return grantDemo(state, command);
    case "credit_deposit":
      return creditDeposit(state, command);
    case "withdrawal_hold":
      return withdrawalHold(state, command);
    case "withdrawal_complete":
      return withdrawalComplete(state, command);
    case "withdrawal_cancel":
      return withdrawalCancel(state, command);
    case "transfer_wallet":
      return transferWallet(state, command);
    case "transfer_user":
      return transferUser(state, command);
  }
}

const rejections = new Map<RejectCode, CommandResult>();

/** A rejection result; shared and frozen per code, since rejections are frequent and alike. */
function fail(code: RejectCode): CommandResult {
  let result = rejections.get(code);
  if (result === undefined) {
    result = Object.freeze(rejectResult(code));
    rejections.set(code, result);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Definitions

function defineAsset(state: KernelState, command: DefineAssetCommand): CommandResult {
  if (!ID_PATTERN.test(command.assetId)) return fail("asset_invalid");
  if (command.scale < 0 || command.scale > SCALE_MAX) return fail("asset_invalid");
  if (
    command.amountMax !== null &&
    (command.amountMax <= 0n || command.amountMax > AMOUNT_SANITY_MAX)
  ) {
    return fail("asset_invalid");
  }
  if (state.assets.has(command.assetId)) return fail("asset_exists");
  const asset: AssetState = {
    assetId: command.assetId,
    scale: command.scale,
    amountMax: command.amountMax,
  };
  state.assets.set(asset.assetId, asset);
  state.events.push({ type: "asset_defined", asset: { ...asset } });
  return ok();
}

/** Market parameters shared by define_market and restore. */
export interface MarketDefinition {
  marketId: string;
  baseAssetId: string;
  quoteAssetId: string;
  instrumentId: string | null;
  priceStep: string;
  lotSize: string;
  quantityLotsMin: number;
  quantityLotsMax: number;
  feeBpsMaker: number;
  feeBpsTaker: number;
  priceBandBps: number;
  levelsPerSideMax: number | null;
  ordersPerBookMax: number | null;
}

/** Validates a market definition and builds its state (books empty, closed); or a code. */
export function buildMarket(
  state: KernelState,
  definition: MarketDefinition,
): MarketState | RejectCode {
  if (!ID_PATTERN.test(definition.marketId)) return "market_invalid";
  if (definition.instrumentId !== null && !ID_PATTERN.test(definition.instrumentId)) {
    return "instrument_id_invalid";
  }
  const base = state.assets.get(definition.baseAssetId);
  const quote = state.assets.get(definition.quoteAssetId);
  if (base === undefined || quote === undefined) return "asset_not_found";
  if (base === quote) return "market_invalid";
  const step = parseAmount(definition.priceStep, SCALE_MAX);
  if (!step.ok || step.value <= 0n) return "market_invalid";
  const lot = parseAmount(definition.lotSize, base.scale);
  if (!lot.ok || lot.value <= 0n) return "market_invalid";
  // One lot at one tick in quote units: step/10^18 × lot/10^baseScale × 10^quoteScale.
  const numerator = step.value * lot.value * pow10(quote.scale);
  const denominator = pow10(SCALE_MAX + base.scale);
  if (numerator % denominator !== 0n) return "market_invalid";
  const tickLotUnits = numerator / denominator;
  if (tickLotUnits <= 0n) return "market_invalid";
  const lotsMin = definition.quantityLotsMin;
  const lotsMax = definition.quantityLotsMax;
  if (lotsMin < 1 || lotsMax < lotsMin || lotsMax > PRICE_TICKS_MAX) return "market_invalid";
  if (definition.feeBpsMaker < 0 || definition.feeBpsMaker > 1000) return "market_invalid";
  if (definition.feeBpsTaker < 0 || definition.feeBpsTaker > 1000) return "market_invalid";
  if (definition.priceBandBps < 1 || definition.priceBandBps > 5000) return "market_invalid";
  const levels = definition.levelsPerSideMax ?? state.options.levelsPerSideMax;
  const ordersMax = definition.ordersPerBookMax ?? state.options.ordersPerBookMax;
  if (levels < 1 || ordersMax < 1) return "market_invalid";
  const limits = { levelsPerSideMax: levels, ordersMax };
  return {
    marketId: definition.marketId,
    base,
    quote,
    instrumentId: definition.instrumentId ?? definition.marketId,
    priceStep: definition.priceStep,
    lotSize: definition.lotSize,
    priceStepScaled: step.value,
    lotUnits: lot.value,
    tickLotUnits,
    lotUnitsNumber: safeNumber(lot.value),
    tickLotUnitsNumber: safeNumber(tickLotUnits),
    quantityLotsMin: lotsMin,
    quantityLotsMax: lotsMax,
    feeBpsMaker: definition.feeBpsMaker,
    feeBpsTaker: definition.feeBpsTaker,
    priceBandBps: definition.priceBandBps,
    levelsPerSideMax: levels,
    ordersPerBookMax: ordersMax,
    open: false,
    bookReal: state.bookFactory(limits),
    bookDemo: state.bookFactory(limits),
    bandBuyMaxTicks: 0,
    bandSellMinTicks: 0,
    tickId: null,
  };
}

/** The value as a double when it is a safe integer, else +Infinity (forcing the bigint path). */
function safeNumber(value: bigint): number {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : Number.POSITIVE_INFINITY;
}

/** Adds a built market to the state and anchors it to its instrument's last tick. */
export function installMarket(state: KernelState, market: MarketState): void {
  state.markets.set(market.marketId, market);
  let anchored = state.marketsByInstrument.get(market.instrumentId);
  if (anchored === undefined) {
    anchored = [];
    state.marketsByInstrument.set(market.instrumentId, anchored);
  }
  anchored.push(market);
  const tick = state.ticks.get(market.instrumentId);
  if (tick !== undefined) updateBand(market, tick.price, tick.tickId);
}

function defineMarket(state: KernelState, command: DefineMarketCommand): CommandResult {
  if (state.markets.has(command.marketId)) return fail("market_exists");
  const market = buildMarket(state, command);
  if (typeof market === "string") return fail(market);
  installMarket(state, market);
  state.events.push({ type: "market_defined", market: marketView(market) });
  return ok();
}

function setMarketSession(state: KernelState, command: SetMarketSessionCommand): CommandResult {
  const market = state.markets.get(command.marketId);
  if (market === undefined) return fail("market_not_found");
  market.open = command.open;
  state.events.push({
    type: "market_session_changed",
    marketId: market.marketId,
    open: market.open,
  });
  return ok();
}

/** Recomputes a market's price band from a tick price (decimal string). */
export function updateBand(market: MarketState, price: string, tickId: string): void {
  const parsed = parseAmount(price, SCALE_MAX);
  assert(parsed.ok && parsed.value > 0n, "tick price was validated");
  const denominator = market.priceStepScaled * BPS;
  const bps = BigInt(market.priceBandBps);
  const buyMax = divFloor(parsed.value * (BPS + bps), denominator);
  const sellMin = divCeil(parsed.value * (BPS - bps), denominator);
  const cap = BigInt(PRICE_TICKS_MAX);
  market.bandBuyMaxTicks = Number(buyMax > cap ? cap : buyMax);
  market.bandSellMinTicks = Number(sellMin < 1n ? 1n : sellMin > cap ? cap + 1n : sellMin);
  market.tickId = tickId;
}

function recordTick(state: KernelState, command: RecordTickCommand): CommandResult {
  if (!ID_PATTERN.test(command.instrumentId)) return fail("instrument_id_invalid");
  if (command.tickId.length === 0 || command.tickId.length > 128) return fail("reference_invalid");
  if (command.tickAtMs < 0) return fail("timestamp_invalid");
  const price = parseAmount(command.price, SCALE_MAX);
  if (!price.ok || price.value <= 0n) return fail("price_invalid");
  const last = state.ticks.get(command.instrumentId);
  if (last !== undefined && last.tickId === command.tickId) return fail("tick_exists");
  const tick = {
    tickId: command.tickId,
    instrumentId: command.instrumentId,
    price: command.price,
    tickAtMs: command.tickAtMs,
    recordedAtMs: command.atMs,
  };
  state.ticks.set(tick.instrumentId, tick);
  const anchored = state.marketsByInstrument.get(tick.instrumentId);
  if (anchored !== undefined) {
    for (const market of anchored) updateBand(market, tick.price, tick.tickId);
  }
  state.events.push({ type: "tick_recorded", tick: { ...tick } });
  return ok();
}

// ---------------------------------------------------------------------------------------------
// Owners, deposits, withdrawals, transfers

/** Finds an open owner by id and mode; `owner_id_invalid` or `account_not_found` otherwise. */
function findOwner(state: KernelState, ownerId: string, mode: Mode): OwnerState | RejectCode {
  const owner = ownerOf(state, mode, ownerId);
  if (owner !== undefined) return owner;
  if (!OWNER_PATTERN.test(ownerId) && !ownerId.startsWith("system:")) return "owner_id_invalid";
  return "account_not_found";
}

/** System owners that may receive deposits and hold funds like users. */
function fundableSystemOwner(ownerId: string): boolean {
  return (
    ownerId === systemOwners.marketMaker ||
    ownerId === systemOwners.treasury ||
    ownerId === systemOwners.house ||
    ownerId === systemOwners.insuranceFund
  );
}

/** No single command moves more than 10^36 smallest units, whatever the asset says. */
const AMOUNT_SANITY_MAX = 10n ** 36n;

function checkAmount(asset: AssetState, amount: bigint): RejectCode | null {
  if (amount <= 0n) return "amount_must_be_positive";
  if (amount > (asset.amountMax ?? AMOUNT_SANITY_MAX)) return "amount_above_maximum";
  return NO_REJECT;
}

function openAccounts(state: KernelState, command: OpenAccountsCommand): CommandResult {
  if (!OWNER_PATTERN.test(command.ownerId)) return fail("owner_id_invalid");
  if (ownerOf(state, command.mode, command.ownerId) !== undefined) {
    return fail("accounts_already_open");
  }
  const owner = openOwner(state, command.ownerId, command.mode);
  state.events.push({ type: "accounts_opened", ownerId: owner.ownerId, mode: owner.mode });
  if (owner.mode === "demo") grantDemoDefaults(state, owner);
  return ok();
}

function grantDemoDefaults(state: KernelState, owner: OwnerState): void {
  const faucet = ownerOf(state, "demo", systemOwners.demoFaucet)!;
  for (const grant of state.options.demoGrants) {
    const asset = state.assets.get(grant.assetId);
    if (asset === undefined) continue;
    const amount = parseAmount(grant.amount, asset.scale);
    if (!amount.ok || amount.value <= 0n) continue;
    postUnreferenced(
      state,
      accountOf(state, faucet, "fund", asset.assetId),
      accountOf(state, owner, "fund", asset.assetId),
      amount.value,
      false,
      "demo_grant",
    );
  }
}

function grantDemo(state: KernelState, command: GrantDemoCommand): CommandResult {
  if (command.mode !== "demo") return fail("real_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system && owner.ownerId !== systemOwners.marketMaker) {
    return fail("owner_not_allowed");
  }
  const asset = state.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = checkAmount(asset, command.amount);
  if (code !== null) return fail(code);
  const faucet = ownerOf(state, "demo", systemOwners.demoFaucet)!;
  const seq = postUnreferenced(
    state,
    accountOf(state, faucet, "fund", asset.assetId),
    accountOf(state, owner, "fund", asset.assetId),
    command.amount,
    false,
    "demo_grant",
  );
  return ok({ ...okValue(), postingSeq: seq });
}

function resetDemo(state: KernelState, command: ResetDemoCommand): CommandResult {
  if (command.mode !== "demo") return fail("real_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const cancelled = cancelOwnerOrders(state, owner, null, "demo_reset");
  const faucet = ownerOf(state, "demo", systemOwners.demoFaucet)!;
  const accounts = [...owner.accounts.values()].sort((a, b) => compareStrings(a.key, b.key));
  for (const account of accounts) {
    assert(account.held === 0n, "demo account still holds funds after cancelling its orders");
    if (account.available > 0n) {
      postUnreferenced(
        state,
        account,
        accountOf(state, faucet, "fund", account.assetId),
        account.available,
        false,
        "demo_reset",
      );
    }
  }
  grantDemoDefaults(state, owner);
  state.events.push({ type: "demo_reset", ownerId: owner.ownerId });
  return ok({ ...okValue(), cancelledCount: cancelled });
}

function creditDeposit(state: KernelState, command: CreditDepositCommand): CommandResult {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system && !fundableSystemOwner(owner.ownerId)) return fail("owner_not_allowed");
  const asset = state.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = checkAmount(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.reference.length === 0) return fail("reference_missing");
  const external = ownerOf(state, "real", systemOwners.external)!;
  const seq = post(
    state,
    accountOf(state, external, "fund", asset.assetId),
    accountOf(state, owner, "fund", asset.assetId),
    command.amount,
    false,
    "deposit",
    null,
    null,
    null,
    command.operatorId,
    command.reference,
  );
  return ok({ ...okValue(), postingSeq: seq });
}

function withdrawalView(state: KernelState, withdrawalId: string): WithdrawalView {
  const withdrawal = state.withdrawals.get(withdrawalId)!;
  return {
    withdrawalId,
    ownerId: withdrawal.account.ownerId,
    assetId: withdrawal.account.assetId,
    amount: withdrawal.amount,
    status: withdrawal.status,
    reference: withdrawal.reference,
  };
}

function withdrawalHold(state: KernelState, command: WithdrawalHoldCommand): CommandResult {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system && !fundableSystemOwner(owner.ownerId)) return fail("owner_not_allowed");
  const asset = state.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = checkAmount(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.withdrawalId.length === 0) return fail("reference_missing");
  if (state.withdrawals.has(command.withdrawalId)) return fail("withdrawal_exists");
  if (availableOf(owner, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const account = accountOf(state, owner, "fund", asset.assetId);
  hold(state, account, command.amount);
  state.withdrawals.set(command.withdrawalId, {
    withdrawalId: command.withdrawalId,
    account,
    amount: command.amount,
    status: "pending",
    reference: null,
  });
  state.events.push({
    type: "withdrawal_changed",
    withdrawal: withdrawalView(state, command.withdrawalId),
  });
  return ok();
}

function withdrawalComplete(state: KernelState, command: WithdrawalCompleteCommand): CommandResult {
  const withdrawal = state.withdrawals.get(command.withdrawalId);
  if (withdrawal === undefined) return fail("withdrawal_not_found");
  if (withdrawal.status !== "pending") return fail("withdrawal_not_pending");
  if (command.reference.length === 0) return fail("reference_missing");
  const external = ownerOf(state, "real", systemOwners.external)!;
  const seq = post(
    state,
    withdrawal.account,
    accountOf(state, external, "fund", withdrawal.account.assetId),
    withdrawal.amount,
    true,
    "withdrawal",
    null,
    null,
    null,
    command.operatorId,
    command.reference,
  );
  withdrawal.status = "completed";
  withdrawal.reference = command.reference;
  state.events.push({
    type: "withdrawal_changed",
    withdrawal: withdrawalView(state, command.withdrawalId),
  });
  return ok({ ...okValue(), postingSeq: seq });
}

function withdrawalCancel(state: KernelState, command: WithdrawalCancelCommand): CommandResult {
  const withdrawal = state.withdrawals.get(command.withdrawalId);
  if (withdrawal === undefined) return fail("withdrawal_not_found");
  if (withdrawal.status !== "pending") return fail("withdrawal_not_pending");
  release(state, withdrawal.account, withdrawal.amount);
  withdrawal.status = "cancelled";
  state.events.push({
    type: "withdrawal_changed",
    withdrawal: withdrawalView(state, command.withdrawalId),
  });
  return ok();
}

function transferWallet(state: KernelState, command: TransferWalletCommand): CommandResult {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const asset = state.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = checkAmount(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.sourceWallet === command.targetWallet) return fail("same_account");
  if (availableOf(owner, command.sourceWallet, asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const seq = postRefs(
    state,
    accountOf(state, owner, command.sourceWallet, asset.assetId),
    accountOf(state, owner, command.targetWallet, asset.assetId),
    command.amount,
    false,
    "transfer_wallet",
    NO_REFS,
  );
  return ok({ ...okValue(), postingSeq: seq });
}

function transferUser(state: KernelState, command: TransferUserCommand): CommandResult {
  if (command.mode !== "real") return fail("demo_not_allowed");
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const target = findOwner(state, command.targetOwnerId, command.mode);
  if (typeof target === "string") return fail(target);
  if (target.system) return fail("owner_not_allowed");
  if (target === owner) return fail("same_account");
  const asset = state.assets.get(command.assetId);
  if (asset === undefined) return fail("asset_not_found");
  const code = checkAmount(asset, command.amount);
  if (code !== null) return fail(code);
  if (availableOf(owner, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const seq = post(
    state,
    accountOf(state, owner, "fund", asset.assetId),
    accountOf(state, target, "fund", asset.assetId),
    command.amount,
    false,
    "transfer_user",
    null,
    null,
    null,
    null,
    target.ownerId,
  );
  return ok({ ...okValue(), postingSeq: seq });
}

// ---------------------------------------------------------------------------------------------
// Orders

function traderOwner(state: KernelState, ownerId: string, mode: Mode): OwnerState | RejectCode {
  const owner = findOwner(state, ownerId, mode);
  if (typeof owner === "string") return owner;
  if (owner.system && owner.ownerId !== systemOwners.marketMaker) return "owner_not_allowed";
  return owner;
}

function makeListener(state: KernelState): BookListener {
  return {
    onFill(fill: BookFill): void {
      settleFill(state, state.taker!, fill);
    },
    onSelfTradeCancel(restingOrderId: number, remainingLots: number): void {
      const order = state.orders.get(restingOrderId);
      assert(order !== undefined, "self-trade cancel of an unknown order");
      assert(order.quantityLots - order.filledLots === remainingLots, "resting lots disagree");
      finishCancelled(state, order, "self_trade");
    },
  };
}

/** Fee on what a side receives, rounded up: the venue never under-collects (≤ 1 unit). */
function feeOf(amount: bigint, feeBps: number): bigint {
  if (feeBps === 0) return 0n;
  return divCeil(amount * BigInt(feeBps), BPS);
}

function settleFill(state: KernelState, taker: OrderState, fill: BookFill): void {
  const maker = state.orders.get(fill.makerOrderId);
  assert(maker !== undefined, "fill against an unknown order");
  const market = taker.market;
  const baseAmount = holdFor(market, false, 0, fill.quantityLots);
  const quoteAmount = holdFor(market, true, fill.priceTicks, fill.quantityLots);
  const fillId = state.fillIdNext++;
  const tickId = market.tickId;
  const buyer = taker.side === "buy" ? taker : maker;
  const seller = taker.side === "buy" ? maker : taker;
  // Both legs come out of the holds placed when each order was accepted.
  post(
    state,
    buyer.quoteAccount,
    seller.quoteAccount,
    quoteAmount,
    true,
    "trade",
    buyer.orderId,
    fillId,
    tickId,
    null,
    null,
  );
  buyer.heldAmount -= quoteAmount;
  post(
    state,
    seller.baseAccount,
    buyer.baseAccount,
    baseAmount,
    true,
    "trade",
    seller.orderId,
    fillId,
    tickId,
    null,
    null,
  );
  seller.heldAmount -= baseAmount;
  assert(buyer.heldAmount >= 0n && seller.heldAmount >= 0n, "order hold went negative");
  const feeAccounts = ownerOf(state, taker.owner.mode, systemOwners.fees)!;
  const makerReceives = maker.side === "buy" ? baseAmount : quoteAmount;
  const takerReceives = taker.side === "buy" ? baseAmount : quoteAmount;
  const makerAccount = maker.side === "buy" ? maker.baseAccount : maker.quoteAccount;
  const takerAccount = taker.side === "buy" ? taker.baseAccount : taker.quoteAccount;
  const feeMaker = feeOf(makerReceives, market.feeBpsMaker);
  const feeTaker = feeOf(takerReceives, market.feeBpsTaker);
  if (feeMaker > 0n) {
    post(
      state,
      makerAccount,
      accountOf(state, feeAccounts, "fund", makerAccount.assetId),
      feeMaker,
      false,
      "fee_maker",
      maker.orderId,
      fillId,
      tickId,
      null,
      null,
    );
  }
  if (feeTaker > 0n) {
    post(
      state,
      takerAccount,
      accountOf(state, feeAccounts, "fund", takerAccount.assetId),
      feeTaker,
      false,
      "fee_taker",
      taker.orderId,
      fillId,
      tickId,
      null,
      null,
    );
  }
  maker.filledLots += fill.quantityLots;
  taker.filledLots += fill.quantityLots;
  assert(
    maker.quantityLots - maker.filledLots === fill.makerRemainingLots,
    "maker lots disagree with the book",
  );
  state.events.push({
    type: "fill",
    fillId,
    marketId: market.marketId,
    mode: taker.owner.mode,
    makerOrderId: maker.orderId,
    takerOrderId: taker.orderId,
    makerOwnerId: maker.owner.ownerId,
    takerOwnerId: taker.owner.ownerId,
    takerSide: taker.side,
    priceTicks: fill.priceTicks,
    quantityLots: fill.quantityLots,
    baseAmount,
    quoteAmount,
    feeMaker,
    feeMakerAssetId: makerAccount.assetId,
    feeTaker,
    feeTakerAssetId: takerAccount.assetId,
    tickId,
    atMs: state.nowMs,
  });
  if (fill.makerRemainingLots === 0) {
    assert(maker.heldAmount === 0n, "a filled maker still holds funds");
    removeOpenOrder(state, maker, "filled");
  }
}

function removeOpenOrder(
  state: KernelState,
  order: OrderState,
  status: "filled" | "cancelled" | "expired",
): void {
  order.status = status;
  state.orders.delete(order.orderId);
  order.owner.orderIds.delete(order.orderId);
  state.events.push({
    type: "order_done",
    orderId: order.orderId,
    status,
    filledLots: order.filledLots,
  });
}

/** Releases an open (already out of the book) order's hold and reports it cancelled. */
function finishCancelled(state: KernelState, order: OrderState, reason: CancelReason): void {
  const released = order.heldAmount;
  if (released > 0n) release(state, order.holdAccount, released);
  order.heldAmount = 0n;
  state.events.push({
    type: "order_cancelled",
    orderId: order.orderId,
    reason,
    remainingLots: order.quantityLots - order.filledLots,
    releasedAmount: released,
  });
  removeOpenOrder(state, order, "cancelled");
}

function cancelOpenOrder(state: KernelState, order: OrderState, reason: CancelReason): void {
  const resting = order.book.cancel(order.orderId);
  assert(resting !== undefined, "an open order was not in its book");
  finishCancelled(state, order, reason);
}

function cancelOwnerOrders(
  state: KernelState,
  owner: OwnerState,
  marketId: string | null,
  reason: CancelReason,
): number {
  const ids = [...owner.orderIds].sort((a, b) => a - b);
  let count = 0;
  for (const orderId of ids) {
    const order = state.orders.get(orderId)!;
    if (marketId !== null && order.market.marketId !== marketId) continue;
    cancelOpenOrder(state, order, reason);
    count++;
  }
  return count;
}

/**
 * The open order a cancel or replace names, when it belongs to the commanding owner; else the
 * code to reject with. Looks the order up first (one Map lookup on the hot path) and only then,
 * on a miss, works out which owner check failed.
 */
function commandedOrder(
  state: KernelState,
  ownerId: string,
  mode: Mode,
  orderId: number,
): OrderState | RejectCode {
  const order = state.orders.get(orderId);
  if (order !== undefined && order.owner.ownerId === ownerId && order.owner.mode === mode) {
    return order;
  }
  const owner = traderOwner(state, ownerId, mode);
  return typeof owner === "string" ? owner : "order_not_found";
}

function cancelOrderCommand(state: KernelState, command: CancelOrderCommand): CommandResult {
  const order = commandedOrder(state, command.ownerId, command.mode, command.orderId);
  if (typeof order === "string") return fail(order);
  cancelOpenOrder(state, order, "user");
  return ok({ ...okValue(), orderId: order.orderId, cancelledCount: 1 });
}

function cancelAll(state: KernelState, command: CancelAllCommand): CommandResult {
  const owner = traderOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (command.marketId !== null && !state.markets.has(command.marketId)) {
    return fail("market_not_found");
  }
  const count = cancelOwnerOrders(state, owner, command.marketId, "cancel_all");
  return ok({ ...okValue(), cancelledCount: count });
}

function replaceOrder(state: KernelState, command: ReplaceOrderCommand): CommandResult {
  const order = commandedOrder(state, command.ownerId, command.mode, command.orderId);
  if (typeof order === "string") return fail(order);
  const market = order.market;
  if (!market.open) return fail("market_closed");
  const priceTicks = command.priceTicks;
  const lots = command.quantityLots;
  const code = limitCode(market, priceTicks, lots);
  if (code !== null) return fail(code);
  const holdNew = holdFor(market, order.side === "buy", priceTicks, lots);
  const holdExtra = holdNew - order.heldAmount;
  if (holdExtra > 0n && order.holdAccount.available < holdExtra) {
    return fail("insufficient_balance");
  }

  const priceBefore = order.priceTicks;
  const quantityBefore = order.quantityLots;
  const filledBefore = order.filledLots;
  if (holdExtra > 0n) {
    hold(state, order.holdAccount, holdExtra);
    order.heldAmount = holdNew;
  }
  order.priceTicks = priceTicks;
  order.quantityLots = filledBefore + lots;
  state.events.push({
    type: "order_replaced",
    orderId: order.orderId,
    priceTicks,
    remainingLots: lots,
    heldAmount: order.heldAmount,
  });
  state.taker = order;
  const outcome = order.book.replace(
    order.orderId,
    { priceTicks, quantityLots: lots, timeInForce: order.timeInForce },
    state.listener,
  );
  state.taker = null;
  assert(outcome !== undefined, "an open order was not in its book");
  const value = okValue();
  value.orderId = order.orderId;
  switch (outcome.outcome) {
    case "rejected_post_only":
    case "rejected_fok":
    case "rejected_book_full":
      assert(order.filledLots === filledBefore, "a rejected replacement filled");
      order.priceTicks = priceBefore;
      order.quantityLots = quantityBefore;
      if (holdExtra > 0n) {
        release(state, order.holdAccount, holdExtra);
        order.heldAmount -= holdExtra;
      }
      return fail(bookRejectCode(outcome.outcome));
    case "rested":
      settleRest(
        state,
        order,
        outcome.restingLots,
        false,
        order.filledLots === filledBefore ? holdNew : null,
      );
      value.orderStatus = "open";
      break;
    case "filled":
    case "expired":
      settleGone(state, order, outcome.outcome);
      value.orderStatus = outcome.outcome;
      break;
  }
  value.filledLots = order.filledLots - filledBefore;
  value.restingLots = outcome.restingLots;
  return ok(value);
}

/**
 * What an order holds: quote `priceTicks × lots × tickLotUnits` for a buy, base
 * `lots × lotUnits` for a sell. Computed in doubles when the product is provably exact (below
 * 2^53), which saves the hot path several bigint allocations; bigint otherwise.
 */
function holdFor(market: MarketState, isBuy: boolean, priceTicks: number, lots: number): bigint {
  if (isBuy) {
    const product = priceTicks * lots * market.tickLotUnitsNumber;
    if (product <= Number.MAX_SAFE_INTEGER) return BigInt(product);
    return BigInt(priceTicks) * BigInt(lots) * market.tickLotUnits;
  }
  const product = lots * market.lotUnitsNumber;
  if (product <= Number.MAX_SAFE_INTEGER) return BigInt(product);
  return BigInt(lots) * market.lotUnits;
}

function bookRejectCode(
  outcome: "rejected_post_only" | "rejected_fok" | "rejected_book_full",
): RejectCode {
  return outcome === "rejected_post_only"
    ? "post_only_would_trade"
    : outcome === "rejected_fok"
      ? "fok_not_filled"
      : "book_full";
}

/** The remainder rests: keep exactly its hold (a buy that filled below its limit gets change). */
function settleRest(
  state: KernelState,
  order: OrderState,
  restingLots: number,
  joining: boolean,
  neededKnown: bigint | null,
): void {
  assert(restingLots === order.quantityLots - order.filledLots, "resting lots disagree");
  const needed =
    neededKnown ?? holdFor(order.market, order.side === "buy", order.priceTicks, restingLots);
  const excess = order.heldAmount - needed;
  assert(excess >= 0n, "a resting order holds too little");
  if (excess > 0n) {
    release(state, order.holdAccount, excess);
    order.heldAmount = needed;
  }
  // A replaced order that rests again never left its owner's open set.
  if (joining) order.owner.orderIds.add(order.orderId);
  state.events.push({
    type: "order_rested",
    orderId: order.orderId,
    priceTicks: order.priceTicks,
    remainingLots: restingLots,
    heldAmount: order.heldAmount,
  });
}

/** Filled or expired: release whatever is still held and forget the order. */
function settleGone(state: KernelState, order: OrderState, status: "filled" | "expired"): void {
  if (order.heldAmount > 0n) release(state, order.holdAccount, order.heldAmount);
  order.heldAmount = 0n;
  removeOpenOrder(state, order, status);
}

/** Validates the numbers of a limit order; null when they are fine. */
function limitCode(
  market: MarketState,
  priceTicks: number,
  quantityLots: number,
): RejectCode | null {
  if (priceTicks <= 0) return "price_must_be_positive";
  if (priceTicks > PRICE_TICKS_MAX) return "price_too_high";
  return lotsCode(market, quantityLots);
}

function lotsCode(market: MarketState, quantityLots: number): RejectCode | null {
  if (quantityLots <= 0) return "quantity_must_be_positive";
  if (quantityLots < market.quantityLotsMin) return "quantity_below_minimum";
  if (quantityLots > market.quantityLotsMax) return "quantity_too_high";
  return NO_REJECT;
}

/**
 * Places an order.
 * Everything is validated before anything changes; the book's own rejections (post-only,
 * fok, full) change nothing in the book, and the hold taken before matching is given back.
 */
function placeOrder(state: KernelState, command: PlaceOrderCommand): CommandResult {
  const market = state.markets.get(command.marketId);
  if (market === undefined) return fail("market_not_found");
  const owner = traderOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (!market.open) return fail("market_closed");
  const isBuy = command.side === "buy";
  const tif = command.timeInForce;
  let priceTicks: number;
  let lots: number;
  let holdAmount: bigint;
  let byQuote = false;
  if (command.orderType === "limit") {
    if (command.priceTicks === null || command.quantityLots === null) {
      return fail("command_malformed");
    }
    if (command.quoteAmount !== null) return fail("order_type_invalid");
    const code = limitCode(market, command.priceTicks, command.quantityLots);
    if (code !== null) return fail(code);
    priceTicks = command.priceTicks;
    lots = command.quantityLots;
    holdAmount = holdFor(market, isBuy, priceTicks, lots);
  } else {
    if (tif !== "ioc") return fail("time_in_force_invalid");
    if (command.priceTicks !== null) return fail("order_type_invalid");
    byQuote = isBuy && command.quoteAmount !== null;
    if (byQuote) {
      if (command.quantityLots !== null) return fail("order_type_invalid");
      const code = checkAmount(market.quote, command.quoteAmount!);
      if (code !== null) return fail(code);
    } else {
      if (command.quantityLots === null || command.quoteAmount !== null) {
        return fail("order_type_invalid");
      }
      const code = lotsCode(market, command.quantityLots);
      if (code !== null) return fail(code);
    }
    if (market.tickId === null) return fail("no_reference_price");
    priceTicks = isBuy ? market.bandBuyMaxTicks : market.bandSellMinTicks;
    if (priceTicks < 1 || priceTicks > PRICE_TICKS_MAX) return fail("price_outside_band");
    if (byQuote) {
      holdAmount = command.quoteAmount!;
      lots = 0;
    } else {
      lots = command.quantityLots!;
      holdAmount = holdFor(market, isBuy, priceTicks, lots);
    }
  }
  const holdAssetId = isBuy ? market.quote.assetId : market.base.assetId;
  if (availableOf(owner, "fund", holdAssetId) < holdAmount) return fail("insufficient_balance");
  const mayRest = tif === "gtc" || tif === "post_only";
  if (mayRest) {
    if (owner.orderIds.size >= owner.openOrdersMax) return fail("too_many_open_orders");
  }
  const book = owner.mode === "real" ? market.bookReal : market.bookDemo;
  if (byQuote) lots = lotsForQuote(market, book, owner.index, priceTicks, holdAmount);

  // Validated: from here on the command succeeds, except for the book's own rejections.
  const baseAccount = accountOf(state, owner, "fund", market.base.assetId);
  const quoteAccount = accountOf(state, owner, "fund", market.quote.assetId);
  const holdAccount = isBuy ? quoteAccount : baseAccount;
  const orderId = state.orderIdNext++;
  const order: OrderState = {
    orderId,
    clientOrderId: command.id,
    owner,
    market,
    book,
    side: command.side,
    orderType: command.orderType,
    timeInForce: tif,
    priceTicks,
    quantityLots: lots,
    quoteAmount: byQuote ? holdAmount : null,
    filledLots: 0,
    heldAmount: holdAmount,
    holdAccount,
    baseAccount,
    quoteAccount,
    status: "open",
    createdAtMs: command.atMs,
  };
  const value = okValue();
  value.orderId = orderId;
  if (lots === 0) {
    // A market buy whose quote amount cannot pay for one lot within the band: nothing trades.
    state.events.push({ type: "order_accepted", order: orderView(order) });
    order.heldAmount = 0n;
    order.status = "expired";
    state.events.push({ type: "order_done", orderId, status: "expired", filledLots: 0 });
    value.orderStatus = "expired";
    value.filledLots = 0;
    value.restingLots = 0;
    return ok(value);
  }
  hold(state, holdAccount, holdAmount);
  state.orders.set(orderId, order);
  state.events.push({ type: "order_accepted", order: orderView(order) });
  state.taker = order;
  const outcome = book.submit(
    {
      orderId,
      ownerId: owner.index,
      side: command.side,
      priceTicks,
      quantityLots: lots,
      timeInForce: tif,
    },
    state.listener,
  );
  state.taker = null;
  switch (outcome.outcome) {
    case "rejected_post_only":
    case "rejected_fok":
    case "rejected_book_full":
      assert(order.filledLots === 0, "a rejected submission filled");
      release(state, holdAccount, holdAmount);
      state.orders.delete(orderId);
      state.orderIdNext--;
      return fail(bookRejectCode(outcome.outcome));
    case "rested":
      settleRest(
        state,
        order,
        outcome.restingLots,
        true,
        order.filledLots === 0 ? holdAmount : null,
      );
      value.orderStatus = "open";
      break;
    case "filled":
    case "expired":
      settleGone(state, order, outcome.outcome);
      value.orderStatus = outcome.outcome;
      break;
  }
  value.filledLots = outcome.filledLots;
  value.restingLots = outcome.restingLots;
  return ok(value);
}

/** Lots a quote amount buys, walking the asks best first up to the band edge. */
function lotsForQuote(
  market: MarketState,
  book: MarketState["bookReal"],
  ownerIndex: number,
  priceMaxTicks: number,
  quoteAmount: bigint,
): number {
  let remaining = quoteAmount;
  let lots = 0;
  const lotsMax = market.quantityLotsMax;
  book.walk("buy", ownerIndex, (priceTicks, quantityLots) => {
    if (priceTicks > priceMaxTicks) return false;
    const lotCost = BigInt(priceTicks) * market.tickLotUnits;
    // Whole lots only: round the affordable quantity down.
    const affordable = divFloor(remaining, lotCost);
    let take = affordable < BigInt(quantityLots) ? Number(affordable) : quantityLots;
    if (take > lotsMax - lots) take = lotsMax - lots;
    lots += take;
    remaining -= BigInt(take) * lotCost;
    return take === quantityLots && lots < lotsMax;
  });
  return lots;
}

// ---------------------------------------------------------------------------------------------
// Views

export function orderView(order: OrderState): OrderView {
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    ownerId: order.owner.ownerId,
    mode: order.owner.mode,
    marketId: order.market.marketId,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    priceTicks: order.priceTicks,
    quantityLots: order.quantityLots,
    quoteAmount: order.quoteAmount,
    filledLots: order.filledLots,
    remainingLots: order.quantityLots - order.filledLots,
    heldAmount: order.heldAmount,
    status: order.status,
    createdAtMs: order.createdAtMs,
  };
}

export function balanceView(account: Account): AccountBalance {
  return {
    account: account.key,
    ownerId: account.ownerId,
    mode: account.mode,
    wallet: account.wallet,
    assetId: account.assetId,
    available: account.available,
    held: account.held,
  };
}

export function marketView(market: MarketState): MarketView {
  return {
    marketId: market.marketId,
    baseAssetId: market.base.assetId,
    quoteAssetId: market.quote.assetId,
    instrumentId: market.instrumentId,
    priceStep: market.priceStep,
    lotSize: market.lotSize,
    lotUnits: market.lotUnits,
    tickLotUnits: market.tickLotUnits,
    quantityLotsMin: market.quantityLotsMin,
    quantityLotsMax: market.quantityLotsMax,
    feeBpsMaker: market.feeBpsMaker,
    feeBpsTaker: market.feeBpsTaker,
    priceBandBps: market.priceBandBps,
    levelsPerSideMax: market.levelsPerSideMax,
    ordersPerBookMax: market.ordersPerBookMax,
    open: market.open,
    baseScale: market.base.scale,
    quoteScale: market.quote.scale,
  };
}

/** Code-unit order, independent of locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
