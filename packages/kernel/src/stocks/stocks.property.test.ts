// Property tests: random quotes, sessions, market and limit orders, cancels and inventory
// funding go to the kernel and to the slow reference (stocks.reference.ts); after every command
// the users' cash and shares, the house's shares and cash and the fees must agree, every fill
// must be at the reference's price; replaying from a snapshot taken midway gives the same hash.
// The house has ample cash so a limit sell always fills at the executable price. A failure
// names its seed.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import { Random } from "../testing/simulate.ts";
import type { Command } from "../types.ts";
import { refExecutable, StockReference, type RefTerms } from "./stocks.reference.ts";
import { getStockHolding, getStockInventory } from "./views.ts";

const HOUSE = "system:house";
const owners = ["1", "2"];

const cases: {
  name: string;
  instrument: string;
  asset: string;
  terms: RefTerms;
  prices: string[];
}[] = [
  {
    name: "US",
    instrument: "AAPL",
    asset: "USD",
    terms: { priceScale: 2, assetScale: 2, lotSize: 1n, spreadBps: 10n, commissionBps: 5n, commissionMin: 100n, stampDutyBps: 0n, stampDutyRound: 1n }, // prettier-ignore
    prices: ["200", "199.5", "201.25", "198.123", "202", "200.01"],
  },
  {
    name: "HK",
    instrument: "0700.HK",
    asset: "HKD",
    terms: { priceScale: 3, assetScale: 2, lotSize: 100n, spreadBps: 20n, commissionBps: 3n, commissionMin: 300n, stampDutyBps: 10n, stampDutyRound: 100n }, // prettier-ignore
    prices: ["420", "419.2", "421.8", "418.05", "423", "420.5"],
  },
];

function run(seed: number, steps: number, k: (typeof cases)[number]): void {
  const random = new Random(seed);
  const c = new CommandMaker();
  const state = createKernelState();
  const model = new StockReference(k.terms);
  const commands: Command[] = [];
  const fills: { orderId: number; price: bigint; net: bigint }[] = [];
  const send = (command: Command) => {
    commands.push(command);
    const output = apply(state, command);
    for (const e of output.events) {
      if (e.type !== "stock_order_filled") continue;
      const price = BigInt(e.fill.price.replace(".", ""));
      fills.push({ orderId: e.fill.orderId, price, net: e.fill.net });
    }
    checkInvariants(state);
    return output;
  };
  const t = k.terms;
  for (const command of [
    c.asset(k.asset, t.assetScale),
    ...owners.map((o) => c.open(o)),
    ...owners.map((o) => c.deposit(o, k.asset, 100_000_000n)),
    c.deposit(HOUSE, k.asset, 10n ** 12n),
    c.stockConfigure(k.instrument, k.asset, {
      priceScale: t.priceScale,
      lotSize: t.lotSize,
      spreadBps: Number(t.spreadBps),
      commissionBps: Number(t.commissionBps),
      commissionMin: t.commissionMin,
      stampDutyBps: Number(t.stampDutyBps),
      stampDutyRoundUnits: t.stampDutyRound,
    }),
    c.stockFund(k.instrument, 50n * t.lotSize),
  ]) {
    expect(send(command).result.ok, command.type).toBe(true);
  }
  owners.forEach((o) => model.cash.set(o, 100_000_000n));
  model.houseShares = 50n * t.lotSize;
  let quote: string | null = null;
  const snapAt = random.int(10, steps - 1);
  let snap: Uint8Array | undefined;
  let snapIndex = 0;
  for (let step = 0; step < steps; step++) {
    const roll = random.next();
    if (roll < 0.3) {
      quote = random.pick(k.prices);
      send(c.tick(k.instrument, quote));
      model.tick(quote);
    } else if (roll < 0.38) {
      const open = random.chance(0.7);
      send(c.stockSession(k.instrument, open));
      model.session(open);
    } else if (roll < 0.45 && state.stocks.pending.size > 0) {
      const order = random.pick([...state.stocks.pending.values()]);
      expect(send(c.stockCancel(order.ownerId, order.orderId)).result.ok).toBe(true);
      model.cancel(order.orderId);
    } else if (roll < 0.5) {
      const quantity = BigInt(random.int(1, 10)) * t.lotSize;
      send(c.stockFund(k.instrument, quantity));
      model.houseShares += quantity;
    } else {
      const owner = random.pick(owners);
      const side = random.chance(0.55) ? "buy" : "sell";
      const lots = BigInt(random.int(0, 8));
      const limit = random.chance(0.5) ? random.pick(k.prices) : null;
      const gtc = limit !== null && random.chance(0.5);
      const command = c.stockOrder(owner, k.instrument, side, lots * t.lotSize, {
        kind: limit === null ? "market" : "limit",
        limitPrice: limit === null ? null : Number(limit).toFixed(t.priceScale),
        tif: gtc ? "gtc" : "day",
      });
      const output = send(command);
      const limitUnits =
        limit === null ? null : refExecutable({ ...t, spreadBps: 0n }, "buy", limit);
      const accepted = model.place(
        {
          orderId: state.stocks.orderIdNext - (output.result.ok ? 1 : 0),
          owner,
          side,
          quantity: lots * t.lotSize,
          limit: limitUnits,
          gtc,
        },
        // The quote a market order or an immediate fill may use (the tape's last tick).
        quote,
      );
      expect(output.result.ok, `seed ${seed} step ${step}`).toBe(accepted);
    }
    // Agreement after every command.
    for (const owner of owners) {
      const cash = getBalance(state, owner, "real", "fund", k.asset);
      expect(cash.available + cash.held, `seed ${seed} step ${step} cash`).toBe(
        model.cash.get(owner),
      );
      expect(getStockHolding(state, owner, "real", k.instrument)?.quantity ?? 0n).toBe(
        model.shares.get(owner) ?? 0n,
      );
    }
    const inventory = getStockInventory(state, "real", k.instrument);
    expect(inventory.available + inventory.reserved).toBe(model.houseShares);
    expect(getBalance(state, "system:fees", "real", "fund", k.asset).available).toBe(model.fees);
    expect(state.stocks.pending.size).toBe(model.pending.length);
    if (step === snapAt) {
      snap = snapshot(state);
      snapIndex = commands.length;
    }
  }
  // Every fill at the reference's price and net.
  expect(fills, `seed ${seed}`).toEqual(model.fills);
  expect(model.fills.length).toBeGreaterThan(0);
  const restored = restore(snap!);
  for (const command of commands.slice(snapIndex)) apply(restored, command);
  expect(stateHash(restored)).toBe(stateHash(state));
}

describe("stocks against the slow reference", () => {
  for (const k of cases) {
    it.each([1, 2, 3, 4, 5, 6])(`${k.name} seed %i`, (seed) => run(seed, 400, k));
  }
});
