// The perpetuals commands' handlers and the helpers they share with the module (module.ts).

import { selfTradeModes, type SelfTradeMode } from "../book/types.ts";
import { emit } from "../events.ts";
import { findOwner } from "../ledger/accounts.ts";
import { hold, release } from "../ledger/post.ts";
import type { OwnerState } from "../ledger/state.ts";
import type { Handler } from "../module.ts";
import { fail, type RejectCode } from "../reject-codes.ts";
import { DONE, ok } from "../results.ts";
import type { PlacePerpOrderCommand } from "./kernel-types.ts";
import { scheduleEntry } from "../schedule.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import { crossUnrealised, perpAccountOf, poolOf, settleTouched } from "./engine.ts";
import { cancelPerpOrder, finishOrder, submitOrder } from "./fills.ts";
import { nextFundingAtMs } from "./funding.ts";
import { sideOf, type PerpAccount, type PerpOrder } from "./kernel-state.ts";
import { initialMargin, maxRemovableMargin, orderMarginHold } from "./margin.ts";
import { notionalMaxForLeverage } from "./params.ts";
import { notional, unrealisedPnl } from "./position.ts";
import { divCeil } from "../amount/amount.ts";
import { abs, BPS, divFloor, max, min } from "./units.ts";
import { PRICE_MAX, buildMarket } from "./markets.ts";

function trader(state: KernelState, ownerId: string, mode: Mode): OwnerState | RejectCode {
  const owner = findOwner(state, ownerId, mode);
  if (typeof owner === "string") return owner;
  if (owner.system && owner.ownerId !== systemOwners.marketMaker) return "owner_not_allowed";
  return owner;
}

export function commandedAccount(
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
  | "close_all_perp"
  | "place_perp_order_stp"
  | "amend_perp_order_size";

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

export function placePerpOrder(
  state: KernelState,
  command: PlacePerpOrderCommand,
  selfTradeMode: SelfTradeMode,
): ReturnType<Handler<"place_perp_order">> {
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
    if (other.side === command.side) reducingOpen += BigInt(other.quantityLots - other.filledLots);
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
    // An operator lowered the cap below this owner's leverage (terms.ts): reducing still works.
    if (account.leverage > params.leverageMax) return fail("leverage_invalid");
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
  if (selfTradeMode !== "cancel_resting") order.selfTradeMode = selfTradeMode;
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
    const status = outcome.selfTradeStopped === true ? "cancelled" : outcome.outcome;
    if (state.perp.orders.has(order.orderId)) finishOrder(state, order, status);
    orderStatus = status;
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
}

export const handlers: { [K in PerpCommandType]: Handler<K> } = {
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
    return placePerpOrder(state, command, "cancel_resting");
  },
  place_perp_order_stp(state, command) {
    const mode = command.selfTradeMode as SelfTradeMode;
    if (!selfTradeModes.includes(mode)) return fail("self_trade_mode_invalid");
    return placePerpOrder(state, command as unknown as PlacePerpOrderCommand, mode);
  },
  amend_perp_order_size(state, command) {
    const order = state.perp.orders.get(command.orderId);
    if (order === undefined) return fail("order_not_found");
    const owner = order.account.owner;
    if (owner.ownerId !== command.ownerId) return fail("order_not_found");
    if (owner.mode !== command.mode) return fail("mode_mismatch");
    const lots = command.quantityLots;
    if (lots <= 0) return fail("quantity_must_be_positive");
    const remaining = order.quantityLots - order.filledLots;
    if (lots > remaining) return fail("quantity_too_high");
    if (lots < remaining) {
      const resting = order.account.side.book.reduce(order.orderId, lots);
      if (resting === undefined) return fail("order_not_found");
      order.quantityLots = order.filledLots + lots;
      // Keep the kept lots' share of the hold, rounded up: never less than they need.
      const kept = divCeil(order.heldAmount * BigInt(lots), BigInt(remaining));
      const released = order.heldAmount - kept;
      if (released > 0n) release(state, order.account.wallet, released);
      order.heldAmount = kept;
      emit(state, {
        type: "perp_order_amended",
        orderId: order.orderId,
        remainingLots: lots,
        heldAmount: kept,
        releasedAmount: released,
      });
      state.perp.touched.add(order.account);
      settleTouched(state);
    }
    return ok({ orderId: order.orderId, orderStatus: "open", filledLots: 0, restingLots: lots });
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
