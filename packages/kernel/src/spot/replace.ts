// replace_order: move an open order to a new price and remaining quantity.

import { assert } from "../assert.ts";
import { hold, release } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { ok } from "../results.ts";
import { bookRejectCode, holdFor, limitCode } from "./holds.ts";
import { commandedOrder } from "./orders.ts";
import { settleGone, settleRest } from "./settle.ts";
import type { OrderOutcome } from "./types.ts";
import { emit } from "../events.ts";

export const replaceOrder: Handler<"replace_order"> = (state, command) => {
  const order = commandedOrder(state, command.ownerId, command.mode, command.orderId);
  if (typeof order === "string") return fail(order);
  const market = order.market;
  if (!market.open) return fail("market_closed");
  const priceTicks = command.priceTicks;
  const lots = command.quantityLots;
  const code = limitCode(market, priceTicks, lots);
  if (code !== null) return fail(code);
  const holdNew = holdFor(market, order.side === "buy", priceTicks, lots);
  // Hold more now when the new terms need more; when they need less, the excess is released
  // once the order rests (settleRest), and when they need the same, nothing is computed.
  let holdExtra = 0n;
  if (holdNew > order.heldAmount) {
    holdExtra = holdNew - order.heldAmount;
    if (order.holdAccount.available < holdExtra) return fail("insufficient_balance");
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
  emit(state, {
    type: "order_replaced",
    orderId: order.orderId,
    priceTicks,
    remainingLots: lots,
    heldAmount: order.heldAmount,
  });
  const spot = state.spot;
  spot.taker = order;
  const change = spot.bookChange;
  change.priceTicks = priceTicks;
  change.quantityLots = lots;
  change.timeInForce = order.timeInForce;
  const outcome = order.book.replace(order.orderId, change, spot.listener);
  spot.taker = null;
  assert(outcome !== undefined, "an open order was not in its book");
  let orderStatus: OrderOutcome["orderStatus"];
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
      orderStatus = "open";
      break;
    case "filled":
    case "expired":
      settleGone(state, order, outcome.outcome);
      orderStatus = outcome.outcome;
      break;
  }
  return ok({
    orderId: order.orderId,
    orderStatus,
    filledLots: order.filledLots - filledBefore,
    restingLots: outcome.restingLots,
  });
};
