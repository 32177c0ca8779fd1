import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOrderBook } from "./book/order-book.ts";
import { createReferenceBook } from "./book/order-book.reference.ts";
import type { OrderBookFactory } from "./book/types.ts";
import { checkInvariants } from "./invariants.ts";
import { apply, createKernelState } from "./index.ts";
import { restore, snapshot, stateHash } from "./snapshot.ts";
import type { KernelState } from "./state.ts";
import { CommandMaker } from "./testing/commands.ts";
import type { Command, FillEvent, Mode, OrderView, Side, TimeInForce } from "./index.ts";

const USERS = ["1", "2", "3", "system:market_maker"];

/** One step of a random stream, independent of ids and times (the maker supplies those). */
type Step =
  | { kind: "limit"; owner: number; side: Side; price: number; lots: number; tif: TimeInForce }
  | { kind: "market"; owner: number; side: Side; lots: number; quote: number }
  | { kind: "cancel"; owner: number; pick: number }
  | { kind: "replace"; owner: number; pick: number; price: number; lots: number }
  | { kind: "cancel_all"; owner: number }
  | { kind: "tick"; price: number }
  | { kind: "deposit"; owner: number; amount: number }
  | { kind: "withdraw"; owner: number; amount: number }
  | { kind: "limit_stp"; owner: number; side: Side; price: number; lots: number; stp: number }
  | { kind: "amend"; owner: number; pick: number; lots: number }
  | {
      kind: "conditional";
      owner: number;
      side: Side;
      takeProfit: boolean;
      trigger: number;
      price: number;
      lots: number;
      market: boolean;
    }
  | { kind: "oco"; owner: number; side: Side; lots: number; limit: number; trigger: number };

const STP_MODES = ["cancel_resting", "cancel_incoming", "cancel_both"];

const owner = fc.integer({ min: 0, max: USERS.length - 1 });
const side = fc.constantFrom<Side>("buy", "sell");
const price = fc.integer({ min: 95, max: 105 });
const lots = fc.integer({ min: 1, max: 30 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("limit" as const),
      owner,
      side,
      price,
      lots,
      tif: fc.constantFrom<TimeInForce>("gtc", "gtc", "ioc", "fok", "post_only"),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("market" as const),
      owner,
      side,
      lots,
      quote: fc.integer({ min: 0, max: 50_000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("cancel" as const), owner, pick: fc.nat() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("replace" as const),
      owner,
      pick: fc.nat(),
      price,
      lots,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel_all" as const), owner }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("tick" as const), price }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      owner,
      amount: fc.integer({ min: 0, max: 100_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("withdraw" as const),
      owner,
      amount: fc.integer({ min: 0, max: 100_000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("limit_stp" as const),
      owner,
      side,
      price,
      lots,
      stp: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("amend" as const), owner, pick: fc.nat(), lots }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("conditional" as const),
      owner,
      side,
      takeProfit: fc.boolean(),
      trigger: price,
      price,
      lots,
      market: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("oco" as const),
      owner,
      side,
      lots,
      limit: price,
      trigger: price,
    }),
  },
);

function setup(factory: OrderBookFactory): { state: KernelState; c: CommandMaker } {
  const state = createKernelState({ openOrdersPerOwnerMax: 10 }, factory);
  const c = new CommandMaker();
  const commands = [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: 7, feeBpsTaker: 13, levelsPerSideMax: 6 }),
    c.session("BTC-USDT", true),
  ];
  for (const user of USERS) {
    if (!user.startsWith("system:")) commands.push(c.open(user));
    commands.push(c.deposit(user, "USDT", 500_000n), c.deposit(user, "BTC", 5_000_000n));
  }
  for (const command of commands) expect(apply(state, command).result.ok).toBe(true);
  return { state, c };
}

function toCommand(c: CommandMaker, state: KernelState, s: Step, mode: Mode = "real"): Command {
  const ownerId = USERS[s.kind === "tick" ? 0 : s.owner]!;
  const open = (): number => {
    const ids = [...state.spot.orders.values()]
      .filter((o) => o.owner.ownerId === ownerId)
      .map((o) => o.orderId);
    const pick = "pick" in s ? s.pick : 0;
    return ids.length === 0 ? pick + 1 : ids[pick % ids.length]!;
  };
  switch (s.kind) {
    case "limit":
      return c.limit(ownerId, "BTC-USDT", s.side, s.price, s.lots, s.tif, mode);
    case "market":
      return s.side === "buy" && s.quote > 0
        ? c.order(ownerId, "BTC-USDT", "buy", "market", "ioc", null, null, BigInt(s.quote), mode)
        : c.order(ownerId, "BTC-USDT", s.side, "market", "ioc", null, s.lots, null, mode);
    case "cancel":
      return c.cancel(ownerId, open(), mode);
    case "replace":
      return c.replace(ownerId, open(), s.price, s.lots, mode);
    case "cancel_all":
      return c.cancelAll(ownerId, null, mode);
    case "tick":
      return c.tick(
        "BTC-USDT",
        `${Math.floor(s.price / 100)}.${String(s.price % 100).padStart(2, "0")}`,
      );
    case "deposit":
      return c.deposit(ownerId, "USDT", BigInt(s.amount));
    case "withdraw":
      return c.withdrawHold(ownerId, "USDT", BigInt(s.amount), `w${c.nowMs}`);
    case "limit_stp":
      return c.limitStp(
        ownerId,
        "BTC-USDT",
        s.side,
        s.price,
        s.lots,
        STP_MODES[s.stp]!,
        "gtc",
        mode,
      );
    case "amend":
      return c.amend(ownerId, open(), s.lots, mode);
    case "conditional":
      return c.conditional(ownerId, "BTC-USDT", s.side, s.trigger, {
        mode,
        kind: s.takeProfit ? "take_profit" : "stop",
        ...(s.market
          ? s.side === "buy"
            ? { orderType: "market", timeInForce: "ioc", quoteAmount: BigInt(s.lots * 1_000) }
            : { orderType: "market", timeInForce: "ioc", quantityLots: s.lots }
          : { priceTicks: s.price, quantityLots: s.lots }),
      });
    case "oco":
      return c.oco(
        ownerId,
        "BTC-USDT",
        s.side,
        s.lots,
        s.limit,
        s.trigger,
        s.side === "buy" ? s.trigger + 1 : null,
        mode,
      );
  }
}

describe("kernel properties", () => {
  it("conserves every asset and never goes negative, on both books", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        for (const factory of [createReferenceBook, createOrderBook]) {
          const { state, c } = setup(factory);
          for (const s of steps) {
            apply(state, toCommand(c, state, s));
            checkInvariants(state);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("the fast and the reference book give the same fills, books and hash", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const reference = setup(createReferenceBook);
        const fast = setup(createOrderBook);
        for (const s of steps) {
          const command = toCommand(reference.c, reference.state, s);
          const a = apply(reference.state, command);
          const b = apply(fast.state, command);
          expect(b).toEqual(a);
        }
        expect(stateHash(fast.state)).toBe(stateHash(reference.state));
      }),
      { numRuns: 150 },
    );
  });

  it("a repeated command is a duplicate and changes nothing", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const { state, c } = setup(createOrderBook);
        for (const s of steps) {
          const command = toCommand(c, state, s);
          const first = apply(state, command);
          const hash = stateHash(state);
          const again = apply(state, { ...command } as Command);
          expect(again.duplicate).toBe(true);
          expect(again.result).toEqual(first.result);
          expect(again.events).toEqual([]);
          expect(stateHash(state)).toBe(hash);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("restore from a snapshot at any point + the rest gives the live hash", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.nat(), (steps, at) => {
        const { state, c } = setup(createOrderBook);
        const cut = steps.length === 0 ? 0 : at % (steps.length + 1);
        let copy: KernelState | null = null;
        const rest: Command[] = [];
        steps.forEach((s, index) => {
          if (index === cut) copy = restore(snapshot(state), createOrderBook);
          const command = toCommand(c, state, s);
          apply(state, command);
          if (copy !== null) rest.push(command);
        });
        const restored: KernelState = copy ?? restore(snapshot(state), createOrderBook);
        for (const command of rest) apply(restored, command);
        expect(stateHash(restored)).toBe(stateHash(state));
      }),
      { numRuns: 60 },
    );
  });

  it("the state hash does not depend on Map insertion order", () => {
    const { state, c } = setup(createOrderBook);
    for (const command of [
      c.limit("1", "BTC-USDT", "buy", 99, 2),
      c.limit("2", "BTC-USDT", "sell", 101, 2),
      c.limit("3", "BTC-USDT", "buy", 98, 1),
    ]) {
      apply(state, command);
    }
    const hash = stateHash(state);
    for (const map of [
      state.ledger.accounts,
      state.ledger.owners,
      state.spot.orders,
      state.reference.assets,
      state.reference.markets,
    ]) {
      const entries = [...(map as Map<unknown, unknown>).entries()].reverse();
      (map as Map<unknown, unknown>).clear();
      for (const [key, value] of entries) (map as Map<unknown, unknown>).set(key, value);
    }
    expect(stateHash(state)).toBe(hash);
  });

  it("every fill carries both order ids, price, quantity, fees and the latest tick id", () => {
    const { state, c } = setup(createOrderBook);
    apply(state, c.tick("BTC-USDT", "1.00"));
    apply(state, c.limit("1", "BTC-USDT", "sell", 100, 3));
    const taker = c.limit("2", "BTC-USDT", "buy", 100, 3);
    const out = apply(state, taker);
    const fill = out.events.find((e): e is FillEvent => e.type === "fill")!;
    expect(fill).toMatchObject({
      makerOrderId: 1,
      takerOrderId: 2,
      priceTicks: 100,
      quantityLots: 3,
    });
    expect(fill.tickId).toBe(state.reference.ticks.get("BTC-USDT")!.tickId);
    const accepted = out.events.find((e) => e.type === "order_accepted") as { order: OrderView };
    expect(accepted.order.clientOrderId).toBe(taker.id);
  });
});
