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
  const sumsReal = new Map<string, bigint>();
  const sumsDemo = new Map<string, bigint>();
  for (const account of state.accounts.values()) {
    const sums = account.mode === "real" ? sumsReal : sumsDemo;
    sums.set(account.assetId, (sums.get(account.assetId) ?? 0n) + account.available + account.held);
    assert(account.held >= 0n, `held balance negative: ${account.key}`);
    assert(
      account.negativeAllowed || account.available >= 0n,
      `available balance negative: ${account.key}`,
    );
    account.heldExpected = 0n;
  }
  for (const [asset, sum] of sumsReal) assert(sum === 0n, `real ${asset} sums to ${sum}, not 0`);
  for (const [asset, sum] of sumsDemo) assert(sum === 0n, `demo ${asset} sums to ${sum}, not 0`);

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
    order.holdAccount.heldExpected += order.heldAmount;
  }
  for (const withdrawal of state.withdrawals.values()) {
    if (withdrawal.status === "pending") withdrawal.account.heldExpected += withdrawal.amount;
  }
  for (const account of state.accounts.values()) {
    assert(account.held === account.heldExpected, `held mismatch: ${account.key}`);
  }
  let listed = 0;
  for (const owner of state.owners.values()) listed += owner.orderIds.size;
  assert(listed === state.orders.size, "owners list orders that are not open");
  let booked = 0;
  for (const market of state.markets.values()) {
    booked += market.bookReal.orderCount + market.bookDemo.orderCount;
    for (const book of [market.bookReal, market.bookDemo]) {
      assert(book.levelCount("buy") <= market.levelsPerSideMax, "too many bid levels");
      assert(book.levelCount("sell") <= market.levelsPerSideMax, "too many ask levels");
    }
  }
  assert(booked === state.orders.size, "books hold orders the kernel does not know");
}
