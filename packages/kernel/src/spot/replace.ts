// replace_order: move an open order to a new price and remaining quantity.

import { assert } from "../assert.ts";
import { hold, holdUnitsOnly, release, releaseUnitsOnly } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { ok } from "../results.ts";
import { bookRejectCode, holdFor, holdUnits, limitCode } from "./holds.ts";
import { commandedOrder } from "./orders.ts";
import { settleGone, settleRest, settleSelfTradeStopped } from "./settle.ts";
import { setHeld, setHeldUnits } from "./state.ts";
import type { OrderOutcome } from "./types.ts";
import { emit } from "../events.ts";
import { bigintOfSafeInteger } from "../amount/bigint-of.ts";

export const replaceOrder: Handler<"replace_order"> = (state, command) => {
  const order = commandedOrder(state, command.ownerId, command.mode, command.orderId);
  if (typeof order === "string") return fail(order);
  const market = order.market;
  if (!market.open) return fail("market_closed");
  // An OCO leg keeps the terms its pair was accepted with: cancel the pair and place it again.
  if (order.ocoConditionalId !== 0) return fail("order_type_invalid");
  const priceTicks = command.priceTicks;
  const lots = command.quantityLots;
  const code = limitCode(market, priceTicks, lots);
  if (code !== null) return fail(code);
  const isBuy = order.side === "buy";
  // Hold more now when the new terms need more; when they need less, the excess is released
  // once the order rests (settleRest), and when they need the same, nothing is computed. In
  // doubles while both holds are exact safe integers (the usual case), else in BigInt.
  const unitsNew = holdUnits(market, isBuy, priceTicks, lots);
  const unitsOld = order.heldUnits;
  const exact = unitsNew >= 0 && unitsOld >= 0;
  // In the exact case the extra hold stays a double (`extraUnits`); its BigInt is made only
  // where a BigInt decides (an inexact account balance).
  let holdNew: bigint | null = null;
  let holdExtra = 0n;
  let extraUnits = Number.NaN;
  let grows: boolean;
  if (exact) {
    grows = unitsNew > unitsOld;
    if (grows) extraUnits = unitsNew - unitsOld;
  } else {
    holdNew = holdFor(market, isBuy, priceTicks, lots);
    grows = holdNew > order.heldAmount;
    if (grows) holdExtra = holdNew - order.heldAmount;
  }
  // Enough when the exact doubles say so (NaN says nothing); else the BigInts decide.
  const account = order.holdAccount;
  if (
    grows &&
    !(account.availableUnits >= extraUnits) &&
    account.available < (exact ? bigintOfSafeInteger(extraUnits) : holdExtra)
  ) {
    return fail("insufficient_balance");
  }

  const priceBefore = order.priceTicks;
  const quantityBefore = order.quantityLots;
  const filledBefore = order.filledLots;
  const heldBefore = order.heldAmount;
  if (grows) {
    if (exact) holdUnitsOnly(state, account, extraUnits);
    else hold(state, account, holdExtra);
    if (holdNew === null) setHeldUnits(order, unitsNew);
    else setHeld(order, holdNew);
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
  change.selfTradeMode = order.selfTradeMode;
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
      if (grows) {
        if (exact) releaseUnitsOnly(state, account, extraUnits);
        else release(state, account, holdExtra);
        setHeld(order, heldBefore);
      }
      return fail(bookRejectCode(outcome.outcome));
    case "rested":
      settleRest(
        state,
        order,
        outcome.restingLots,
        false,
        order.filledLots === filledBefore ? unitsNew : -1,
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
    orderId: order.orderId,
    orderStatus,
    filledLots: order.filledLots - filledBefore,
    restingLots: outcome.restingLots,
  });
};
