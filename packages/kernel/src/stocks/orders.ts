// Stocks: place and cancel orders, and fills at the recorded quote. Fills run only when the
// order is placed (at the last recorded quote) or from `stocksOnTick` (ticks.ts: a recorded
// tick that crosses), always during the session and citing the tick.

import { recordAgentVolume } from "../agent/handlers.ts";
import { formatAmount } from "../amount/amount.ts";
import { assert } from "../assert.ts";
import { emit } from "../events.ts";
import { collectFee } from "../funds/fee.ts";
import { accountOf, findOwner, ownerOf, systemOwner } from "../ledger/accounts.ts";
import { amountCode, hold, post, release } from "../ledger/post.ts";
import type { OwnerState } from "../ledger/state.ts";
import { ownerKey } from "../ledger/state.ts";
import type { Handler } from "../module.ts";
import type { Tick } from "../reference/types.ts";
import { fail, ok } from "../reject-codes.ts";
import { DONE } from "../results.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import { setArmed } from "./configure.ts";
import {
  crosses,
  executablePrice,
  fillCost,
  limitUnitsOf,
  PRICE_UNITS_SCALE,
  priceUnitsOf,
} from "./pricing.ts";
import {
  holdingKey,
  inventoryKey,
  type StockConfigState,
  type StockHoldingState,
  type StockInventoryState,
  type StockOrderState,
} from "./state.ts";
import type { StockHoldingView, StockInventoryView, StockOrderView } from "./types.ts";

/** Most pending orders per owner and mode. */
export const PENDING_ORDERS_PER_OWNER_MAX = 50;
export const SPREAD_BPS_MAX = 500;
export const COMMISSION_BPS_MAX = 500;
export const STAMP_DUTY_BPS_MAX = 500;
export const TICK_AGE_MS_MAX = 600_000;

export function priceText(units: bigint, priceScale: number): string {
  const text = formatAmount(units, PRICE_UNITS_SCALE);
  const dot = text.indexOf(".");
  const decimals = dot < 0 ? 0 : text.length - dot - 1;
  if (decimals >= priceScale) return text;
  return (dot < 0 ? text + "." : text) + "0".repeat(priceScale - decimals);
}

export function orderView(order: StockOrderState): StockOrderView {
  const { limitUnits: _limit, ...view } = order;
  return { ...view };
}

export function holdingView(holding: StockHoldingState): StockHoldingView {
  const { takeProfitUnits: _tp, stopLossUnits: _sl, ...view } = holding;
  return { ...view };
}

export function inventoryView(inventory: StockInventoryState): StockInventoryView {
  return { ...inventory };
}

export function inventoryOf(
  state: KernelState,
  mode: Mode,
  instrumentId: string,
): StockInventoryState {
  const key = inventoryKey(mode, instrumentId);
  let inventory = state.stocks.inventory.get(key);
  if (inventory === undefined) {
    inventory = { mode, instrumentId, funded: 0n, available: 0n, reserved: 0n };
    state.stocks.inventory.set(key, inventory);
  }
  return inventory;
}

export function holdingOf(
  state: KernelState,
  owner: OwnerState,
  config: StockConfigState,
): StockHoldingState {
  const key = holdingKey(owner.mode, owner.ownerId, config.instrumentId);
  let holding = state.stocks.holdings.get(key);
  if (holding === undefined) {
    holding = {
      ownerId: owner.ownerId,
      mode: owner.mode,
      instrumentId: config.instrumentId,
      assetId: config.assetId,
      quantity: 0n,
      heldQuantity: 0n,
      costBasis: 0n,
      realisedPnl: 0n,
      takeProfit: null,
      stopLoss: null,
      takeProfitUnits: null,
      stopLossUnits: null,
    };
    state.stocks.holdings.set(key, holding);
  }
  return holding;
}

export function assetScale(state: KernelState, assetId: string): number {
  const asset = state.reference.assets.get(assetId);
  assert(asset !== undefined, "a stock's asset is defined");
  return asset.scale;
}

export const stockPlaceOrder: Handler<"stock_place_order"> = (state, command) => {
  const stocks = state.stocks;
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (owner.system) return fail("owner_not_allowed");
  const config = stocks.configs.get(command.instrumentId);
  if (config === undefined) return fail("stock_not_configured");
  if (!config.open) return fail("stock_trading_closed");
  if (command.kind !== "market" && command.kind !== "limit")
    return fail("stock_order_kind_invalid");
  if (command.tif !== "day" && command.tif !== "gtc") return fail("time_in_force_invalid");
  if (command.kind === "market" && (command.tif !== "day" || command.limitPrice !== null)) {
    return fail("stock_order_kind_invalid");
  }
  const lots = command.quantity / config.lotSize;
  if (
    command.quantity <= 0n ||
    command.quantity % config.lotSize !== 0n ||
    lots > BigInt(config.quantityLotsMax)
  ) {
    return fail("stock_quantity_invalid");
  }
  let limitUnits: bigint | null = null;
  if (command.kind === "limit") {
    limitUnits =
      command.limitPrice === null ? null : limitUnitsOf(command.limitPrice, config.priceScale);
    if (limitUnits === null) return fail("stock_price_invalid");
  }
  const session = stocks.sessions.get(config.instrumentId)!;
  if (!session.open && (command.kind === "market" || !command.queueForOpen)) {
    return fail("stock_market_closed");
  }
  const tick = state.reference.ticks.get(config.instrumentId);
  const tickUnits = tick === undefined ? null : priceUnitsOf(tick.price);
  const fresh = tick !== undefined && command.atMs - tick.tickAtMs <= config.tickAgeMaxMs;
  if (command.kind === "market") {
    if (tick === undefined || tickUnits === null) return fail("no_reference_price");
    if (!fresh) return fail("reference_price_stale");
  }
  if ((stocks.pendingPerOwner.get(owner.key) ?? 0) >= PENDING_ORDERS_PER_OWNER_MAX) {
    return fail("stock_too_many_orders");
  }
  const scale = assetScale(state, config.assetId);
  const side = command.side;
  // The price the holds are counted at: the limit, or the market order's executable price.
  const holdPrice = limitUnits ?? executablePrice(config, side, tickUnits!);
  const cost = fillCost(config, side, holdPrice, command.quantity, scale);
  const asset = state.reference.assets.get(config.assetId)!;
  const code = amountCode(asset, cost.notional);
  if (code !== null)
    return fail(code === "amount_must_be_positive" ? "stock_order_too_small" : code);
  const userFund = accountOf(state, owner, "fund", config.assetId);
  const house = systemOwner(state, owner.mode, systemOwners.house);
  const houseFund = accountOf(state, house, "fund", config.assetId);
  const inventory = inventoryOf(state, owner.mode, config.instrumentId);
  let holding: StockHoldingState | undefined;
  if (side === "buy") {
    if (inventory.available < command.quantity) return fail("stock_inventory_insufficient");
    if (userFund.available < cost.net) return fail("insufficient_balance");
  } else {
    holding = stocks.holdings.get(holdingKey(owner.mode, owner.ownerId, config.instrumentId));
    if (holding === undefined || holding.quantity - holding.heldQuantity < command.quantity) {
      return fail("stock_holding_insufficient");
    }
    if (cost.net <= 0n) return fail("stock_order_too_small");
    if (houseFund.available < cost.notional) return fail("stock_house_cash_insufficient");
  }

  const order: StockOrderState = {
    orderId: stocks.orderIdNext++,
    clientOrderId: command.id,
    ownerId: owner.ownerId,
    mode: owner.mode,
    instrumentId: config.instrumentId,
    assetId: config.assetId,
    side,
    kind: command.kind,
    tif: command.tif,
    origin: "user",
    quantity: command.quantity,
    limitPrice: limitUnits === null ? null : priceText(limitUnits, config.priceScale),
    limitUnits,
    prepaid: side === "buy" ? cost.net : 0n,
    houseReserved: side === "sell" ? cost.notional : 0n,
    placedAtMs: command.atMs,
    expiresAfterSession:
      command.tif === "gtc" ? null : session.open ? session.sessionSeq : session.sessionSeq + 1,
    status: "pending",
    closedAtMs: null,
  };
  // Holds: the buyer's prepaid amount and the house's shares; the seller's shares and the
  // house's cash.
  if (side === "buy") {
    hold(state, userFund, order.prepaid);
    inventory.available -= order.quantity;
    inventory.reserved += order.quantity;
  } else {
    holding!.heldQuantity += order.quantity;
    hold(state, houseFund, order.houseReserved);
  }
  addPending(state, order);
  stocks.ordersPlaced++;
  emit(state, { type: "stock_order_placed", order: orderView(order) });
  // In session with a fresh quote that crosses: fill now, citing that tick.
  if (session.open && tick !== undefined && tickUnits !== null && fresh) {
    const executable = executablePrice(config, side, tickUnits);
    if (limitUnits === null || crosses(side, limitUnits, executable)) {
      fillOrder(state, order, config, tick, executable);
    }
  }
  return ok({ orderId: order.orderId });
};

export const stockCancelOrder: Handler<"stock_cancel_order"> = (state, command) => {
  const owner = findOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  const order = state.stocks.pending.get(command.orderId);
  if (order === undefined || order.ownerId !== owner.ownerId || order.mode !== owner.mode) {
    return fail("order_not_found");
  }
  closeOrder(state, order, "cancelled");
  return DONE;
};

export function addPending(state: KernelState, order: StockOrderState): void {
  const stocks = state.stocks;
  stocks.pending.set(order.orderId, order);
  let byInstrument = stocks.pendingByInstrument.get(order.instrumentId);
  if (byInstrument === undefined) {
    byInstrument = new Map();
    stocks.pendingByInstrument.set(order.instrumentId, byInstrument);
  }
  byInstrument.set(order.orderId, order);
  const key = ownerKey(order.mode, order.ownerId);
  stocks.pendingPerOwner.set(key, (stocks.pendingPerOwner.get(key) ?? 0) + 1);
}

export function removePending(state: KernelState, order: StockOrderState): void {
  const stocks = state.stocks;
  assert(stocks.pending.get(order.orderId) === order, "closing an unknown stock order");
  stocks.pending.delete(order.orderId);
  const byInstrument = stocks.pendingByInstrument.get(order.instrumentId)!;
  byInstrument.delete(order.orderId);
  if (byInstrument.size === 0) stocks.pendingByInstrument.delete(order.instrumentId);
  const key = ownerKey(order.mode, order.ownerId);
  const count = (stocks.pendingPerOwner.get(key) ?? 1) - 1;
  if (count > 0) stocks.pendingPerOwner.set(key, count);
  else stocks.pendingPerOwner.delete(key);
  stocks.ordersClosed++;
}

/** Cancels or expires a pending order: every hold goes back. */
export function closeOrder(
  state: KernelState,
  order: StockOrderState,
  status: "cancelled" | "expired",
): void {
  const owner = ownerOf(state, order.mode, order.ownerId)!;
  const house = systemOwner(state, order.mode, systemOwners.house);
  const inventory = inventoryOf(state, order.mode, order.instrumentId);
  if (order.side === "buy") {
    release(state, accountOf(state, owner, "fund", order.assetId), order.prepaid);
    inventory.reserved -= order.quantity;
    inventory.available += order.quantity;
  } else {
    const holding = state.stocks.holdings.get(
      holdingKey(order.mode, order.ownerId, order.instrumentId),
    )!;
    holding.heldQuantity -= order.quantity;
    release(state, accountOf(state, house, "fund", order.assetId), order.houseReserved);
  }
  removePending(state, order);
  order.status = status;
  order.closedAtMs = state.nowMs;
  emit(state, { type: "stock_order_closed", order: orderView(order) });
}

/**
 * Fills all of a pending order at `executable` (the tick's price ± spread; a limit sell whose
 * extra proceeds above its limit the house cannot pay fills at its limit), citing `tick`.
 */
export function fillOrder(
  state: KernelState,
  order: StockOrderState,
  config: StockConfigState,
  tick: Tick,
  executable: bigint,
): void {
  const owner = ownerOf(state, order.mode, order.ownerId)!;
  const house = systemOwner(state, order.mode, systemOwners.house);
  const fees = systemOwner(state, order.mode, systemOwners.fees);
  const userFund = accountOf(state, owner, "fund", order.assetId);
  const houseFund = accountOf(state, house, "fund", order.assetId);
  const feesFund = accountOf(state, fees, "fund", order.assetId);
  const scale = assetScale(state, order.assetId);
  const inventory = inventoryOf(state, order.mode, order.instrumentId);
  const holding = holdingOf(state, owner, config);
  const refs = { orderId: order.orderId, tickId: tick.tickId, reference: order.clientOrderId };
  let price = executable;
  let cost = fillCost(config, order.side, price, order.quantity, scale);
  let released = 0n;
  if (order.side === "buy") {
    assert(cost.net <= order.prepaid, "a buy fill costs more than its prepaid amount");
    post(state, { debit: userFund, debitHeld: true, credit: houseFund, amount: cost.notional, reason: "stock_trade", refs }); // prettier-ignore
    collectFee(state, { product: "stocks", mode: order.mode, payer: userFund, debitHeld: true, amount: cost.commission, reason: "stock_commission", refs }); // prettier-ignore
    if (cost.stampDuty > 0n) post(state, { debit: userFund, debitHeld: true, credit: feesFund, amount: cost.stampDuty, reason: "stock_stamp_duty", refs }); // prettier-ignore
    released = order.prepaid - cost.net;
    if (released > 0n) release(state, userFund, released);
    inventory.reserved -= order.quantity;
    holding.quantity += order.quantity;
    holding.costBasis += cost.net;
  } else {
    let extra = cost.notional - order.houseReserved;
    if (extra > 0n && houseFund.available < extra) {
      // The house cannot pay more than it reserved: the order fills at its limit.
      price = order.limitUnits!;
      cost = fillCost(config, order.side, price, order.quantity, scale);
      extra = cost.notional - order.houseReserved;
    }
    assert(extra >= 0n, "a sell fills below what the house reserved");
    if (order.houseReserved > 0n) post(state, { debit: houseFund, debitHeld: true, credit: userFund, amount: order.houseReserved, reason: "stock_trade", refs }); // prettier-ignore
    if (extra > 0n) post(state, { debit: houseFund, credit: userFund, amount: extra, reason: "stock_trade", refs }); // prettier-ignore
    collectFee(state, { product: "stocks", mode: order.mode, payer: userFund, amount: cost.commission, reason: "stock_commission", refs }); // prettier-ignore
    if (cost.stampDuty > 0n) post(state, { debit: userFund, credit: feesFund, amount: cost.stampDuty, reason: "stock_stamp_duty", refs }); // prettier-ignore
    // The shares sold leave the holding with their share of the cost basis (rounded down).
    const basisOut = (holding.costBasis * order.quantity) / holding.quantity;
    holding.heldQuantity -= order.quantity;
    holding.quantity -= order.quantity;
    holding.costBasis -= basisOut;
    holding.realisedPnl += cost.net - basisOut;
    inventory.available += order.quantity;
    if (holding.quantity === 0n) {
      holding.costBasis = 0n;
      setArmed(state, holding, null, null);
    }
  }
  // The notional counts to the inviter's team volume (agents, issue 23).
  recordAgentVolume(state, order.mode, order.ownerId, order.assetId, cost.notional);
  removePending(state, order);
  order.status = "filled";
  order.closedAtMs = state.nowMs;
  emit(state, {
    type: "stock_order_filled",
    order: orderView(order),
    fill: {
      orderId: order.orderId,
      ownerId: order.ownerId,
      mode: order.mode,
      instrumentId: order.instrumentId,
      assetId: order.assetId,
      side: order.side,
      origin: order.origin,
      quantity: order.quantity,
      price: priceText(price, config.priceScale),
      notional: cost.notional,
      commission: cost.commission,
      stampDuty: cost.stampDuty,
      net: cost.net,
      released,
      tickId: tick.tickId,
      tickPrice: tick.price,
      filledAtMs: state.nowMs,
    },
  });
  emit(state, { type: "stock_holding_changed", holding: holdingView(holding) });
}
