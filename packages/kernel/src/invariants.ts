// Invariants that must hold after every command. A failure is a bug: it throws.

import { assert } from "./assert.ts";
import type { KernelState } from "./state.ts";

/**
 * Checks the whole state: for every asset (per mode) the balances of all accounts, external
 * clearing and the demo faucet included, sum to zero; no available balance is negative except
 * external clearing and the demo faucet, and no held balance is; every account's held balance
 * equals its open orders' holds plus its pending withdrawals; every open order rests in its book
 * with the lots the kernel expects, and the books hold nothing else. Throws `AssertionError`.
 */
export function checkInvariants(state: KernelState): void {
  const sums = new Map<string, bigint>();
  const holds = new Map<string, bigint>();
  for (const account of state.accounts.values()) {
    const key = account.mode + "|" + account.assetId;
    sums.set(key, (sums.get(key) ?? 0n) + account.available + account.held);
    assert(account.held >= 0n, `held balance negative: ${account.key}`);
    assert(
      account.negativeAllowed || account.available >= 0n,
      `available balance negative: ${account.key}`,
    );
  }
  for (const [key, sum] of sums) assert(sum === 0n, `asset ${key} does not sum to zero: ${sum}`);

  const perOwner = new Map<string, number>();
  for (const order of state.orders.values()) {
    assert(order.status === "open", `order ${order.orderId} in the open set is ${order.status}`);
    assert(order.heldAmount > 0n, `open order ${order.orderId} holds nothing`);
    const remaining = order.quantityLots - order.filledLots;
    const resting = order.book.get(order.orderId);
    assert(resting !== undefined, `open order ${order.orderId} is not in its book`);
    assert(resting.remainingLots === remaining, `order ${order.orderId} lots disagree`);
    assert(resting.priceTicks === order.priceTicks, `order ${order.orderId} price disagrees`);
    assert(resting.side === order.side, `order ${order.orderId} side disagrees`);
    const expectedHold =
      order.side === "buy"
        ? BigInt(order.priceTicks) * BigInt(remaining) * order.market.tickLotUnits
        : BigInt(remaining) * order.market.lotUnits;
    assert(order.heldAmount === expectedHold, `order ${order.orderId} hold is wrong`);
    assert(order.owner.orderIds.has(order.orderId), `order ${order.orderId} not listed by owner`);
    const key = order.holdAccount.key;
    holds.set(key, (holds.get(key) ?? 0n) + order.heldAmount);
    perOwner.set(order.owner.key, (perOwner.get(order.owner.key) ?? 0) + 1);
  }
  for (const withdrawal of state.withdrawals.values()) {
    if (withdrawal.status !== "pending") continue;
    const key = withdrawal.account.key;
    holds.set(key, (holds.get(key) ?? 0n) + withdrawal.amount);
  }
  for (const account of state.accounts.values()) {
    assert(account.held === (holds.get(account.key) ?? 0n), `held mismatch: ${account.key}`);
  }
  for (const owner of state.owners.values()) {
    assert(
      owner.orderIds.size === (perOwner.get(owner.key) ?? 0),
      `owner ${owner.key} lists orders that are not open`,
    );
  }
  let booked = 0;
  for (const market of state.markets.values()) {
    booked += market.bookReal.orderCount + market.bookDemo.orderCount;
    assert(market.bookReal.levelCount("buy") <= market.levelsPerSideMax, "too many levels");
    assert(market.bookReal.levelCount("sell") <= market.levelsPerSideMax, "too many levels");
  }
  assert(booked === state.orders.size, "books hold orders the kernel does not know");
}
