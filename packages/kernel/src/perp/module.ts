// Perpetual contracts as a kernel module (issue 19, kernel wiring). See docs/perpetuals.md §12
// for the decisions and engine.ts for the money paths.

import { assert } from "../assert.ts";
import { emit } from "../events.ts";
import { accountOf, findOwner, openOwner } from "../ledger/accounts.ts";
import { hold, release } from "../ledger/post.ts";
import type { OwnerState } from "../ledger/state.ts";
import type { FieldKind, Handler, Json, KernelModule } from "../module.ts";
import { fail, type RejectCode } from "../reject-codes.ts";
import { DONE, ok } from "../results.ts";
import { scheduleEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import {
  cancelPerpOrder,
  closeAtMark,
  coverNegative,
  createPerpListener,
  crossSiblingsOfWallet,
  outflowCode,
  crossSiblings,
  crossUnrealised,
  finishOrder,
  isFund,
  isLiquidatableNow,
  liquidate,
  payClearing,
  perpAccountOf,
  poolOf,
  receive,
  reindex,
  settleTouched,
  submitOrder,
} from "./engine.ts";
import {
  averagePremiumE8,
  fundingRateE8,
  fundingSettlement,
  nextFundingAtMs,
  premiumE8FromMid,
} from "./funding.ts";
import "./kernel-types.ts";
import type { DefinePerpMarketCommand } from "./kernel-types.ts";
import {
  CLEARING_OWNER,
  createPerpState,
  FUNDING_REMAINDER_OWNER,
  sideOf,
  type PerpAccount,
  type PerpMarketState,
  type PerpOrder,
  type PerpSide,
} from "./kernel-state.ts";
import { initialMargin, maxRemovableMargin, orderMarginHold } from "./margin.ts";
import { indexTicksFromPrice, markPrice } from "./mark-price.ts";
import { definePerpMarket, notionalMaxForLeverage, type MaintenanceTier } from "./params.ts";
import { notional, unrealisedPnl } from "./position.ts";
import { createTriggerIndex } from "./trigger-index.ts";
import { abs, BPS, divFloor, max, min } from "./units.ts";

const ownerMode = [
  ["ownerId", "string"],
  ["mode", "mode"],
] as const satisfies readonly (readonly [string, FieldKind])[];
const ownerMarket = [...ownerMode, ["marketId", "string"]] as const;

const PRICE_MAX = 1_000_000_000_000;

function parseTiers(text: string): MaintenanceTier[] | null {
  const tiers: MaintenanceTier[] = [];
  for (const row of text.split(";")) {
    const parts = row.split(":");
    if (parts.length !== 4 || parts.some((p) => !/^\d{1,30}$/.test(p))) return null;
    tiers.push({
      notionalFloor: BigInt(parts[0]!),
      maintenanceMarginRateBps: Number(parts[1]),
      maintenanceAmount: BigInt(parts[2]!),
      leverageMax: Number(parts[3]),
    });
  }
  return tiers;
}

function systemAccount(state: KernelState, mode: Mode, ownerId: string, assetId: string) {
  const owner = state.ledger.owners.get(mode + "|" + ownerId) ?? openOwner(state, ownerId, mode);
  return accountOf(state, owner, "contract", assetId);
}

function createSide(
  state: KernelState,
  market: PerpMarketState,
  mode: Mode,
  nowMs: number,
): PerpSide {
  const assetId = market.params.quoteAssetId;
  const clearing = systemAccount(state, mode, CLEARING_OWNER, assetId);
  clearing.negativeAllowed = true;
  const fund = systemAccount(state, mode, systemOwners.insuranceFund, assetId);
  fund.negativeAllowed = true;
  return {
    market,
    mode,
    book: state.bookFactory({
      levelsPerSideMax: state.options.levelsPerSideMax,
      ordersMax: state.options.ordersPerBookMax,
    }),
    mark: null,
    triggers: createTriggerIndex(),
    accounts: new Map(),
    multiCross: new Set(),
    premiumSamples: [],
    fundingStartMs: nowMs,
    clearing,
    fund,
    fees: systemAccount(state, mode, systemOwners.fees, assetId),
    remainder: systemAccount(state, mode, FUNDING_REMAINDER_OWNER, assetId),
  };
}

/** Builds a market from its definition (command or snapshot); a code when it is refused. */
function buildMarket(
  state: KernelState,
  c: Omit<DefinePerpMarketCommand, "type" | "id" | "atMs">,
  nowMs: number,
): PerpMarketState | RejectCode {
  const asset = state.reference.assets.get(c.quoteAssetId);
  if (asset === undefined) return "asset_not_found";
  const tiers = parseTiers(c.tiers);
  if (tiers === null) return "perp_tiers_invalid";
  const defined = definePerpMarket({ ...c, quoteScale: asset.scale, tiers });
  if (!defined.ok) return defined.codes[0]!;
  const definition: Record<string, string | number> = { ...c };
  const market = { params: defined.value, definition } as PerpMarketState;
  market.real = createSide(state, market, "real", nowMs);
  market.demo = createSide(state, market, "demo", nowMs);
  return market;
}

// ---- Handlers -------------------------------------------------------------------------------

function trader(state: KernelState, ownerId: string, mode: Mode): OwnerState | RejectCode {
  const owner = findOwner(state, ownerId, mode);
  if (typeof owner === "string") return owner;
  if (owner.system && owner.ownerId !== systemOwners.marketMaker) return "owner_not_allowed";
  return owner;
}

function commandedAccount(
  state: KernelState,
  command: { ownerId: string; mode: Mode; marketId: string },
): PerpAccount | RejectCode {
  const market = state.perp.markets.get(command.marketId);
  if (market === undefined) return "market_not_found";
  const owner = trader(state, command.ownerId, command.mode);
  if (typeof owner === "string") return owner;
  return perpAccountOf(state, sideOf(market, command.mode), owner);
}

function done(state: KernelState) {
  settleTouched(state);
  return DONE;
}

type PerpCommandType =
  | "define_perp_market"
  | "set_perp_leverage"
  | "set_perp_margin_mode"
  | "place_perp_order"
  | "cancel_perp_order"
  | "add_perp_margin"
  | "remove_perp_margin"
  | "set_perp_tp_sl"
  | "cancel_perp_tp_sl"
  | "close_perp_position"
  | "reverse_perp_position"
  | "close_all_perp";

/** A market order for a position action, through place_perp_order's checks. */
function positionOrder(
  state: KernelState,
  command: { id: string; atMs: number; ownerId: string; mode: Mode; marketId: string },
  reverse: boolean,
) {
  const account = commandedAccount(state, command);
  if (typeof account === "string") return fail(account);
  const size = account.position.sizeLots;
  if (size === 0n) return fail("position_not_found");
  const lots = abs(size) * (reverse ? 2n : 1n);
  if (lots > BigInt(Number.MAX_SAFE_INTEGER)) return fail("quantity_too_high");
  if (account.side.mark === null) return fail("no_reference_price");
  const params = account.side.market.params;
  if (lots < BigInt(params.quantityLotsMin)) return fail("quantity_below_minimum");
  if (lots > BigInt(params.quantityLotsMax)) return fail("quantity_too_high");
  const closingSide = size > 0n ? "sell" : "buy";
  if (!reverse) {
    // A close replaces the owner's orders on the closing side in this market (they would count
    // as reducing the same lots); after the checks above the order itself cannot be refused.
    for (const id of [...account.orders].sort((a, b) => a - b)) {
      const order = state.perp.orders.get(id)!;
      if (order.side === closingSide) cancelPerpOrder(state, order);
    }
  }
  return handlers.place_perp_order(state, {
    type: "place_perp_order",
    id: command.id,
    atMs: command.atMs,
    ownerId: command.ownerId,
    mode: command.mode,
    marketId: command.marketId,
    side: closingSide,
    orderType: "market",
    timeInForce: "ioc",
    priceTicks: null,
    quantityLots: Number(lots),
    reduceOnly: !reverse,
  });
}

const handlers: { [K in PerpCommandType]: Handler<K> } = {
  close_perp_position(state, command) {
    return positionOrder(state, command, false);
  },
  reverse_perp_position(state, command) {
    return positionOrder(state, command, true);
  },
  close_all_perp(state, command) {
    const owner = trader(state, command.ownerId, command.mode);
    if (typeof owner === "string") return fail(owner);
    const open = (state.perp.byOwner.get(owner.key) ?? [])
      .filter((a) => a.position.sizeLots !== 0n)
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    if (open.length === 0) return fail("position_not_found");
    for (const account of open) {
      if (account.position.sizeLots === 0n) continue; // closed meanwhile (a liquidation)
      const marketId = account.side.market.params.marketId;
      positionOrder(state, { ...command, marketId }, false);
    }
    return DONE;
  },
  define_perp_market(state, command) {
    if (state.perp.markets.has(command.marketId) || state.reference.markets.has(command.marketId)) {
      return fail("market_exists");
    }
    const { type: _t, id: _i, atMs: _a, ...definition } = command;
    const market = buildMarket(state, definition, state.nowMs);
    if (typeof market === "string") return fail(market);
    state.perp.markets.set(command.marketId, market);
    scheduleEntry(state, {
      dueMs: nextFundingAtMs(market.params, state.nowMs),
      module: "perp",
      kind: "funding",
      payload: command.marketId,
    });
    return DONE;
  },
  set_perp_leverage(state, command) {
    const account = commandedAccount(state, command);
    if (typeof account === "string") return fail(account);
    const params = account.side.market.params;
    const leverage = command.leverage;
    if (!Number.isSafeInteger(leverage) || leverage < 1 || leverage > params.leverageMax) {
      return fail("leverage_invalid");
    }
    if (account.position.sizeLots !== 0n) {
      const side = account.side;
      if (side.mark === null) return fail("no_reference_price");
      const u = params.tickLotUnits;
      const value = notional(account.position.sizeLots, side.mark.priceTicks, u);
      const cap = notionalMaxForLeverage(params, leverage);
      if (cap !== null && value > cap) return fail("leverage_above_tier");
      const pnl = unrealisedPnl(account.position, side.mark.priceTicks, u);
      // An isolated position keeps its margin; a cross account must carry the new initial margin.
      if (
        account.marginMode === "cross" &&
        poolOf(state, account).collateral + pnl < initialMargin(value, leverage)
      ) {
        return fail("insufficient_margin");
      }
    }
    account.leverage = leverage;
    state.perp.touched.add(account);
    return done(state);
  },
  set_perp_margin_mode(state, command) {
    const account = commandedAccount(state, command);
    if (typeof account === "string") return fail(account);
    if (command.marginMode !== "cross" && command.marginMode !== "isolated") {
      return fail("command_malformed");
    }
    if (account.position.sizeLots !== 0n || account.orders.size > 0) {
      return fail("margin_mode_locked");
    }
    account.marginMode = command.marginMode;
    state.perp.touched.add(account);
    return done(state);
  },
  place_perp_order(state, command) {
    const account = commandedAccount(state, command);
    if (typeof account === "string") return fail(account);
    const side = account.side;
    const params = side.market.params;
    if (side.mark === null) return fail("no_reference_price");
    const mark = side.mark.priceTicks;
    const lots = command.quantityLots;
    if (!Number.isSafeInteger(lots) || lots <= 0) return fail("quantity_must_be_positive");
    if (lots < params.quantityLotsMin) return fail("quantity_below_minimum");
    if (lots > params.quantityLotsMax) return fail("quantity_too_high");
    let priceTicks: number;
    if (command.orderType === "limit") {
      if (command.priceTicks === null) return fail("command_malformed");
      if (command.priceTicks <= 0) return fail("price_must_be_positive");
      if (command.priceTicks > PRICE_MAX) return fail("price_too_high");
      priceTicks = command.priceTicks;
    } else {
      if (command.priceTicks !== null) return fail("order_type_invalid");
      if (command.timeInForce !== "ioc") return fail("time_in_force_invalid");
      const band = divFloor(mark * BigInt(params.priceBandBps), BPS);
      const edge = command.side === "buy" ? mark + band : max(1n, mark - band);
      priceTicks = Number(edge);
    }
    const size = account.position.sizeLots;
    const bigLots = BigInt(lots);
    let reducingOpen = 0n;
    for (const id of account.orders) {
      const other = state.perp.orders.get(id)!;
      if (other.side === command.side)
        reducingOpen += BigInt(other.quantityLots - other.filledLots);
    }
    if (command.reduceOnly) {
      const closing = command.side === "buy" ? size < 0n : size > 0n;
      if (!closing || bigLots + reducingOpen > abs(size)) return fail("reduce_only_would_increase");
    }
    const holdInfo = orderMarginHold({
      market: params,
      leverage: account.leverage,
      side: command.side,
      priceTicks: BigInt(priceTicks),
      lots: bigLots,
      markTicks: mark,
      positionSizeLots: size,
      reducingLotsOpen: reducingOpen,
    });
    if (holdInfo.openingLots > 0n) {
      const after = abs(size + (command.side === "buy" ? bigLots : -bigLots));
      if (after > BigInt(params.quantityLotsMax)) return fail("quantity_too_high");
      const cap = notionalMaxForLeverage(params, account.leverage);
      const price = max(BigInt(priceTicks), mark);
      if (cap !== null && notional(after, price, params.tickLotUnits) > cap) {
        return fail("leverage_above_tier");
      }
    }
    const holdAmount = holdInfo.total;
    // Binance's available balance: a cross account's unrealised loss is not available.
    const lossOpen =
      account.marginMode === "cross" && holdAmount > 0n
        ? -min(0n, crossUnrealised(state, account))
        : 0n;
    if (holdAmount + lossOpen > account.wallet.available) return fail("insufficient_margin");
    const mayRest = command.timeInForce === "gtc" || command.timeInForce === "post_only";
    if (mayRest && account.orders.size >= state.options.openOrdersPerOwnerMax) {
      return fail("too_many_open_orders");
    }
    const order: PerpOrder = {
      orderId: state.perp.orderIdNext++,
      clientOrderId: command.id,
      account,
      side: command.side,
      orderType: command.orderType,
      timeInForce: command.timeInForce,
      priceTicks,
      quantityLots: lots,
      filledLots: 0,
      reduceOnly: command.reduceOnly,
      heldAmount: holdAmount,
      createdAtMs: command.atMs,
    };
    if (holdAmount > 0n) hold(state, account.wallet, holdAmount);
    const outcome = submitOrder(state, order);
    if (
      outcome.outcome === "rejected_post_only" ||
      outcome.outcome === "rejected_fok" ||
      outcome.outcome === "rejected_book_full"
    ) {
      if (holdAmount > 0n) release(state, account.wallet, holdAmount);
      state.perp.orders.delete(order.orderId);
      account.orders.delete(order.orderId);
      state.perp.orderIdNext--;
      return fail(
        outcome.outcome === "rejected_post_only"
          ? "post_only_would_trade"
          : outcome.outcome === "rejected_fok"
            ? "fok_not_filled"
            : "book_full",
      );
    }
    let orderStatus: "open" | "filled" | "expired" | "cancelled" = "open";
    if (outcome.outcome !== "rested") {
      if (state.perp.orders.has(order.orderId)) finishOrder(state, order, outcome.outcome);
      orderStatus = outcome.outcome;
    }
    state.perp.touched.add(account);
    settleTouched(state);
    const resting = state.perp.orders.has(order.orderId);
    if (orderStatus === "open" && !resting) orderStatus = "cancelled";
    return ok({
      orderId: order.orderId,
      orderStatus,
      filledLots: outcome.filledLots,
      restingLots: resting ? outcome.restingLots : 0,
    });
  },
  cancel_perp_order(state, command) {
    const order = state.perp.orders.get(command.orderId);
    if (order === undefined) return fail("order_not_found");
    const owner = order.account.owner;
    if (owner.ownerId !== command.ownerId) return fail("order_not_found");
    if (owner.mode !== command.mode) return fail("mode_mismatch");
    cancelPerpOrder(state, order);
    settleTouched(state);
    return ok({ orderId: command.orderId, cancelledCount: 1 });
  },
  add_perp_margin(state, command) {
    const account = commandedAccount(state, command);
    if (typeof account === "string") return fail(account);
    if (account.marginMode !== "isolated") return fail("position_not_isolated");
    if (account.position.sizeLots === 0n) return fail("position_not_found");
    if (command.amount <= 0n) return fail("amount_must_be_positive");
    if (command.amount > account.wallet.available) return fail("insufficient_balance");
    hold(state, account.wallet, command.amount);
    account.margin += command.amount;
    state.perp.touched.add(account);
    return done(state);
  },
  remove_perp_margin(state, command) {
    const account = commandedAccount(state, command);
    if (typeof account === "string") return fail(account);
    if (account.marginMode !== "isolated") return fail("position_not_isolated");
    if (account.position.sizeLots === 0n) return fail("position_not_found");
    if (command.amount <= 0n) return fail("amount_must_be_positive");
    const side = account.side;
    if (side.mark === null) return fail("no_reference_price");
    const u = side.market.params.tickLotUnits;
    const margin = initialMargin(
      notional(account.position.sizeLots, side.mark.priceTicks, u),
      account.leverage,
    );
    const pnl = unrealisedPnl(account.position, side.mark.priceTicks, u);
    if (command.amount > maxRemovableMargin(account.margin - account.debt, pnl, margin)) {
      return fail("margin_remove_too_much");
    }
    release(state, account.wallet, command.amount);
    account.margin -= command.amount;
    state.perp.touched.add(account);
    return done(state);
  },
  set_perp_tp_sl(state, command) {
    const account = commandedAccount(state, command);
    if (typeof account === "string") return fail(account);
    if (account.position.sizeLots === 0n) return fail("position_not_found");
    for (const price of [command.takeProfitTicks, command.stopLossTicks]) {
      if (price !== null && price <= 0) return fail("price_must_be_positive");
      if (price !== null && price > PRICE_MAX) return fail("price_too_high");
    }
    account.takeProfitTicks =
      command.takeProfitTicks === null ? null : BigInt(command.takeProfitTicks);
    account.stopLossTicks = command.stopLossTicks === null ? null : BigInt(command.stopLossTicks);
    state.perp.touched.add(account);
    return done(state);
  },
  cancel_perp_tp_sl(state, command) {
    const account = commandedAccount(state, command);
    if (typeof account === "string") return fail(account);
    if (account.takeProfitTicks === null && account.stopLossTicks === null) {
      return fail("nothing_to_cancel");
    }
    account.takeProfitTicks = null;
    account.stopLossTicks = null;
    state.perp.touched.add(account);
    return done(state);
  },
};

// ---- Ticks, triggers and funding ---------------------------------------------------------------

/** A take-profit or stop-loss fired: a reduce-only market order for the whole position. */
function fireTpSl(state: KernelState, account: PerpAccount, kind: "take_profit" | "stop_loss") {
  const side = account.side;
  const params = side.market.params;
  const triggerTicks = kind === "take_profit" ? account.takeProfitTicks : account.stopLossTicks;
  const size = account.position.sizeLots;
  if (size === 0n || triggerTicks === null) return;
  account.takeProfitTicks = null;
  account.stopLossTicks = null;
  emit(state, {
    type: "perp_trigger_fired",
    marketId: params.marketId,
    mode: side.mode,
    ownerId: account.owner.ownerId,
    kind,
    triggerTicks,
    markTicks: side.mark!.priceTicks,
    tickIds: [...side.mark!.tickIds],
  });
  // Other reduce-only orders give way to the trigger's order.
  for (const id of [...account.orders].sort((a, b) => a - b)) {
    const order = state.perp.orders.get(id)!;
    if (order.reduceOnly) cancelPerpOrder(state, order);
  }
  const mark = side.mark!.priceTicks;
  const band = divFloor(mark * BigInt(params.priceBandBps), BPS);
  const sell = size > 0n;
  const order: PerpOrder = {
    orderId: state.perp.orderIdNext++,
    clientOrderId: state.command!.id,
    account,
    side: sell ? "sell" : "buy",
    orderType: "market",
    timeInForce: "ioc",
    priceTicks: Number(sell ? max(1n, mark - band) : mark + band),
    quantityLots: Number(abs(size)),
    filledLots: 0,
    reduceOnly: true,
    heldAmount: 0n,
    createdAtMs: state.nowMs,
  };
  const outcome = submitOrder(state, order);
  if (state.perp.orders.has(order.orderId)) {
    finishOrder(state, order, outcome.outcome === "filled" ? "filled" : "expired");
  }
  state.perp.touched.add(account);
}

function onSideTick(state: KernelState, side: PerpSide, tickId: string, indexTicks: bigint) {
  const params = side.market.params;
  const bid = side.book.bestPrice("buy");
  const ask = side.book.bestPrice("sell");
  const top =
    bid === undefined || ask === undefined
      ? null
      : { bidTicks: BigInt(bid), askTicks: BigInt(ask) };
  side.mark = markPrice(params, { tickId, priceTicks: indexTicks }, top);
  if (side.accounts.size === 0) return;
  emit(state, {
    type: "perp_mark",
    marketId: params.marketId,
    mode: side.mode,
    markTicks: side.mark.priceTicks,
    indexTicks,
    tickIds: [...side.mark.tickIds],
  });
  if (top !== null && state.nowMs >= side.fundingStartMs) {
    side.premiumSamples.push({
      atMs: state.nowMs,
      tickId,
      premiumE8: premiumE8FromMid(indexTicks, top.bidTicks, top.askTicks),
    });
  }
  // Cross accounts spread over several markets: this mark moves their pools elsewhere too.
  for (const account of side.multiCross) {
    for (const other of crossSiblings(state, account)) state.perp.touched.add(other);
  }
  // The sorted index hands back only the triggers this mark reaches: O(log n + fired).
  for (const trigger of side.triggers.fire(side.mark.priceTicks)) {
    const account = side.accounts.get(trigger.id.slice(2))!;
    const kind = trigger.id[0];
    if (kind === "L") {
      if (isLiquidatableNow(state, account)) liquidate(state, account);
      else state.perp.touched.add(account); // an estimate that moved: re-index
    } else {
      fireTpSl(state, account, kind === "T" ? "take_profit" : "stop_loss");
    }
  }
  settleTouched(state);
}

function settleFunding(state: KernelState, side: PerpSide): void {
  const params = side.market.params;
  const now = state.nowMs;
  if (side.mark === null) {
    side.premiumSamples = [];
    side.fundingStartMs = now;
    return;
  }
  const samples = side.premiumSamples;
  const average =
    now > side.fundingStartMs ? averagePremiumE8(samples, side.fundingStartMs, now) : 0n;
  const rate = fundingRateE8(params, average);
  const holders = [...side.accounts.values()]
    .filter((a) => a.position.sizeLots !== 0n)
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  const settlement = fundingSettlement(
    params,
    holders.map((a) => ({ id: a.key, sizeLots: a.position.sizeLots })),
    side.mark,
    rate,
    samples,
  );
  const refs = { tickId: side.mark.tickIds[side.mark.tickIds.length - 1]! };
  // Payers first (into clearing, debts for what they cannot pay), then receivers, then the
  // rounding remainder to its named account: clearing ends where it started.
  for (const payment of settlement.payments) {
    if (payment.amount < 0n) {
      payClearing(state, side.accounts.get(payment.id)!, -payment.amount, "perp_funding", refs);
    }
  }
  for (const payment of settlement.payments) {
    if (payment.amount > 0n) {
      receive(
        state,
        side.accounts.get(payment.id)!,
        side.clearing,
        payment.amount,
        "perp_funding",
        refs,
      );
    }
  }
  if (settlement.remainder > 0n) {
    postRemainder(state, side, settlement.remainder, refs);
  }
  side.premiumSamples = [];
  side.fundingStartMs = now;
  emit(state, {
    type: "perp_funding_settled",
    marketId: params.marketId,
    mode: side.mode,
    rateE8: rate,
    markTicks: settlement.markTicks,
    tickIds: settlement.tickIds,
    payments: settlement.payments.map((p) => ({
      ownerId: side.accounts.get(p.id)!.owner.ownerId,
      sizeLots: p.sizeLots,
      amount: p.amount,
    })),
    remainder: settlement.remainder,
  });
  for (const holder of holders) state.perp.touched.add(holder);
  settleTouched(state);
}

import { post } from "../ledger/post.ts";
function postRemainder(
  state: KernelState,
  side: PerpSide,
  amount: bigint,
  refs: { tickId: string },
) {
  post(state, {
    debit: side.clearing,
    credit: side.remainder,
    amount,
    reason: "perp_funding",
    refs,
  });
}

// ---- Snapshot -------------------------------------------------------------------------------

function big(value: bigint | null): string | null {
  return value === null ? null : value.toString();
}

function writeSide(side: PerpSide): Json {
  const accounts = [...side.accounts.values()]
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((a): Json => [
      a.owner.ownerId,
      a.leverage,
      a.marginMode,
      a.position.sizeLots.toString(),
      a.position.entryCost.toString(),
      a.margin.toString(),
      a.debt.toString(),
      big(a.takeProfitTicks),
      big(a.stopLossTicks),
    ]);
  const queue: Json[] = [];
  for (const resting of side.book.orders()) queue.push(resting.orderId);
  return {
    mark:
      side.mark === null
        ? null
        : [side.mark.priceTicks.toString(), side.mark.indexTicks.toString(), side.mark.tickIds],
    samples: side.premiumSamples.map((s): Json => [s.atMs, s.tickId, s.premiumE8.toString()]),
    fundingStartMs: side.fundingStartMs,
    accounts,
    book: queue,
  };
}

export const perpModule = {
  name: "perp",
  createState(state: KernelState) {
    return {
      ...createPerpState(),
      touched: new Set<PerpAccount>(),
      byOwner: new Map<string, PerpAccount[]>(),
      listener: createPerpListener(state),
    };
  },
  commands: {
    define_perp_market: {
      typeCode: 30,
      fields: [
        ["marketId", "string"],
        ["instrumentId", "string"],
        ["quoteAssetId", "string"],
        ["priceStep", "string"],
        ["contractSize", "string"],
        ["quantityLotsMin", "int"],
        ["quantityLotsMax", "int"],
        ["leverageMax", "int"],
        ["leverageDefault", "int"],
        ["tiers", "string"],
        ["feeBpsMaker", "int"],
        ["feeBpsTaker", "int"],
        ["fundingIntervalMs", "int"],
        ["fundingCapBps", "int"],
        ["interestBpsPerDay", "int"],
        ["priceBandBps", "int"],
        ["markBasisCapBps", "int"],
        ["liquidationFeeBps", "int"],
      ],
      result: [],
    },
    set_perp_leverage: { typeCode: 31, fields: [...ownerMarket, ["leverage", "int"]], result: [] },
    set_perp_margin_mode: {
      typeCode: 32,
      fields: [...ownerMarket, ["marginMode", "string"]],
      result: [],
    },
    place_perp_order: {
      typeCode: 33,
      fields: [
        ...ownerMarket,
        ["side", "side"],
        ["orderType", "order_type"],
        ["timeInForce", "tif"],
        ["priceTicks", "int?"],
        ["quantityLots", "int"],
        ["reduceOnly", "bool"],
      ],
      result: ["orderId", "orderStatus", "filledLots", "restingLots"],
    },
    cancel_perp_order: {
      typeCode: 34,
      fields: [...ownerMode, ["orderId", "int"]],
      result: ["orderId", "cancelledCount"],
    },
    add_perp_margin: { typeCode: 35, fields: [...ownerMarket, ["amount", "bigint"]], result: [] },
    remove_perp_margin: {
      typeCode: 36,
      fields: [...ownerMarket, ["amount", "bigint"]],
      result: [],
    },
    set_perp_tp_sl: {
      typeCode: 37,
      fields: [...ownerMarket, ["takeProfitTicks", "int?"], ["stopLossTicks", "int?"]],
      result: [],
    },
    cancel_perp_tp_sl: { typeCode: 38, fields: [...ownerMarket], result: [] },
    close_perp_position: {
      typeCode: 39,
      fields: [...ownerMarket],
      result: ["orderId", "orderStatus", "filledLots", "restingLots"],
    },
    reverse_perp_position: {
      typeCode: 40,
      fields: [...ownerMarket],
      result: ["orderId", "orderStatus", "filledLots", "restingLots"],
    },
    close_all_perp: { typeCode: 41, fields: [...ownerMode], result: [] },
  },
  handlers,
  onTick(state, tick) {
    for (const market of state.perp.markets.values()) {
      if (market.params.instrumentId !== tick.instrumentId) continue;
      const indexTicks = indexTicksFromPrice(tick.price, market.params.priceStepScaled);
      if (indexTicks === null || indexTicks > BigInt(PRICE_MAX)) continue;
      onSideTick(state, market.real, tick.tickId, indexTicks);
      onSideTick(state, market.demo, tick.tickId, indexTicks);
    }
  },
  runScheduled(state, entry) {
    assert(entry.kind === "funding", "unknown perp schedule entry");
    const market = state.perp.markets.get(entry.payload as string)!;
    settleFunding(state, market.real);
    settleFunding(state, market.demo);
    scheduleEntry(state, {
      dueMs: nextFundingAtMs(market.params, state.nowMs),
      module: "perp",
      kind: "funding",
      payload: market.params.marketId,
    });
  },
  outflowCode(state, wallet, amount) {
    return outflowCode(state, wallet, amount);
  },
  afterOutflow(state, wallet) {
    for (const account of crossSiblingsOfWallet(state, wallet)) state.perp.touched.add(account);
    settleTouched(state);
  },
  onDemoReset(state, owner) {
    // Orders are cancelled and positions taken over by the demo insurance fund at the mark.
    let count = 0;
    const accounts = [...(state.perp.byOwner.get(owner.key) ?? [])].sort((a, b) =>
      a.key < b.key ? -1 : 1,
    );
    for (const account of accounts) {
      for (const id of [...account.orders].sort((a, b) => a - b)) {
        cancelPerpOrder(state, state.perp.orders.get(id)!);
        count++;
      }
    }
    for (const account of accounts) {
      closeAtMark(state, account);
      account.takeProfitTicks = null;
      account.stopLossTicks = null;
    }
    settleTouched(state);
    return count;
  },
  snapshot: {
    write(state) {
      const perp = state.perp;
      if (perp.markets.size === 0) return { perp: undefined };
      const markets = [...perp.markets.values()]
        .sort((a, b) => (a.params.marketId < b.params.marketId ? -1 : 1))
        .map((m): Json => ({
          definition: m.definition,
          real: writeSide(m.real),
          demo: writeSide(m.demo),
        }));
      const orders = [...perp.orders.values()]
        .sort((a, b) => a.orderId - b.orderId)
        .map((o): Json => [
          o.orderId,
          o.clientOrderId,
          o.account.key,
          o.side,
          o.orderType,
          o.timeInForce,
          o.priceTicks,
          o.quantityLots,
          o.filledLots,
          o.reduceOnly,
          o.heldAmount.toString(),
          o.createdAtMs,
        ]);
      return {
        perp: { orderIdNext: perp.orderIdNext, fillIdNext: perp.fillIdNext, markets, orders },
      };
    },
    read(state, json) {
      const data = json.perp as
        { orderIdNext: number; fillIdNext: number; markets: Json[]; orders: Json[][] } | undefined;
      if (data === undefined) return;
      const perp = state.perp;
      perp.orderIdNext = data.orderIdNext;
      perp.fillIdNext = data.fillIdNext;
      const queues: [PerpSide, number[]][] = [];
      for (const raw of data.markets) {
        const m = raw as { definition: Record<string, string | number>; real: Json; demo: Json };
        const market = buildMarket(
          state,
          m.definition as unknown as Omit<DefinePerpMarketCommand, "type" | "id" | "atMs">,
          0,
        );
        assert(typeof market !== "string", "snapshot perp market refused");
        perp.markets.set(market.params.marketId, market);
        for (const mode of ["real", "demo"] as const) {
          const side = sideOf(market, mode);
          const s = m[mode] as {
            mark: [string, string, string[]] | null;
            samples: [number, string, string][];
            fundingStartMs: number;
            accounts: Json[][];
            book: number[];
          };
          side.mark =
            s.mark === null
              ? null
              : {
                  priceTicks: BigInt(s.mark[0]),
                  indexTicks: BigInt(s.mark[1]),
                  basisTicks: BigInt(s.mark[0]) - BigInt(s.mark[1]),
                  tickIds: [...s.mark[2]],
                };
          side.premiumSamples = s.samples.map(([atMs, tickId, p]) => ({
            atMs,
            tickId,
            premiumE8: BigInt(p),
          }));
          side.fundingStartMs = s.fundingStartMs;
          for (const r of s.accounts) {
            const owner = state.ledger.owners.get(mode + "|" + (r[0] as string))!;
            const account = perpAccountOf(state, side, owner);
            account.leverage = r[1] as number;
            account.marginMode = r[2] as "cross" | "isolated";
            account.position = {
              sizeLots: BigInt(r[3] as string),
              entryCost: BigInt(r[4] as string),
            };
            account.margin = BigInt(r[5] as string);
            account.debt = BigInt(r[6] as string);
            account.takeProfitTicks = r[7] === null ? null : BigInt(r[7] as string);
            account.stopLossTicks = r[8] === null ? null : BigInt(r[8] as string);
          }
          queues.push([side, s.book]);
        }
      }
      for (const r of data.orders) {
        const key = r[2] as string;
        const [mode, , marketId] = splitKey(key);
        const side = sideOf(perp.markets.get(marketId)!, mode as Mode);
        const account = side.accounts.get(key)!;
        const order: PerpOrder = {
          orderId: r[0] as number,
          clientOrderId: r[1] as string,
          account,
          side: r[3] as "buy" | "sell",
          orderType: r[4] as "limit" | "market",
          timeInForce: r[5] as PerpOrder["timeInForce"],
          priceTicks: r[6] as number,
          quantityLots: r[7] as number,
          filledLots: r[8] as number,
          reduceOnly: r[9] as boolean,
          heldAmount: BigInt(r[10] as string),
          createdAtMs: r[11] as number,
        };
        perp.orders.set(order.orderId, order);
        account.orders.add(order.orderId);
      }
      for (const [side, queue] of queues) {
        for (const orderId of queue) {
          const order = perp.orders.get(orderId)!;
          const outcome = side.book.submit(
            {
              orderId,
              ownerId: order.account.owner.index,
              side: order.side,
              priceTicks: order.priceTicks,
              quantityLots: order.quantityLots - order.filledLots,
              timeInForce: "gtc",
            },
            {
              onFill() {
                throw new Error("a restored perp order crossed");
              },
              onSelfTradeCancel() {
                throw new Error("a restored perp order crossed its owner");
              },
            },
          );
          assert(outcome.outcome === "rested", "a restored perp order did not rest");
        }
        for (const account of side.accounts.values()) reindex(state, account);
      }
    },
  },
  checkInvariants(state) {
    checkPerpInvariants(state);
  },
} satisfies KernelModule;

function splitKey(key: string): [string, string, string] {
  const first = key.indexOf("|");
  const last = key.lastIndexOf("|");
  return [key.slice(0, first), key.slice(first + 1, last), key.slice(last + 1)];
}

/**
 * Per market and mode: open interest long = short; nobody but the fund is under maintenance at
 * the mark; every open order rests in its book with its
 * lots; flat positions keep no cost, margin or debt. Per mode and quote asset: clearing + Σ debts
 * = −Σ signed entry cost. Every contract wallet holds exactly its orders' holds and position
 * margins (added to `heldExpected` for the ledger's hold check).
 */
export function checkPerpInvariants(state: KernelState): void {
  const perp = state.perp;
  const clearingSums = new Map<object, bigint>();
  for (const market of perp.markets.values()) {
    for (const side of [market.real, market.demo]) {
      let long = 0n;
      let short = 0n;
      let sum = clearingSums.get(side.clearing) ?? side.clearing.available;
      for (const account of side.accounts.values()) {
        const { sizeLots, entryCost } = account.position;
        if (sizeLots > 0n) long += sizeLots;
        else short -= sizeLots;
        sum += account.debt + (sizeLots > 0n ? entryCost : sizeLots < 0n ? -entryCost : 0n);
        assert(
          account.margin >= 0n && account.debt >= 0n,
          `negative margin or debt ${account.key}`,
        );
        if (sizeLots === 0n) {
          assert(entryCost === 0n && account.margin === 0n, `flat ${account.key} keeps cost`);
          assert(isFund(account.owner) || account.debt === 0n, `flat ${account.key} owes`);
        }
        account.wallet.heldExpected += account.margin;
        // Every liquidation runs in the command whose tick or change caused it.
        assert(!isLiquidatableNow(state, account), `${account.key} is under maintenance`);
      }
      clearingSums.set(side.clearing, sum);
      assert(
        long === short,
        `open interest ${market.params.marketId} ${side.mode}: ${long} ≠ ${short}`,
      );
    }
  }
  for (const [, sum] of clearingSums) assert(sum === 0n, `perp clearing off by ${sum}`);
  for (const order of perp.orders.values()) {
    const resting = order.account.side.book.get(order.orderId);
    assert(resting !== undefined, `perp order ${order.orderId} not in its book`);
    assert(
      resting.remainingLots === order.quantityLots - order.filledLots,
      `perp order ${order.orderId} lots disagree`,
    );
    assert(order.heldAmount >= 0n, `perp order ${order.orderId} holds a negative amount`);
    order.account.wallet.heldExpected += order.heldAmount;
  }
  let booked = 0;
  for (const market of perp.markets.values())
    booked += market.real.book.orderCount + market.demo.book.orderCount;
  assert(booked === perp.orders.size, "perp books hold orders the kernel does not know");
}

void accountOf;
void coverNegative;
