// cancel_order and cancel_all.

import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { ok } from "../results.ts";
import { commandedOrder, traderOwner } from "./orders.ts";
import { cancelConditional, cancelOpenOrder, cancelOwnerOrders } from "./settle.ts";

export const cancelOrder: Handler<"cancel_order"> = (state, command) => {
  const order = commandedOrder(state, command.ownerId, command.mode, command.orderId);
  if (typeof order === "string") {
    // A pending conditional order is cancelled by its id too.
    const conditional = state.spot.conditionals.get(command.orderId);
    if (
      order === "order_not_found" &&
      conditional !== undefined &&
      conditional.owner.ownerId === command.ownerId &&
      conditional.owner.mode === command.mode
    ) {
      cancelConditional(state, conditional, "user");
      return ok({ orderId: conditional.orderId, cancelledCount: 1 });
    }
    return fail(order);
  }
  cancelOpenOrder(state, order, "user");
  return ok({ orderId: order.orderId, cancelledCount: 1 });
};

export const cancelAll: Handler<"cancel_all"> = (state, command) => {
  const owner = traderOwner(state, command.ownerId, command.mode);
  if (typeof owner === "string") return fail(owner);
  if (command.marketId !== null && !state.reference.markets.has(command.marketId)) {
    return fail("market_not_found");
  }
  const cancelledCount = cancelOwnerOrders(state, owner, command.marketId, "cancel_all");
  return ok({ cancelledCount });
};
