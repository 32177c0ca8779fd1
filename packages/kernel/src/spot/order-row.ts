// A resting spot order as a row of the kernel snapshot (spot/module.ts).
import type { Json } from "../module.ts";
import type { OrderState } from "./state.ts";

const big = (value: bigint | null): string | null => (value === null ? null : value.toString());

/** The order's snapshot row; the later fields only when one says something, so older states
 * hash as before. */
export function orderRow(o: OrderState): Json {
  const row: Json[] = [
    o.orderId,
    o.clientOrderId,
    o.owner.mode,
    o.owner.ownerId,
    o.market.marketId,
    o.side,
    o.orderType,
    o.timeInForce,
    o.priceTicks,
    o.quantityLots,
    big(o.quoteAmount),
    o.filledLots,
    big(o.heldAmount),
    o.createdAtMs,
  ];
  if (
    o.selfTradeMode !== "cancel_resting" ||
    o.ocoConditionalId !== 0 ||
    o.fromConditionalId !== 0
  ) {
    row.push(o.selfTradeMode, o.ocoConditionalId, o.fromConditionalId);
  }
  return row;
}
