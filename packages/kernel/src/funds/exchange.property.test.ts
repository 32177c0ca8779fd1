// Property tests: random streams of ticks, quotes, accepts, clock ticks and deposits go to the
// kernel and to the slow reference model (exchange.reference.ts); results, fund balances and
// standing quotes must agree after every command. A failure names its seed.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import { Random } from "../testing/simulate.ts";
import type { Command, Mode } from "../types.ts";
import { exchangeTargetAmount } from "./exchange-math.ts";
import { ExchangeReference, referenceTarget, type ReferenceMarket } from "./exchange.reference.ts";

const markets: ReferenceMarket[] = [
  { base: "BTC", quote: "USDT", baseScale: 8, quoteScale: 6, instrumentId: "BTC-USDT" },
  { base: "ETH", quote: "BTC", baseScale: 8, quoteScale: 8, instrumentId: "ETH-BTC" },
];
const assets = ["USDT", "BTC", "ETH"];
const owners = ["1", "2", "3", "system:house"];
const modes: Mode[] = ["real", "demo"];

function randomPrice(random: Random): string {
  const whole = random.pick([0, 1, 7, 42, 30_000, 123_456]);
  const decimals = random.int(0, 12);
  let fraction = "";
  for (let i = 0; i < decimals; i++) fraction += String(random.int(0, 9));
  const text = decimals === 0 ? String(whole) : `${whole}.${fraction}`;
  return /^0(\.0*)?$/.test(text) ? "0.5" : text.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
}

function run(seed: number, steps: number): void {
  const random = new Random(seed);
  const c = new CommandMaker();
  const state = createKernelState({ demoGrants: [] });
  const model = new ExchangeReference(markets);
  const send = (command: Command): { ok: boolean; code: string | null } => {
    const out = apply(state, command);
    checkInvariants(state);
    return out.result.ok ? { ok: true, code: null } : { ok: false, code: out.result.code };
  };
  const setup: Command[] = [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.asset("ETH", 8),
    c.market("BTC-USDT", "BTC", "USDT"),
    c.market("ETH-BTC", "ETH", "BTC", { priceStep: "0.000001", lotSize: "0.01" }),
  ];
  for (const owner of owners.slice(0, 3)) setup.push(c.open(owner), c.open(owner, "demo"));
  for (const command of setup) expect(send(command).ok).toBe(true);
  const fund = (owner: string, mode: Mode, asset: string, amount: bigint) => {
    if (amount === 0n) return;
    const command =
      mode === "real" ? c.deposit(owner, asset, amount) : c.grant(owner, asset, amount);
    expect(send(command).ok).toBe(true);
    model.add(mode, owner, asset, amount);
  };
  for (const mode of modes) {
    for (const asset of assets) {
      fund(
        "system:house",
        mode,
        asset,
        BigInt(random.int(0, 3)) * 10n ** BigInt(random.int(4, 12)),
      );
      for (const owner of owners.slice(0, 3)) {
        fund(owner, mode, asset, BigInt(random.int(0, 1_000)) * 10n ** BigInt(random.int(2, 8)));
      }
    }
  }
  const quoteIds: string[] = [];
  const outcomes = new Map<string, number>();
  for (let step = 0; step < steps; step++) {
    c.nowMs += random.chance(0.05) ? random.int(5_000, 90_000) : random.int(0, 400);
    const roll = random.next();
    const mode = random.pick(modes);
    const owner = random.pick(owners.slice(0, 3));
    let command: Command;
    let expected: string | null;
    if (roll < 0.15) {
      const market = random.pick(markets);
      command = c.tick(market.instrumentId, randomPrice(random));
      if (command.type !== "record_tick") throw new Error("tick");
      model.tick(market.instrumentId, command.price, command.atMs, command.tickId);
      expected = null;
    } else if (roll < 0.5) {
      const source = random.pick(assets);
      const target = random.chance(0.9) ? random.pick(assets) : "NOPE";
      const amount = random.chance(0.05)
        ? BigInt(random.int(-3, 0))
        : BigInt(random.int(1, 9_999)) * 10n ** BigInt(random.int(0, 9));
      const terms = {
        spreadBps: random.pick([0, 1, 50, 999, 1000]),
        ttlMs: random.pick([1_000, 10_000, 60_000]),
        tickAgeMaxMs: random.pick([1, 60_000, 3_600_000]),
      };
      command = c.exchangeQuote(owner, source, amount, target, mode, terms);
      expected =
        target === "NOPE"
          ? "asset_not_found"
          : model.quote(command.id, owner, mode, source, amount, target, command.atMs, terms);
      quoteIds.push(command.id);
    } else if (roll < 0.8) {
      // Mostly the owner accepting a standing quote; sometimes someone else's, or a stale id.
      const standing = [...model.quotes.values()];
      if (standing.length > 0 && random.chance(0.7)) {
        const quote = random.pick(standing);
        command = c.exchangeAccept(quote.ownerId, quote.quoteId, quote.mode);
        expected = model.accept(quote.quoteId, quote.ownerId, quote.mode, command.atMs);
      } else {
        const quoteId = quoteIds.length > 0 ? random.pick(quoteIds.slice(-10)) : "none";
        command = c.exchangeAccept(owner, quoteId, mode);
        expected = model.accept(quoteId, owner, mode, command.atMs);
      }
    } else if (roll < 0.9) {
      command = c.clock(random.int(0, 20_000));
      c.nowMs = command.atMs + 1;
      model.clock(command.atMs);
      expected = null;
    } else {
      const asset = random.pick(assets);
      const amount = BigInt(random.int(1, 1_000)) * 10n ** BigInt(random.int(2, 10));
      const who = random.chance(0.5) ? "system:house" : owner;
      command = mode === "real" ? c.deposit(who, asset, amount) : c.grant(who, asset, amount);
      model.add(mode, who, asset, amount);
      expected = null;
    }
    const got = send(command);
    const outcome = `${command.type}:${got.code ?? "ok"}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    expect(got.code, `seed ${seed} step ${step}: ${command.type}`).toBe(expected);
    for (const m of modes) {
      for (const o of owners) {
        for (const a of assets) {
          const b = getBalance(state, o, m, "fund", a);
          expect(b.available + b.held, `seed ${seed} step ${step}: ${m} ${o} ${a}`).toBe(
            model.balance(m, o, a),
          );
        }
      }
    }
    expect([...state.funds.quotes.keys()].sort(), `seed ${seed} step ${step}`).toEqual(
      [...model.quotes.keys()].sort(),
    );
  }
  // The stream must exercise the interesting paths, not only rejections.
  expect(outcomes.get("exchange_accept:ok") ?? 0, `seed ${seed}`).toBeGreaterThan(0);
  expect(outcomes.get("exchange_quote:ok") ?? 0, `seed ${seed}`).toBeGreaterThan(0);
  // A snapshot taken with quotes standing restores to the same state hash.
  expect(stateHash(restore(snapshot(state)))).toBe(stateHash(state));
}

describe("quick exchange against the reference model", () => {
  for (let seed = 1; seed <= 12; seed++) {
    it(`seed ${seed}`, () => run(seed, 400));
  }

  it("prices exactly like the reference search for random terms", () => {
    const random = new Random(99);
    for (let i = 0; i < 2_000; i++) {
      const market = random.pick(markets);
      const price = randomPrice(random);
      const [whole, part = ""] = price.split(".");
      const priceScaled = BigInt(whole! + part.padEnd(18, "0"));
      const side = random.chance(0.5) ? "buy" : "sell";
      const spreadBps = random.int(0, 1_000);
      const sourceAmount = BigInt(random.int(1, 1_000_000)) * 10n ** BigInt(random.int(0, 8));
      expect(
        exchangeTargetAmount({
          side,
          priceScaled,
          spreadBps,
          baseScale: market.baseScale,
          quoteScale: market.quoteScale,
          sourceAmount,
        }),
      ).toBe(referenceTarget(side, price, spreadBps, market, sourceAmount));
    }
  });
});
