// Invariants of the perpetuals slice, checked after every command (module.ts).

import { assert } from "../assert.ts";
import { accountOf } from "../ledger/accounts.ts";
import type { KernelState } from "../state.ts";
import { isFund, isLiquidatableNow } from "./engine.ts";
import { coverNegative } from "./liquidation-engine.ts";

/**
 * Per market and mode: open interest long = short; nobody but the fund is under maintenance at
 * the mark; every open order rests in its book with its
 * lots; flat positions keep no cost, margin or debt. Per mode and quote asset: clearing + Σ debts
 * = −Σ signed entry cost. Every contract wallet holds exactly its orders' holds and position
 * margins (added to `heldExpected` for the ledger's hold check).
 */
export function checkPerpInvariants(state: KernelState): void {
  const perp = state.perp;
  const clearingSums = new Map<object, bigint>();
  for (const market of perp.markets.values()) {
    for (const side of [market.real, market.demo]) {
      let long = 0n;
      let short = 0n;
      let sum = clearingSums.get(side.clearing) ?? side.clearing.available;
      for (const account of side.accounts.values()) {
        const { sizeLots, entryCost } = account.position;
        if (sizeLots > 0n) long += sizeLots;
        else short -= sizeLots;
        sum += account.debt + (sizeLots > 0n ? entryCost : sizeLots < 0n ? -entryCost : 0n);
        assert(
          account.margin >= 0n && account.debt >= 0n,
          `negative margin or debt ${account.key}`,
        );
        if (sizeLots === 0n) {
          assert(entryCost === 0n && account.margin === 0n, `flat ${account.key} keeps cost`);
          assert(isFund(account.owner) || account.debt === 0n, `flat ${account.key} owes`);
        }
        account.wallet.heldExpected += account.margin;
        // Every liquidation runs in the command whose tick or change caused it.
        assert(!isLiquidatableNow(state, account), `${account.key} is under maintenance`);
      }
      clearingSums.set(side.clearing, sum);
      assert(
        long === short,
        `open interest ${market.params.marketId} ${side.mode}: ${long} ≠ ${short}`,
      );
    }
  }
  for (const [, sum] of clearingSums) assert(sum === 0n, `perp clearing off by ${sum}`);
  for (const order of perp.orders.values()) {
    const resting = order.account.side.book.get(order.orderId);
    assert(resting !== undefined, `perp order ${order.orderId} not in its book`);
    assert(
      resting.remainingLots === order.quantityLots - order.filledLots,
      `perp order ${order.orderId} lots disagree`,
    );
    assert(order.heldAmount >= 0n, `perp order ${order.orderId} holds a negative amount`);
    order.account.wallet.heldExpected += order.heldAmount;
  }
  let booked = 0;
  for (const market of perp.markets.values())
    booked += market.real.book.orderCount + market.demo.book.orderCount;
  assert(booked === perp.orders.size, "perp books hold orders the kernel does not know");
}

void accountOf;
void coverNegative;
