// The snapshot's two largest sections are built without intermediate objects (the command
// memory's rows straight from its ring, the kept postings by sequence slot instead of a Map and
// a sort). These tests hold them equal to the way they were built before, which the pinned
// simulation hashes and the journal fixture also check through the state hash.
import { describe, expect, it } from "vitest";
import { apply } from "./apply.ts";
import { createOrderBook } from "./book/index.ts";
import { keptPostings } from "./ledger/module.ts";
import type { PostingLog } from "./ledger/posting-log.ts";
import type { Account } from "./ledger/state.ts";
import type { Posting } from "./ledger/types.ts";
import { resultToJson } from "./snapshot.ts";
import { createKernelState, type KernelState } from "./state.ts";
import { Random } from "./testing/simulate.ts";
import type { Command } from "./types.ts";

/** A command without its time (`apply` below stamps it). */
type Unstamped<C> = C extends unknown ? Omit<C, "atMs"> : never;

function legacyRows(state: KernelState): unknown[] {
  const rows: unknown[] = [];
  for (const e of state.memory.entries()) {
    rows.push([e.id, e.atMs, e.type, e.print[0], e.print[1], resultToJson(e.result)]);
  }
  return rows;
}

function legacyKept(log: PostingLog, accounts: readonly Account[]): Posting[] {
  const kept = new Map<number, Posting>();
  for (const account of accounts) {
    for (const slot of account.postingSlots) kept.set(log.seqOf(slot), log.posting(slot));
  }
  return [...kept.values()].sort((a, b) => a.seq - b.seq);
}

/** A market, a few owners, and a random mix of orders, cancels, deposits and rejections. */
function tradedState(seed: number, statementPostingsMax: number): KernelState {
  const state = createKernelState(
    { statementPostingsMax, idempotencyWindowMs: 50 },
    createOrderBook,
  );
  const random = new Random(seed);
  let atMs = 1_000;
  const run = (command: Unstamped<Command>) =>
    apply(state, { ...command, atMs: (atMs += random.int(0, 3)) } as Command);
  run({ type: "define_asset", id: "a1", assetId: "BTC", scale: 8, amountMax: null });
  run({ type: "define_asset", id: "a2", assetId: "USDT", scale: 6, amountMax: null });
  run({
    type: "define_market",
    id: "m",
    marketId: "BTC-USDT",
    baseAssetId: "BTC",
    quoteAssetId: "USDT",
    instrumentId: null,
    priceStep: "0.01",
    lotSize: "0.0001",
    quantityLotsMin: 1,
    quantityLotsMax: 1_000,
    feeBpsMaker: 1,
    feeBpsTaker: 2,
    priceBandBps: 5_000,
    levelsPerSideMax: null,
    ordersPerBookMax: null,
  });
  run({ type: "set_market_session", id: "s", marketId: "BTC-USDT", open: true });
  for (let owner = 0; owner < 6; owner++) {
    run({ type: "open_accounts", id: `o${owner}`, ownerId: `u${owner}`, mode: "real" });
  }
  for (let i = 0; i < 1_500; i++) {
    const ownerId = `u${random.int(0, 5)}`;
    const roll = random.next();
    // Ids with quotes and backslashes, and repeats (duplicates and reused ids) now and then.
    const id = random.chance(0.05) ? `c${random.int(0, i)}` : `c${i}"\\${seed}`;
    if (roll < 0.15) {
      run({
        type: "credit_deposit",
        id,
        ownerId,
        mode: "real",
        assetId: random.pick(["BTC", "USDT"]),
        amount: BigInt(random.int(1, 10) * 1e9),
        reference: `r${i}`,
        operatorId: null,
      });
    } else if (roll < 0.25) {
      run({ type: "cancel_order", id, ownerId, mode: "real", orderId: random.int(1, 400) });
    } else if (roll < 0.3) {
      run({ type: "clock_tick", id });
    } else {
      run({
        type: "place_order",
        id,
        ownerId,
        mode: "real",
        marketId: "BTC-USDT",
        side: random.chance(0.5) ? "buy" : "sell",
        orderType: random.chance(0.1) ? "market" : "limit",
        timeInForce: random.pick(["gtc", "ioc", "fok"] as const),
        priceTicks: 100_000 + random.int(-50, 50),
        quantityLots: random.int(1, 40),
        quoteAmount: null,
      });
    }
  }
  return state;
}

describe("snapshot rows built without intermediate objects", () => {
  for (const [seed, max] of [
    [1, 1_000],
    [2, 3],
    [3, 1],
  ] as const) {
    it(`seed ${seed}, statements of ${max} postings: same text as before`, () => {
      const state = tradedState(seed, max);
      const rows = state.memory.rows();
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows)).toBe(JSON.stringify(legacyRows(state)));
      const accounts = [...state.ledger.accounts.values()];
      const log = state.ledger.postingLog;
      const kept = keptPostings(log, accounts);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept).toEqual(legacyKept(log, accounts));
    });
  }

  it("sparse sequence numbers take the sorted path and agree", () => {
    const state = tradedState(4, 2);
    const accounts = [...state.ledger.accounts.values()];
    // Keep only the newest posting of one account and the oldest of another: a wide, thin range.
    const withPostings = accounts.filter((a) => a.postingSlots.length > 0);
    const a = withPostings[0]!;
    const b = withPostings[withPostings.length - 1]!;
    const copies = [
      { ...a, postingSlots: a.postingSlots.slice(-1) },
      { ...b, postingSlots: b.postingSlots.slice(0, 1) },
    ] as Account[];
    const log = state.ledger.postingLog;
    expect(keptPostings(log, copies)).toEqual(legacyKept(log, copies));
  });
});
