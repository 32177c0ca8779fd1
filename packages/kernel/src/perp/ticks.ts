// Tape ticks and funding for perpetuals: mark updates, TP/SL and liquidation triggers, funding
// settlement. Called by the module's hooks (module.ts).

import { emit } from "../events.ts";
import type { KernelState } from "../state.ts";
import { crossSiblings, isLiquidatableNow, payClearing, receive, settleTouched } from "./engine.ts";
import { cancelPerpOrder, finishOrder, submitOrder } from "./fills.ts";
import { liquidate } from "./liquidation-engine.ts";
import { fireConditional } from "./conditional.ts";
import { averagePremiumE8, fundingRateE8, fundingSettlement, premiumE8FromMid } from "./funding.ts";
import { type PerpAccount, type PerpOrder, type PerpSide } from "./kernel-state.ts";
import { markPrice } from "./mark-price.ts";
import { abs, BPS, divFloor, max } from "./units.ts";
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
export function onSideTick(state: KernelState, side: PerpSide, tickId: string, indexTicks: bigint) {
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
    const kind = trigger.id[0];
    if (kind === "C") {
      fireConditional(state, side, Number(trigger.id.slice(2)));
      continue;
    }
    const account = side.accounts.get(trigger.id.slice(2))!;
    if (kind === "L") {
      if (isLiquidatableNow(state, account)) liquidate(state, account);
      else state.perp.touched.add(account); // an estimate that moved: re-index
    } else {
      fireTpSl(state, account, kind === "T" ? "take_profit" : "stop_loss");
    }
  }
  settleTouched(state);
}
export function settleFunding(state: KernelState, side: PerpSide): void {
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
