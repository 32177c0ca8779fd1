// Views of spot orders for events and queries.

import type { ConditionalState, OrderState } from "./state.ts";
import type { ConditionalOrderView, ConditionalStatus, OrderView } from "./types.ts";

export function orderView(order: OrderState): OrderView {
  const view: OrderView = {
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
  // Only set when they say something, so the events of plain orders read as before.
  if (order.selfTradeMode !== "cancel_resting") view.selfTradeMode = order.selfTradeMode;
  if (order.ocoConditionalId !== 0) view.ocoConditionalId = order.ocoConditionalId;
  if (order.fromConditionalId !== 0) view.fromConditionalId = order.fromConditionalId;
  return view;
}

export function conditionalView(
  order: ConditionalState,
  status: ConditionalStatus = "pending",
): ConditionalOrderView {
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    ownerId: order.owner.ownerId,
    mode: order.owner.mode,
    marketId: order.market.marketId,
    side: order.side,
    kind: order.kind,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    triggerTicks: order.triggerTicks,
    priceTicks: order.priceTicks,
    quantityLots: order.quantityLots,
    quoteAmount: order.quoteAmount,
    selfTradeMode: order.selfTradeMode,
    heldAmount: order.heldAmount,
    ocoOrderId: order.ocoOrderId === 0 ? null : order.ocoOrderId,
    status,
    createdAtMs: order.createdAtMs,
  };
}
