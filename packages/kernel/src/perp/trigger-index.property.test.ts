// The sorted trigger index and the naive scan, fed the same random streams, fire the same
// triggers in the same order and keep the same contents. fast-check prints the seed and path of
// any failure; replay with PERP_SEED=<seed> (and the path in `fc.assert`'s options).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Trigger, TriggerDirection, TriggerIndex } from "./trigger-index.ts";
import { createTriggerIndex } from "./trigger-index.ts";
import { createReferenceTriggerIndex } from "./trigger-index.reference.ts";

type Op =
  | { type: "upsert"; id: number; priceTicks: number; direction: TriggerDirection }
  | { type: "remove"; id: number }
  | { type: "fire"; markTicks: number };

interface Profile {
  name: string;
  ids: number;
  priceLow: number;
  priceHigh: number;
  length: number;
  runs: number;
}

const profiles: Profile[] = [
  // Many equal prices: ties are broken by id.
  { name: "few prices, many ties", ids: 40, priceLow: 100, priceHigh: 104, length: 400, runs: 200 },
  // Hundreds of live triggers: chunks split and empty.
  {
    name: "many triggers, wide prices",
    ids: 800,
    priceLow: 1,
    priceHigh: 10_000,
    length: 3_000,
    runs: 40,
  },
];

function opArbitrary(profile: Profile): fc.Arbitrary<Op> {
  const price = fc.integer({ min: profile.priceLow, max: profile.priceHigh });
  const id = fc.integer({ min: 1, max: profile.ids });
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        type: fc.constant("upsert" as const),
        id,
        priceTicks: price,
        direction: fc.constantFrom<TriggerDirection>("at_or_below", "at_or_above"),
      }),
    },
    { weight: 2, arbitrary: fc.record({ type: fc.constant("remove" as const), id }) },
    {
      weight: 2,
      arbitrary: fc.record({ type: fc.constant("fire" as const), markTicks: price }),
    },
  );
}

function run(index: TriggerIndex, op: Op): unknown {
  switch (op.type) {
    case "upsert":
      index.upsert({ id: `p${op.id}`, priceTicks: BigInt(op.priceTicks), direction: op.direction });
      return index.size;
    case "remove":
      return index.remove(`p${op.id}`);
    case "fire":
      return index.fire(BigInt(op.markTicks));
  }
}

const seedText = process.env.PERP_SEED;
const seed = seedText === undefined ? {} : { seed: Number(seedText) };

describe.each(profiles)("trigger index agrees with the naive scan: $name", (profile) => {
  it("on random streams", () => {
    fc.assert(
      fc.property(
        fc.array(opArbitrary(profile), {
          minLength: 1,
          maxLength: profile.length,
          size: "max",
        }),
        (ops) => {
          const fast = createTriggerIndex();
          const naive = createReferenceTriggerIndex();
          for (const op of ops) expect(run(fast, op)).toEqual(run(naive, op));
          expect(fast.list()).toEqual(naive.list());
          expect(fast.size).toBe(naive.size);
        },
      ),
      { numRuns: profile.runs, ...seed },
    );
  });
});

describe("trigger index", () => {
  it("fires at or below first, highest price first, then at or above, lowest first", () => {
    const index = createTriggerIndex();
    const add = (id: string, priceTicks: bigint, direction: TriggerDirection): void =>
      index.upsert({ id, priceTicks, direction });
    add("long-liquidation-b", 286_144n, "at_or_below");
    add("long-liquidation-a", 286_144n, "at_or_below");
    add("long-stop", 290_000n, "at_or_below");
    add("long-take-profit", 320_000n, "at_or_above");
    add("short-liquidation", 313_746n, "at_or_above");
    add("short-stop", 286_000n, "at_or_above");
    const fired = (mark: bigint): string[] => index.fire(mark).map((t: Trigger) => t.id);
    expect(fired(295_000n)).toEqual(["short-stop"]);
    expect(fired(286_144n)).toEqual(["long-stop", "long-liquidation-a", "long-liquidation-b"]);
    expect(index.get("short-liquidation")?.priceTicks).toBe(313_746n);
    // Moving a trigger replaces it.
    add("short-liquidation", 330_000n, "at_or_above");
    expect(fired(320_000n)).toEqual(["long-take-profit"]);
    expect(index.remove("short-liquidation")).toBe(true);
    expect(index.remove("short-liquidation")).toBe(false);
    expect(index.size).toBe(0);
  });

  it("among 100,000 triggers, a quiet tick fires none and a crash fires exactly its 10,000", () => {
    const index = createTriggerIndex();
    for (let i = 0; i < 100_000; i++) {
      const direction: TriggerDirection = i % 2 === 0 ? "at_or_below" : "at_or_above";
      const priceTicks = direction === "at_or_below" ? BigInt(100_000 - i) : BigInt(200_000 + i);
      index.upsert({ id: `p${i}`, priceTicks, direction });
    }
    expect(index.fire(150_000n)).toEqual([]);
    // 10,000 long liquidations at 90,000 … 99,999 (every other id) fire in one tick.
    expect(index.fire(80_001n).length).toBe(10_000);
    expect(index.size).toBe(90_000);
  });
});
