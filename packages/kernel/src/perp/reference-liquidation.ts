// The reference model's liquidation pass, run after every command that moves a price, a
// position or margin: until no user is liquidatable at the mark, take the first one (by owner
// id) and (1) send its liquidation order into the resting liquidity, (2) let the insurance fund
// take over whatever the book left, (3) auto-deleverage what the fund cannot take, then have
// the fund take any rest regardless, and (4) cover any deficit left (negative-balance
// protection). Slow and plain on purpose.

import {
  adlRanking,
  closeValueAtBankruptcy,
  liquidationFee,
  liquidationPlan,
  takeoverLots,
} from "./liquidation.ts";
import { marginState } from "./margin.ts";
import { applyFill, applyTradeForQuote, closeForQuote, unrealisedPnl } from "./position.ts";
import type { RefAccount, RefEvent, RefRestingOrder, RefState } from "./reference-state.ts";
import {
  addCash,
  fundOf,
  isSystem,
  markTicksOf,
  poolEquity,
  poolOf,
  settleFlat,
  tradeSide,
} from "./reference-state.ts";
import { abs, compareIds, min } from "./units.ts";

/** Safety net: a pass that does not end is a bug in the model. */
const ROUNDS_MAX = 100_000;

/** Liquidates until nobody is under maintenance at the mark. */
export function runLiquidations(state: RefState, events: RefEvent[]): void {
  if (state.mark === null) return;
  for (let round = 0; ; round++) {
    if (round >= ROUNDS_MAX) throw new Error("liquidation pass does not end");
    const account = firstLiquidatable(state);
    if (account === null) return;
    liquidate(state, account, events);
  }
}

function firstLiquidatable(state: RefState): RefAccount | null {
  const mark = markTicksOf(state);
  const owners = [...state.accounts.keys()].sort(compareIds);
  for (const ownerId of owners) {
    const account = state.accounts.get(ownerId)!;
    if (isSystem(ownerId) || account.position.sizeLots === 0n) continue;
    if (marginState(state.market, account.position, poolOf(account), mark).liquidatable) {
      return account;
    }
  }
  return null;
}

function liquidate(state: RefState, account: RefAccount, events: RefEvent[]): void {
  const market = state.market;
  const mark = state.mark!;
  const tickIds = [...mark.tickIds];
  const plan = liquidationPlan(market, account.position, poolOf(account), mark)!;
  events.push({
    type: "liquidation",
    ownerId: account.ownerId,
    side: plan.side,
    lots: plan.lots,
    limitTicks: plan.limitTicks,
    markTicks: plan.markTicks,
    equity: plan.equity,
    maintenance: plan.maintenance,
    tickIds,
  });
  let remaining = plan.lots;
  if (plan.limitTicks !== null) {
    remaining = fillFromBook(state, account, plan.side, plan.limitTicks, remaining, events);
  }
  if (remaining > 0n) takeOver(state, account, events);
  settleFlat(state, account, events);
}

/** Resting orders a liquidation order can hit, best price first, then oldest. */
function matchable(
  state: RefState,
  ownerId: string,
  side: "buy" | "sell",
  limitTicks: bigint,
): RefRestingOrder[] {
  const opposite = side === "sell" ? "buy" : "sell";
  return state.book
    .filter(
      (order) =>
        order.side === opposite &&
        order.ownerId !== ownerId &&
        (side === "sell" ? order.priceTicks >= limitTicks : order.priceTicks <= limitTicks),
    )
    .sort((a, b) => {
      if (a.priceTicks !== b.priceTicks) {
        return (side === "sell" ? a.priceTicks > b.priceTicks : a.priceTicks < b.priceTicks)
          ? -1
          : 1;
      }
      return a.orderId - b.orderId;
    });
}

/** Fills the liquidation order from resting liquidity; returns the lots left unfilled. */
function fillFromBook(
  state: RefState,
  account: RefAccount,
  side: "buy" | "sell",
  limitTicks: bigint,
  lots: bigint,
  events: RefEvent[],
): bigint {
  const market = state.market;
  let remaining = lots;
  for (const order of matchable(state, account.ownerId, side, limitTicks)) {
    if (remaining === 0n) break;
    const maker = state.accounts.get(order.ownerId)!;
    const quantity = min(remaining, order.lots);
    const makerDelta = order.side === "buy" ? quantity : -quantity;
    const makerSide = tradeSide(
      state,
      maker,
      makerDelta,
      order.priceTicks,
      market.feeBpsMaker,
      events,
    );
    if (typeof makerSide === "string") {
      // The maker cannot carry the fill: its order leaves the book, as a failed hold would.
      state.book = state.book.filter((o) => o.orderId !== order.orderId);
      continue;
    }
    const fee = liquidationFee(
      market,
      account.position,
      poolOf(account),
      quantity,
      order.priceTicks,
    );
    const outcome = applyFill(account.position, -makerDelta, order.priceTicks, market.tickLotUnits);
    account.position = outcome.position;
    addCash(account, outcome.realisedPnl - fee);
    fundOf(state).wallet += fee;
    state.clearing -= outcome.realisedPnl;
    order.lots -= quantity;
    if (order.lots === 0n) state.book = state.book.filter((o) => o.orderId !== order.orderId);
    remaining -= quantity;
    const buyerIsMaker = order.side === "buy";
    events.push({
      type: "fill",
      buyerId: buyerIsMaker ? maker.ownerId : account.ownerId,
      sellerId: buyerIsMaker ? account.ownerId : maker.ownerId,
      lots: quantity,
      priceTicks: order.priceTicks,
      feeBuyer: buyerIsMaker ? makerSide.fee : 0n,
      feeSeller: buyerIsMaker ? 0n : makerSide.fee,
      realisedBuyer: buyerIsMaker ? makerSide.realised : outcome.realisedPnl,
      realisedSeller: buyerIsMaker ? outcome.realisedPnl : makerSide.realised,
      liquidatedId: account.ownerId,
      tickIds: [...state.mark!.tickIds],
    });
    if (fee > 0n) {
      events.push({
        type: "liquidation_fee",
        ownerId: account.ownerId,
        amount: fee,
        tickIds: [...state.mark!.tickIds],
      });
    }
  }
  return remaining;
}

/**
 * The book did not take the whole order: the insurance fund takes over the *whole* remaining
 * position at the bankruptcy value, as far as its equity allows, and auto-deleveraging closes
 * the rest against the top-ranked opposite positions at the same value.
 */
function takeOver(state: RefState, account: RefAccount, events: RefEvent[]): void {
  const market = state.market;
  const u = market.tickLotUnits;
  const markTicks = markTicksOf(state);
  const fund = fundOf(state);
  const fundEquity = fund.wallet + unrealisedPnl(fund.position, markTicks, u);
  const lotsAll = abs(account.position.sizeLots);
  const taken = takeoverLots(
    fundEquity,
    account.position,
    poolOf(account).collateral,
    lotsAll,
    markTicks,
    u,
  );
  if (taken > 0n) fundTakes(state, account, taken, false, events);
  if (account.position.sizeLots !== 0n) deleverage(state, account, events);
}

/** Auto-deleveraging against opposite user positions, best rank first. */
function deleverage(state: RefState, account: RefAccount, events: RefEvent[]): void {
  const market = state.market;
  const u = market.tickLotUnits;
  const markTicks = markTicksOf(state);
  const tickIds = [...state.mark!.tickIds];
  const long = account.position.sizeLots > 0n;
  const opposite = [...state.accounts.values()].filter(
    (other) =>
      !isSystem(other.ownerId) &&
      other.ownerId !== account.ownerId &&
      other.position.sizeLots !== 0n &&
      other.position.sizeLots > 0n !== long,
  );
  const ranking = adlRanking(
    opposite.map((other) => ({
      id: other.ownerId,
      sizeLots: other.position.sizeLots,
      entryCost: other.position.entryCost,
      equity: poolEquity(state, other),
    })),
    markTicks,
    u,
  );
  for (const entry of ranking) {
    if (account.position.sizeLots === 0n) break;
    if (!entry.eligible) continue;
    const other = state.accounts.get(entry.id)!;
    const lotsMax = min(abs(account.position.sizeLots), abs(other.position.sizeLots));
    const collateral = poolOf(account).collateral;
    const lots = takeoverLots(
      poolEquity(state, other),
      account.position,
      collateral,
      lotsMax,
      markTicks,
      u,
    );
    if (lots === 0n) continue;
    const value = closeValueAtBankruptcy(account.position, collateral, lots);
    const closed = closeForQuote(account.position, lots, value);
    account.position = closed.position;
    addCash(account, closed.realisedPnl);
    const counter = closeForQuote(other.position, lots, value);
    other.position = counter.position;
    addCash(other, counter.realisedPnl);
    state.clearing -= closed.realisedPnl + counter.realisedPnl;
    events.push({
      type: "adl",
      ownerId: account.ownerId,
      counterpartyId: other.ownerId,
      lots,
      quoteAmount: value,
      rank: entry.rank,
      tickIds,
    });
    settleFlat(state, other, events);
  }
  // Last resort: nobody can carry the rest, so the fund takes it whatever its equity; the
  // venue's loss shows in the fund's equity, never in a user's.
  if (account.position.sizeLots !== 0n)
    fundTakes(state, account, abs(account.position.sizeLots), true, events);
}

/** The fund buys (or sells) `lots` of the liquidated position at the bankruptcy value. */
function fundTakes(
  state: RefState,
  account: RefAccount,
  lots: bigint,
  forced: boolean,
  events: RefEvent[],
): void {
  const fund = fundOf(state);
  const value = closeValueAtBankruptcy(account.position, poolOf(account).collateral, lots);
  const long = account.position.sizeLots > 0n;
  const closed = closeForQuote(account.position, lots, value);
  account.position = closed.position;
  addCash(account, closed.realisedPnl);
  const fundTrade = applyTradeForQuote(fund.position, long ? lots : -lots, value);
  fund.position = fundTrade.position;
  fund.wallet += fundTrade.realisedPnl;
  state.clearing -= closed.realisedPnl + fundTrade.realisedPnl;
  events.push({
    type: "takeover",
    ownerId: account.ownerId,
    lots,
    quoteAmount: value,
    forced,
    tickIds: [...state.mark!.tickIds],
  });
}
