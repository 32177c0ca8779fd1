// Scenario tables: given balances and commands → expected book, fills, balances and postings.
// Market BTC-USDT: priceStep 0.01, lotSize 0.001 BTC, so one lot at one tick is 10 USDT units
// (USDT has 6 decimals, BTC 8: one lot is 100,000 satoshi).
import { describe, expect, it } from "vitest";
import { createOrderBook } from "./book/order-book.ts";
import { createReferenceBook } from "./book/order-book.reference.ts";
import type { OrderBookFactory } from "./book/types.ts";
import { checkInvariants } from "./invariants.ts";
import { apply, createKernelState } from "./index.ts";
import { getBalance, getDepth } from "./queries.ts";
import { CommandMaker } from "./testing/commands.ts";
import type { Command, FillEvent, PostingEvent, Side, TimeInForce } from "./index.ts";

type Step =
  | ["limit", string, Side, number, number, TimeInForce?]
  | ["market", string, Side, number]
  | ["market_quote", string, bigint]
  | ["cancel", string, number]
  | ["replace", string, number, number, number]
  | ["tick", string];

interface Scenario {
  name: string;
  fees?: [number, number];
  /** owner → asset → deposit, in smallest units. */
  given: Record<string, Record<string, bigint>>;
  when: Step[];
  /** Rejection codes in order (accepted commands are not listed). */
  rejects?: string[];
  book: { bids: [number, number][]; asks: [number, number][] };
  /** [makerOrderId, takerOrderId, priceTicks, lots, feeMaker, feeTaker] */
  fills: [number, number, number, number, bigint, bigint][];
  /** owner → asset → [available, held] */
  balances: Record<string, Record<string, [bigint, bigint]>>;
  /** [reason, debit owner, credit owner, asset, amount] for the postings of `when` */
  postings?: [string, string, string, string, bigint][];
}

const scenarios: Scenario[] = [
  {
    name: "a resting sell is hit by a bigger buy that rests the rest",
    fees: [0, 0],
    given: { "1": { BTC: 300_000n }, "2": { USDT: 10_000n } },
    when: [
      ["limit", "1", "sell", 100, 3],
      ["limit", "2", "buy", 110, 5],
    ],
    book: { bids: [[110, 2]], asks: [] },
    fills: [[1, 2, 100, 3, 0n, 0n]],
    balances: {
      "1": { BTC: [0n, 0n], USDT: [3_000n, 0n] },
      // Held 110 × 5 × 10 = 5,500; paid 3,000; 2 lots × 1,100 still held; 400 price change back.
      "2": { BTC: [300_000n, 0n], USDT: [10_000n - 3_000n - 2_200n, 2_200n] },
    },
    postings: [
      ["trade", "2", "1", "USDT", 3_000n],
      ["trade", "1", "2", "BTC", 300_000n],
    ],
  },
  {
    name: "price-time priority across levels, fees rounded up into system:fees",
    fees: [10, 25],
    given: { "1": { BTC: 500_000n }, "2": { BTC: 500_000n }, "3": { USDT: 100_000n } },
    when: [
      ["limit", "1", "sell", 101, 1],
      ["limit", "2", "sell", 100, 1],
      ["limit", "1", "sell", 100, 1],
      ["limit", "3", "buy", 101, 3, "ioc"],
    ],
    book: { bids: [], asks: [] },
    fills: [
      // Maker fee 10 bp of 1,000 USDT units = 1; taker fee 25 bp of 100,000 sat = 250.
      [2, 4, 100, 1, 1n, 250n],
      [3, 4, 100, 1, 1n, 250n],
      [1, 4, 101, 1, 2n, 250n], // 10 bp of 1,010 = 1.01 → 2
    ],
    balances: {
      "1": { BTC: [300_000n, 0n], USDT: [2_010n - 3n, 0n] },
      "2": { BTC: [400_000n, 0n], USDT: [999n, 0n] },
      "3": { BTC: [300_000n - 750n, 0n], USDT: [100_000n - 3_010n, 0n] },
      "system:fees": { BTC: [750n, 0n], USDT: [4n, 0n] },
    },
  },
  {
    name: "FOK that cannot fill and post-only that would cross are rejected and change nothing",
    given: { "1": { BTC: 100_000n }, "2": { USDT: 10_000n } },
    when: [
      ["limit", "1", "sell", 100, 1],
      ["limit", "2", "buy", 100, 2, "fok"],
      ["limit", "2", "buy", 100, 1, "post_only"],
      ["limit", "2", "buy", 99, 1, "post_only"],
    ],
    rejects: ["fok_not_filled", "post_only_would_trade"],
    book: { bids: [[99, 1]], asks: [[100, 1]] },
    fills: [],
    balances: { "2": { USDT: [10_000n - 990n, 990n] }, "1": { BTC: [0n, 100_000n] } },
  },
  {
    name: "insufficient balance and lot rules",
    given: { "1": { USDT: 999n } },
    when: [
      ["limit", "1", "buy", 100, 1],
      ["limit", "1", "buy", 0, 1],
      ["limit", "1", "buy", 10, 0],
      ["limit", "1", "sell", 10, 1],
    ],
    rejects: [
      "insufficient_balance",
      "price_must_be_positive",
      "quantity_must_be_positive",
      "insufficient_balance",
    ],
    book: { bids: [], asks: [] },
    fills: [],
    balances: { "1": { USDT: [999n, 0n] } },
  },
  {
    name: "market sell within the band; the order beyond the band is left",
    fees: [0, 0],
    given: { "1": { USDT: 100_000n }, "2": { BTC: 300_000n } },
    when: [
      ["tick", "1.00"], // 100 ticks; band 5 % → sells go down to 95
      ["limit", "1", "buy", 99, 1],
      ["limit", "1", "buy", 90, 1],
      ["market", "2", "sell", 2],
    ],
    book: { bids: [[90, 1]], asks: [] },
    fills: [[1, 3, 99, 1, 0n, 0n]],
    balances: {
      "1": { BTC: [100_000n, 0n], USDT: [100_000n - 990n - 900n, 900n] },
      "2": { BTC: [200_000n, 0n], USDT: [990n, 0n] },
    },
  },
  {
    name: "self-trade prevention cancels the resting order, then the taker trades on",
    fees: [0, 0],
    given: { "1": { BTC: 100_000n, USDT: 10_000n }, "2": { BTC: 100_000n } },
    when: [
      ["limit", "1", "sell", 100, 1],
      ["limit", "2", "sell", 101, 1],
      ["limit", "1", "buy", 101, 1],
    ],
    book: { bids: [], asks: [] },
    fills: [[2, 3, 101, 1, 0n, 0n]],
    balances: {
      "1": { BTC: [200_000n, 0n], USDT: [10_000n - 1_010n, 0n] },
      "2": { BTC: [0n, 0n], USDT: [1_010n, 0n] },
    },
  },
];

function runScenario(scenario: Scenario, factory: OrderBookFactory) {
  const state = createKernelState({}, factory);
  const c = new CommandMaker();
  const [feeBpsMaker, feeBpsTaker] = scenario.fees ?? [0, 0];
  const setup: Command[] = [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker, feeBpsTaker }),
    c.session("BTC-USDT", true),
  ];
  for (const [owner, assets] of Object.entries(scenario.given)) {
    if (!owner.startsWith("system:")) setup.push(c.open(owner));
    for (const [asset, amount] of Object.entries(assets))
      setup.push(c.deposit(owner, asset, amount));
  }
  for (const command of setup) expect(apply(state, command).result.ok).toBe(true);
  const rejects: string[] = [];
  const fills: Scenario["fills"] = [];
  const postings: NonNullable<Scenario["postings"]> = [];
  for (const step of scenario.when) {
    let command: Command;
    switch (step[0]) {
      case "limit":
        command = c.limit(step[1], "BTC-USDT", step[2], step[3], step[4], step[5] ?? "gtc");
        break;
      case "market":
        command = c.order(step[1], "BTC-USDT", step[2], "market", "ioc", null, step[3], null);
        break;
      case "market_quote":
        command = c.order(step[1], "BTC-USDT", "buy", "market", "ioc", null, null, step[2]);
        break;
      case "cancel":
        command = c.cancel(step[1], step[2]);
        break;
      case "replace":
        command = c.replace(step[1], step[2], step[3], step[4]);
        break;
      case "tick":
        command = c.tick("BTC-USDT", step[1]);
        break;
    }
    const out = apply(state, command);
    checkInvariants(state);
    if (!out.result.ok) rejects.push(out.result.code);
    for (const event of out.events) {
      if (event.type === "fill") {
        const fill: FillEvent = event;
        fills.push([
          fill.makerOrderId,
          fill.takerOrderId,
          fill.priceTicks,
          fill.quantityLots,
          fill.feeMaker,
          fill.feeTaker,
        ]);
      }
      if (event.type === "posting") {
        const { posting } = event as PostingEvent;
        postings.push([
          posting.reason,
          posting.debitAccount.split("|")[0]!,
          posting.creditAccount.split("|")[0]!,
          posting.assetId,
          posting.amount,
        ]);
      }
    }
  }
  const depth = getDepth(state, "BTC-USDT", "real", 100)!;
  return {
    rejects,
    fills,
    postings,
    book: {
      bids: depth.bids.map((level) => [level.priceTicks, level.quantityLots]),
      asks: depth.asks.map((level) => [level.priceTicks, level.quantityLots]),
    },
    balance: (owner: string, asset: string) => {
      const balance = getBalance(state, owner, "real", "fund", asset);
      return [balance.available, balance.held];
    },
  };
}

describe.each([
  ["reference", createReferenceBook],
  ["fast", createOrderBook],
] as const)("scenarios on the %s book", (_name, factory) => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", (_n, scenario) => {
    const outcome = runScenario(scenario, factory);
    expect(outcome.rejects).toEqual(scenario.rejects ?? []);
    expect(outcome.book).toEqual(scenario.book);
    expect(outcome.fills).toEqual(scenario.fills);
    for (const [owner, assets] of Object.entries(scenario.balances)) {
      for (const [asset, expected] of Object.entries(assets)) {
        expect([owner, asset, outcome.balance(owner, asset)]).toEqual([owner, asset, expected]);
      }
    }
    if (scenario.postings !== undefined) expect(outcome.postings).toEqual(scenario.postings);
  });
});
