// The reference model on random command streams with violent price paths: after every command
// open interest long = short, money is conserved, clearing equals minus the signed entry cost,
// and no user is below zero (negative-balance protection). fast-check prints the seed and path
// of any failure; replay with PERP_SEED=<seed>.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RefCommand, RefState } from "./reference.ts";
import { applyReference, createReferenceState, INSURANCE_FUND_ID } from "./reference.ts";
import { referenceViolations } from "./reference-invariants.ts";
import { btcPerp } from "./testing.ts";

const OWNERS = ["1", "2", "3", "4", "5", "M"];
const HOUR = 3_600_000;

/** Ops relative to the current state; `interpret` turns them into commands. */
type Op =
  | { type: "move"; bps: number }
  | {
      type: "fill";
      buyer: number;
      /** The seller is `seller` places after the buyer, never the buyer. */
      seller: number;
      lots: number;
      offsetBps: number;
      taker: boolean;
    }
  | { type: "rest"; owner: number; buy: boolean; offsetBps: number; lots: number }
  | { type: "leverage"; owner: number; leverage: number }
  | { type: "isolated"; owner: number; isolated: boolean }
  | { type: "margin"; owner: number; add: boolean; amount: number }
  | { type: "cash"; owner: number; deposit: boolean; amount: number }
  | { type: "premium"; spreadBps: number; offsetBps: number }
  | { type: "funding" };

interface Profile {
  name: string;
  /** Insurance fund at the start, in whole USDT. */
  fund: number;
  /** Largest ordinary mark move, and largest gap, in bps. */
  moveBps: number;
  gapBps: number;
  leverageMax: number;
  runs: number;
  /** Event types the profile's runs must produce between them. */
  reaches: string[];
}

const profiles: Profile[] = [
  {
    name: "calm, rich fund",
    fund: 1_000_000,
    moveBps: 50,
    gapBps: 300,
    leverageMax: 50,
    runs: 60,
    reaches: ["fill", "funding"],
  },
  {
    name: "violent, rich fund",
    fund: 1_000_000,
    moveBps: 300,
    gapBps: 2_500,
    leverageMax: 125,
    runs: 60,
    reaches: ["liquidation", "liquidation_fee", "takeover"],
  },
  {
    name: "violent, empty fund (ADL)",
    fund: 0,
    moveBps: 300,
    gapBps: 2_500,
    leverageMax: 125,
    runs: 60,
    reaches: ["liquidation", "takeover", "adl"],
  },
];

function opArbitrary(profile: Profile): fc.Arbitrary<Op> {
  const owner = fc.integer({ min: 0, max: OWNERS.length - 1 });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .oneof(
          { weight: 9, arbitrary: fc.integer({ min: -profile.moveBps, max: profile.moveBps }) },
          { weight: 1, arbitrary: fc.integer({ min: -profile.gapBps, max: profile.gapBps }) },
        )
        .map((bps) => ({ type: "move" as const, bps })),
    },
    {
      weight: 8,
      arbitrary: fc.record({
        type: fc.constant("fill" as const),
        buyer: owner,
        seller: fc.integer({ min: 1, max: OWNERS.length - 1 }),
        lots: fc.integer({ min: 1, max: 200 }),
        offsetBps: fc.integer({ min: -450, max: 450 }),
        taker: fc.boolean(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        type: fc.constant("rest" as const),
        owner,
        buy: fc.boolean(),
        offsetBps: fc.integer({ min: -800, max: 800 }),
        lots: fc.integer({ min: 1, max: 40 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant("leverage" as const),
        owner,
        leverage: fc.integer({ min: 1, max: profile.leverageMax }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant("isolated" as const),
        owner,
        isolated: fc.boolean(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        type: fc.constant("margin" as const),
        owner,
        add: fc.boolean(),
        amount: fc.integer({ min: 1, max: 200 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant("cash" as const),
        owner,
        deposit: fc.boolean(),
        amount: fc.integer({ min: 1, max: 500 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        type: fc.constant("premium" as const),
        spreadBps: fc.integer({ min: 1, max: 50 }),
        offsetBps: fc.integer({ min: -100, max: 100 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ type: "funding" as const }) },
  );
}

/** Ticks moved by bps from `ticks`, at least one tick. */
function moved(ticks: bigint, bps: number): bigint {
  const next = (ticks * BigInt(10_000 + bps)) / 10_000n;
  return next < 1n ? 1n : next;
}

interface Run {
  state: RefState;
  index: bigint;
  tick: number;
  nowMs: number;
}

function interpret(run: Run, op: Op): RefCommand {
  const ownerId = (i: number): string => OWNERS[i]!;
  const million = 1_000_000n;
  switch (op.type) {
    case "move": {
      run.index = moved(run.index, op.bps);
      const spread = run.index / 2_000n + 1n;
      return {
        type: "mark",
        tickId: `t${++run.tick}`,
        indexTicks: run.index,
        bidTicks: run.index - spread,
        askTicks: run.index + spread,
      };
    }
    case "fill":
      return {
        type: "fill",
        buyerId: ownerId(op.buyer),
        sellerId: ownerId((op.buyer + op.seller) % OWNERS.length),
        lots: BigInt(op.lots),
        priceTicks: moved(run.state.mark!.priceTicks, op.offsetBps),
        taker: op.taker ? "buy" : "sell",
      };
    case "rest":
      return {
        type: "rest",
        ownerId: ownerId(op.owner),
        side: op.buy ? "buy" : "sell",
        priceTicks: moved(run.state.mark!.priceTicks, op.offsetBps),
        lots: BigInt(op.lots),
      };
    case "leverage":
      return { type: "set_leverage", ownerId: ownerId(op.owner), leverage: op.leverage };
    case "isolated":
      return {
        type: "set_margin_mode",
        ownerId: ownerId(op.owner),
        marginMode: op.isolated ? "isolated" : "cross",
      };
    case "margin":
      return {
        type: op.add ? "add_margin" : "remove_margin",
        ownerId: ownerId(op.owner),
        amount: BigInt(op.amount) * million,
      };
    case "cash":
      return {
        type: op.deposit ? "deposit" : "withdraw",
        ownerId: ownerId(op.owner),
        amount: BigInt(op.amount) * million,
      };
    case "premium": {
      run.nowMs += HOUR / 4;
      const mid = moved(run.index, op.offsetBps);
      const half = (run.index * BigInt(op.spreadBps)) / 20_000n + 1n;
      return {
        type: "premium",
        atMs: run.nowMs,
        tickId: `t${run.tick}`,
        indexTicks: run.index,
        bidTicks: mid - half,
        askTicks: mid + half,
      };
    }
    case "funding":
      run.nowMs += HOUR;
      return { type: "settle_funding", atMs: run.nowMs };
  }
}

const seedText = process.env.PERP_SEED;
const seed = seedText === undefined ? {} : { seed: Number(seedText) };

describe.each(profiles)("reference invariants on random streams: $name", (profile) => {
  it("hold after every command", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            deposit: fc.integer({ min: 20, max: 2_000 }),
            leverage: fc.integer({ min: 1, max: profile.leverageMax }),
            isolated: fc.boolean(),
          }),
          { minLength: OWNERS.length, maxLength: OWNERS.length },
        ),
        fc.array(opArbitrary(profile), { minLength: 1, maxLength: 200, size: "max" }),
        (owners, ops) => {
          const market = btcPerp({ feeBpsMaker: 2, feeBpsTaker: 5, liquidationFeeBps: 50 });
          let state = createReferenceState(market);
          const setup: RefCommand[] = [
            { type: "mark", tickId: "t0", indexTicks: 300_000n, bidTicks: null, askTicks: null },
            ...OWNERS.flatMap((ownerId, i): RefCommand[] => [
              { type: "deposit", ownerId, amount: BigInt(owners[i]!.deposit) * 1_000_000n },
              { type: "set_leverage", ownerId, leverage: owners[i]!.leverage },
              {
                type: "set_margin_mode",
                ownerId,
                marginMode: owners[i]!.isolated ? "isolated" : "cross",
              },
            ]),
          ];
          if (profile.fund > 0) {
            setup.push({
              type: "deposit",
              ownerId: INSURANCE_FUND_ID,
              amount: BigInt(profile.fund) * 1_000_000n,
            });
          }
          for (const command of setup) {
            const outcome = applyReference(state, command);
            if (!outcome.ok) throw new Error(`setup rejected: ${outcome.code}`);
            state = outcome.state;
          }
          const run: Run = { state, index: 300_000n, tick: 0, nowMs: 0 };
          for (const op of ops) {
            const command = interpret(run, op);
            const outcome = applyReference(run.state, command);
            if (!outcome.ok) continue;
            for (const event of outcome.events) seen.add(event.type);
            run.state = outcome.state;
            expect(referenceViolations(run.state)).toEqual([]);
          }
        },
      ),
      { numRuns: profile.runs, ...seed },
    );
    // The streams reach the paths under test, not only quiet markets.
    for (const type of profile.reaches) expect([type, seen.has(type)]).toEqual([type, true]);
  });
});
