// The double copies of order holds and account balances are a fast path only: these
// properties hold them exact, and hold the kernel with them equal to the kernel made to take
// the BigInt path.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkInvariants } from "../invariants.ts";
import { apply, createKernelState } from "../index.ts";
import type { MarketState } from "../reference/state.ts";
import { stateHash } from "../snapshot.ts";
import type { KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { Command, Side } from "../index.ts";
import { holdFor, holdUnits } from "./holds.ts";
import { setHeld, unitsOf } from "./state.ts";

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

function safeNumber(value: bigint): number {
  return value <= SAFE_MAX ? Number(value) : Number.POSITIVE_INFINITY;
}

describe("hold units", () => {
  it("holdUnits is the exact hold when it is a safe integer, and -1 only when it is not", () => {
    const big = fc.bigInt({ min: 1n, max: 2n ** 62n });
    fc.assert(
      fc.property(
        big,
        big,
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (tickLotUnits, lotUnits, isBuy, priceTicks, lots) => {
          const market = {
            tickLotUnits,
            tickLotUnitsNumber: safeNumber(tickLotUnits),
            lotUnits,
            lotUnitsNumber: safeNumber(lotUnits),
          } as MarketState;
          const exact = holdFor(market, isBuy, priceTicks, lots);
          const units = holdUnits(market, isBuy, priceTicks, lots);
          if (units >= 0) expect(BigInt(units)).toBe(exact);
          else expect(exact > SAFE_MAX).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("setHeld keeps the copy exact on both sides of 2^53", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 70n }), (amount) => {
        const order = { heldAmount: 1n, heldUnits: 1 } as Parameters<typeof setHeld>[0];
        setHeld(order, amount);
        expect(order.heldAmount).toBe(amount);
        expect(order.heldUnits).toBe(amount <= SAFE_MAX ? Number(amount) : -1);
        expect(unitsOf(amount)).toBe(order.heldUnits);
      }),
      { numRuns: 1_000 },
    );
  });
});

const USERS = ["1", "2", "3"];

type Step =
  | { kind: "limit"; owner: number; side: Side; price: number; lots: number }
  | { kind: "market"; owner: number; side: Side; lots: number }
  | { kind: "cancel"; owner: number; pick: number }
  | { kind: "replace"; owner: number; pick: number; price: number; lots: number };

const owner = fc.integer({ min: 0, max: USERS.length - 1 });
const side = fc.constantFrom<Side>("buy", "sell");
const price = fc.integer({ min: 95, max: 105 });
const lots = fc.integer({ min: 1, max: 30 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("limit" as const), owner, side, price, lots }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("market" as const), owner, side, lots }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("cancel" as const), owner, pick: fc.nat() }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("replace" as const),
      owner,
      pick: fc.nat(),
      price,
      lots,
    }),
  },
);

/**
 * Markets whose holds are small, straddle 2^53 (quote scale 18: a tick of one lot is 9·10^12
 * units, so holds run from 8.6·10^14 to 2.8·10^16), or are all above it.
 */
const markets: Record<string, { quoteScale: number; lotSize: string }> = {
  small: { quoteScale: 6, lotSize: "0.001" },
  straddling: { quoteScale: 18, lotSize: "0.0009" },
  huge: { quoteScale: 18, lotSize: "1" },
};

function setup(kind: string): { state: KernelState; c: CommandMaker } {
  const { quoteScale, lotSize } = markets[kind]!;
  const state = createKernelState({ openOrdersPerOwnerMax: 10 });
  const c = new CommandMaker();
  const commands = [
    c.asset("USDT", quoteScale),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT", { lotSize, feeBpsMaker: 7, feeBpsTaker: 13 }),
    c.session("BTC-USDT", true),
    c.tick("BTC-USDT", "1.00"),
  ];
  // Balances far above 2^53, just above it (holds take them across) and far below it.
  const usdt = [10n ** 24n, 2n ** 53n + 3n * 10n ** 15n, 10n ** 11n];
  const btc = [10n ** 12n, 2n ** 53n + 7n, 10n ** 11n];
  USERS.forEach((user, i) => {
    commands.push(c.open(user), c.deposit(user, "USDT", usdt[i]!), c.deposit(user, "BTC", btc[i]!));
  });
  for (const command of commands) expect(apply(state, command).result.ok).toBe(true);
  return { state, c };
}

function toCommand(c: CommandMaker, state: KernelState, s: Step): Command {
  const ownerId = USERS[s.owner]!;
  const open = (): number => {
    const ids = [...state.spot.orders.values()]
      .filter((o) => o.owner.ownerId === ownerId)
      .map((o) => o.orderId);
    const pick = "pick" in s ? s.pick : 0;
    return ids.length === 0 ? pick + 1 : ids[pick % ids.length]!;
  };
  switch (s.kind) {
    case "limit":
      return c.limit(ownerId, "BTC-USDT", s.side, s.price, s.lots, "gtc");
    case "market":
      return c.order(ownerId, "BTC-USDT", s.side, "market", "ioc", null, s.lots, null);
    case "cancel":
      return c.cancel(ownerId, open());
    case "replace":
      return c.replace(ownerId, open(), s.price, s.lots);
  }
}

describe("the kernel with hold units", () => {
  for (const kind of Object.keys(markets)) {
    it(`gives the results, events and hash of the BigInt path (${kind} holds)`, () => {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
          const fast = setup(kind);
          const slow = setup(kind);
          for (const s of steps) {
            // The slow kernel's orders and accounts lose their double copies before every
            // command: its hold comparisons and changes take the BigInt path.
            for (const order of slow.state.spot.orders.values()) order.heldUnits = -1;
            for (const account of slow.state.ledger.accounts.values()) {
              account.availableUnits = Number.NaN;
              account.heldUnits = Number.NaN;
            }
            const command = toCommand(fast.c, fast.state, s);
            const a = apply(fast.state, command);
            const b = apply(slow.state, command);
            expect(a).toEqual(b);
            checkInvariants(fast.state);
          }
          expect(stateHash(fast.state)).toBe(stateHash(slow.state));
        }),
        { numRuns: 100 },
      );
    });
  }
});
