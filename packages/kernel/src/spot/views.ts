// Views of spot orders for events and queries.

import type { OrderState } from "./state.ts";
import type { OrderView } from "./types.ts";

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
