// place_order.

import { divFloor } from "../amount/amount.ts";
import { assert } from "../assert.ts";
import { selfTradeModes, type OrderBook, type SelfTradeMode } from "../book/types.ts";
import { accountOf } from "../ledger/accounts.ts";
import { bigintOfSafeInteger } from "../amount/bigint-of.ts";
import { amountCode, hold, release } from "../ledger/post.ts";
import { PRICE_TICKS_MAX } from "../market-units.ts";
import type { Handler } from "../module.ts";
import type { MarketState } from "../reference/state.ts";
import { fail } from "../reject-codes.ts";
import { ok } from "../results.ts";
import { bookRejectCode, holdFor, holdUnits, limitCode, lotsCode } from "./holds.ts";
import { openOrdersMax, traderOwner } from "./orders.ts";
import { settleGone, settleRest, settleSelfTradeStopped } from "./settle.ts";
import { openOrderIds, setHeld, unitsOf, type OrderState } from "./state.ts";
import type { OrderStatus, PlaceOrderCommand } from "./types.ts";
import { orderView } from "./views.ts";
import { emit } from "../events.ts";

/**
 * Places an order.
 * Everything is validated before anything changes; the book's own rejections (post-only,
 * fok, full) change nothing in the book, and the hold taken before matching is given back.
 */
export const placeOrder: Handler<"place_order"> = (state, command) =>
  placeWith(state, command, "cancel_resting", 0);

/** place_order_stp: place_order with a self-trade prevention mode. */
export const placeOrderStp: Handler<"place_order_stp"> = (state, command) => {
  const mode = command.selfTradeMode as SelfTradeMode;
  if (!selfTradeModes.includes(mode)) return fail("self_trade_mode_invalid");
  return placeWith(state, command as unknown as PlaceOrderCommand, mode, 0);
};

/**
 * Places an order with a self-trade prevention mode; `fromConditionalId` names the conditional
 * order whose trigger placed it (0: none).
 */
export function placeWith(
  state: Parameters<Handler<"place_order">>[0],
  command: PlaceOrderCommand,
  selfTradeMode: SelfTradeMode,
  fromConditionalId: number,
): ReturnType<Handler<"place_order">> {
  const market = state.reference.markets.get(command.marketId);
  if (market === undefined) return fail("market_not_found");
  const owner = traderOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (!market.open) return fail("market_closed");
  const isBuy = command.side === "buy";
  const tif = command.timeInForce;
  let priceTicks: number;
  let lots: number;
  let holdAmount: bigint;
  // `holdAmount` as an exact double when it is a safe integer, else -1.
  let units: number;
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
    units = holdUnits(market, isBuy, priceTicks, lots);
    holdAmount = units >= 0 ? bigintOfSafeInteger(units) : holdFor(market, isBuy, priceTicks, lots);
  } else {
    if (tif !== "ioc") return fail("time_in_force_invalid");
    if (command.priceTicks !== null) return fail("order_type_invalid");
    byQuote = isBuy && command.quoteAmount !== null;
    if (byQuote) {
      if (command.quantityLots !== null) return fail("order_type_invalid");
      const code = amountCode(market.quote, command.quoteAmount!);
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
      units = unitsOf(holdAmount);
      lots = 0;
    } else {
      lots = command.quantityLots!;
      units = holdUnits(market, isBuy, priceTicks, lots);
      holdAmount =
        units >= 0 ? bigintOfSafeInteger(units) : holdFor(market, isBuy, priceTicks, lots);
    }
  }
  // The owner's fund accounts of the market's assets, each looked up once (absent: none yet,
  // so nothing available). Enough when the exact doubles say so; else the BigInts decide.
  const baseFund = owner.fund.get(market.base.assetId);
  const quoteFund = owner.fund.get(market.quote.assetId);
  const holdFund = isBuy ? quoteFund : baseFund;
  if (
    holdFund === undefined
      ? 0n < holdAmount
      : !(units >= 0 && holdFund.availableUnits >= units) && holdFund.available < holdAmount
  ) {
    return fail("insufficient_balance");
  }
  const spot = state.spot;
  const mayRest = tif === "gtc" || tif === "post_only";
  if (mayRest) {
    if (openOrderIds(spot, owner).size >= openOrdersMax(state, owner)) {
      return fail("too_many_open_orders");
    }
  }
  const book = owner.mode === "real" ? market.bookReal : market.bookDemo;
  if (byQuote) lots = lotsForQuote(market, book, owner.index, priceTicks, holdAmount);

  // Validated: from here on the command succeeds, except for the book's own rejections.
  const baseAccount = baseFund ?? accountOf(state, owner, "fund", market.base.assetId);
  const quoteAccount = quoteFund ?? accountOf(state, owner, "fund", market.quote.assetId);
  const holdAccount = isBuy ? quoteAccount : baseAccount;
  const orderId = spot.orderIdNext++;
  // The fields a replace reads come first, so they share the object's first cache lines (the
  // restore in module.ts builds orders with the same fields in the same order: one shape).
  const order: OrderState = {
    orderId,
    ownerId: owner.ownerId,
    mode: owner.mode,
    market,
    book,
    ocoConditionalId: 0,
    side: command.side,
    timeInForce: tif,
    selfTradeMode,
    priceTicks,
    quantityLots: lots,
    filledLots: 0,
    heldUnits: units >= 0 ? units : unitsOf(holdAmount),
    heldAmount: holdAmount,
    holdAccount,
    owner,
    clientOrderId: command.id,
    orderType: command.orderType,
    quoteAmount: byQuote ? holdAmount : null,
    baseAccount,
    quoteAccount,
    status: "open",
    createdAtMs: command.atMs,
    fromConditionalId,
  };
  if (lots === 0) {
    // A market buy whose quote amount cannot pay for one lot within the band: nothing trades.
    emit(state, { type: "order_accepted", order: orderView(order) });
    setHeld(order, 0n);
    order.status = "expired";
    emit(state, { type: "order_done", orderId, status: "expired", filledLots: 0 });
    return ok({ orderId, orderStatus: "expired", filledLots: 0, restingLots: 0 });
  }
  hold(state, holdAccount, holdAmount, units >= 0 ? units : Number.NaN);
  spot.orders.set(orderId, order);
  emit(state, { type: "order_accepted", order: orderView(order) });
  spot.taker = order;
  const input = spot.bookInput;
  input.orderId = orderId;
  input.ownerId = owner.index;
  input.side = command.side;
  input.priceTicks = priceTicks;
  input.quantityLots = lots;
  input.timeInForce = tif;
  input.selfTradeMode = selfTradeMode;
  const outcome = book.submit(input, spot.listener);
  spot.taker = null;
  let orderStatus: OrderStatus;
  switch (outcome.outcome) {
    case "rejected_post_only":
    case "rejected_fok":
    case "rejected_book_full":
      assert(order.filledLots === 0, "a rejected submission filled");
      release(state, holdAccount, holdAmount, units >= 0 ? units : Number.NaN);
      spot.orders.delete(orderId);
      spot.orderIdNext--;
      return fail(bookRejectCode(outcome.outcome));
    case "rested":
      settleRest(
        state,
        order,
        outcome.restingLots,
        true,
        order.filledLots === 0 ? order.heldUnits : -1,
      );
      orderStatus = "open";
      break;
    case "filled":
    case "expired":
      if (outcome.selfTradeStopped === true) {
        settleSelfTradeStopped(state, order);
        orderStatus = "cancelled";
      } else {
        settleGone(state, order, outcome.outcome);
        orderStatus = outcome.outcome;
      }
      break;
  }
  return ok({
    orderId,
    orderStatus,
    filledLots: outcome.filledLots,
    restingLots: outcome.restingLots,
  });
}

/** Lots a quote amount buys, walking the asks best first up to the band edge. */
function lotsForQuote(
  market: MarketState,
  book: OrderBook,
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
