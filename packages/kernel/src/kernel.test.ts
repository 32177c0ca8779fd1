import { describe, expect, it } from "vitest";
import { createReferenceBook } from "./book/order-book.reference.ts";
import { createOrderBook } from "./book/order-book.ts";
import type { OrderBookFactory } from "./book/types.ts";
import { decodeCommand, encodeCommand } from "./command-codec.ts";
import { checkInvariants } from "./invariants.ts";
import { apply, createKernelState } from "./index.ts";
import { getBalance, getDepth, getOpenOrders, getStatement } from "./queries.ts";
import { restore, snapshot, stateHash } from "./snapshot.ts";
import type { KernelState } from "./state.ts";
import { CommandMaker } from "./testing/commands.ts";
import type { Command, FillEvent, Mode, PostingEvent } from "./index.ts";

const USDT = 1_000_000n; // 10^6 units
const BTC = 100_000_000n; // 10^8 units

const factories: [string, OrderBookFactory][] = [
  ["reference", createReferenceBook],
  ["fast", createOrderBook],
];

function run(state: KernelState, command: Command) {
  const out = apply(state, command);
  checkInvariants(state);
  return out;
}

function mustOk(state: KernelState, command: Command) {
  const out = run(state, command);
  if (!out.result.ok) throw new Error(`${command.type} rejected: ${out.result.code}`);
  return out;
}

/** BTC-USDT open, users 1..3 with 100,000 USDT and 10 BTC in real mode. */
function setup(factory: OrderBookFactory, feeBpsMaker = 10, feeBpsTaker = 20) {
  const state = createKernelState({}, factory);
  const c = new CommandMaker();
  for (const command of [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker, feeBpsTaker }),
    c.session("BTC-USDT", true),
  ]) {
    mustOk(state, command);
  }
  for (const user of ["1", "2", "3"]) {
    mustOk(state, c.open(user));
    mustOk(state, c.deposit(user, "USDT", 100_000n * USDT));
    mustOk(state, c.deposit(user, "BTC", 10n * BTC));
  }
  return { state, c };
}

function bal(state: KernelState, owner: string, asset: string, mode: Mode = "real") {
  const b = getBalance(state, owner, mode, "fund", asset);
  return [b.available, b.held];
}

describe.each(factories)("kernel with the %s book", (_name, factory) => {
  it("markets start closed and reject orders until opened", () => {
    const state = createKernelState({}, factory);
    const c = new CommandMaker();
    mustOk(state, c.asset("USDT", 6));
    mustOk(state, c.asset("BTC", 8));
    mustOk(state, c.market("BTC-USDT", "BTC", "USDT"));
    mustOk(state, c.open("1"));
    mustOk(state, c.deposit("1", "USDT", 1000n * USDT));
    const before = stateHash(state);
    const out = run(state, c.limit("1", "BTC-USDT", "buy", 100, 1));
    expect(out.result).toEqual({ ok: false, code: "market_closed" });
    expect(out.events).toEqual([]);
    // A rejection changes nothing but remembering the id.
    expect(stateHash(state)).not.toBe(before);
  });

  it("a resting buy holds quote; a crossing sell trades at the maker's price with fees", () => {
    const { state, c } = setup(factory);
    // price 30,000.00 USDT = 3,000,000 ticks; 1 lot = 0.001 BTC; tickLotUnits 10.
    const buy = mustOk(state, c.limit("1", "BTC-USDT", "buy", 3_000_000, 2));
    expect(buy.result).toMatchObject({ ok: true, value: { orderStatus: "open", restingLots: 2 } });
    // 3,000,000 ticks × 2 lots × 10 units = 60 USDT held.
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT - 60n * USDT, 60n * USDT]);

    const sell = mustOk(state, c.limit("2", "BTC-USDT", "sell", 2_900_000, 3));
    expect(sell.result).toMatchObject({
      ok: true,
      value: { orderStatus: "open", filledLots: 2, restingLots: 1 },
    });
    const fills = sell.events.filter((e): e is FillEvent => e.type === "fill");
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({
      makerOrderId: 1,
      takerOrderId: 2,
      makerOwnerId: "1",
      takerOwnerId: "2",
      priceTicks: 3_000_000,
      quantityLots: 2,
      baseAmount: 200_000n,
      quoteAmount: 60n * USDT,
      // Maker (buyer) pays 10 bps of the 0.002 BTC it receives: 200 sat.
      feeMaker: 200n,
      feeMakerAssetId: "BTC",
      // Taker (seller) pays 20 bps of 60 USDT: 0.12 USDT.
      feeTaker: 120_000n,
      feeTakerAssetId: "USDT",
    });
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT - 60n * USDT, 0n]);
    expect(bal(state, "1", "BTC")).toEqual([10n * BTC + 200_000n - 200n, 0n]);
    expect(bal(state, "2", "USDT")).toEqual([100_000n * USDT + 60n * USDT - 120_000n, 0n]);
    // One lot still rests: 0.001 BTC held.
    expect(bal(state, "2", "BTC")).toEqual([10n * BTC - 300_000n, 100_000n]);
    expect(bal(state, "system:fees", "BTC")).toEqual([200n, 0n]);
    expect(bal(state, "system:fees", "USDT")).toEqual([120_000n, 0n]);
    const postings = sell.events.filter((e): e is PostingEvent => e.type === "posting");
    expect(postings.map((p) => [p.posting.reason, p.posting.amount])).toEqual([
      ["trade", 60n * USDT],
      ["trade", 200_000n],
      ["fee_maker", 200n],
      ["fee_taker", 120_000n],
    ]);
    expect(getDepth(state, "BTC-USDT", "real", 5)).toMatchObject({
      bids: [],
      asks: [{ priceTicks: 2_900_000, quantityLots: 1, orderCount: 1 }],
    });
    expect(getStatement(state, "1", "real", "fund", "BTC").map((p) => p.reason)).toEqual([
      "deposit",
      "trade",
      "fee_maker",
    ]);
  });

  it("a buy filled below its limit gets the difference released", () => {
    const { state, c } = setup(factory, 0, 0);
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 100, 1));
    const out = mustOk(state, c.limit("1", "BTC-USDT", "buy", 150, 1));
    expect(out.result).toMatchObject({ ok: true, value: { orderStatus: "filled" } });
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT - 1000n, 0n]);
  });

  it("fees round up", () => {
    const { state, c } = setup(factory, 1, 1);
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 3, 1));
    const out = mustOk(state, c.limit("1", "BTC-USDT", "buy", 3, 1));
    const fill = out.events.find((e): e is FillEvent => e.type === "fill")!;
    // Quote 30 units × 1 bp = 0.003 → 1 unit; base 100,000 × 1 bp = 10.
    expect(fill.feeMaker).toBe(1n);
    expect(fill.feeTaker).toBe(10n);
  });

  it("post-only, FOK and IOC", () => {
    const { state, c } = setup(factory);
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 100, 5));
    const before = stateHash(state);
    expect(run(state, c.limit("1", "BTC-USDT", "buy", 100, 1, "post_only")).result).toEqual({
      ok: false,
      code: "post_only_would_trade",
    });
    expect(run(state, c.limit("1", "BTC-USDT", "buy", 100, 6, "fok")).result).toEqual({
      ok: false,
      code: "fok_not_filled",
    });
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT, 0n]);
    expect(stateHash(state)).not.toBe(before); // only the remembered ids differ
    const ioc = mustOk(state, c.limit("1", "BTC-USDT", "buy", 100, 7, "ioc"));
    expect(ioc.result).toMatchObject({
      ok: true,
      value: { orderStatus: "expired", filledLots: 5 },
    });
    expect(bal(state, "1", "USDT")[1]).toBe(0n);
    expect(getOpenOrders(state, "1", "real")).toEqual([]);
  });

  it("self-trade prevention cancels the resting order", () => {
    const { state, c } = setup(factory);
    mustOk(state, c.limit("1", "BTC-USDT", "sell", 100, 1));
    const out = mustOk(state, c.limit("1", "BTC-USDT", "buy", 100, 1));
    expect(out.events.filter((e) => e.type === "order_cancelled")).toMatchObject([
      { orderId: 1, reason: "self_trade" },
    ]);
    expect(out.events.some((e) => e.type === "fill")).toBe(false);
    expect(bal(state, "1", "BTC")).toEqual([10n * BTC, 0n]);
  });

  it("cancel and replace release and adjust holds", () => {
    const { state, c } = setup(factory);
    mustOk(state, c.limit("1", "BTC-USDT", "buy", 100, 10));
    expect(bal(state, "1", "USDT")[1]).toBe(10_000n);
    const moved = mustOk(state, c.replace("1", 1, 200, 5));
    expect(moved.result).toMatchObject({ ok: true, value: { orderId: 1, orderStatus: "open" } });
    expect(bal(state, "1", "USDT")[1]).toBe(10_000n);
    mustOk(state, c.replace("1", 1, 50, 4));
    expect(bal(state, "1", "USDT")[1]).toBe(2_000n);
    expect(run(state, c.cancel("2", 1)).result).toEqual({ ok: false, code: "order_not_found" });
    mustOk(state, c.cancel("1", 1));
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT, 0n]);
    expect(run(state, c.cancel("1", 1)).result).toEqual({ ok: false, code: "order_not_found" });
  });

  it("a replace that crosses trades at the maker's price", () => {
    const { state, c } = setup(factory, 0, 0);
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 120, 2));
    mustOk(state, c.limit("1", "BTC-USDT", "buy", 100, 3));
    const out = mustOk(state, c.replace("1", 2, 130, 3));
    expect(out.result).toMatchObject({ ok: true, value: { filledLots: 2, restingLots: 1 } });
    // Paid 2 × 120 × 10; 1 lot rests at 130.
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT - 2400n - 1300n, 1300n]);
  });

  it("market orders trade only inside the band around the last tick", () => {
    const { state, c } = setup(factory, 0, 0);
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 10_000, 1));
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 11_000, 1));
    const noTick = run(state, c.order("1", "BTC-USDT", "buy", "market", "ioc", null, 1, null));
    expect(noTick.result).toEqual({ ok: false, code: "no_reference_price" });
    const tick = c.tick("BTC-USDT", "100.00"); // 10,000 ticks; band 5 % → up to 10,500
    mustOk(state, tick);
    const out = mustOk(state, c.order("1", "BTC-USDT", "buy", "market", "ioc", null, 2, null));
    expect(out.result).toMatchObject({
      ok: true,
      value: { orderStatus: "expired", filledLots: 1 },
    });
    const fill = out.events.find((e): e is FillEvent => e.type === "fill")!;
    expect(fill.tickId).toBe((tick as { tickId: string }).tickId);
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT - 100_000n, 0n]);
  });

  it("a market buy by quote amount buys whole lots and releases the rest", () => {
    const { state, c } = setup(factory, 0, 0);
    mustOk(state, c.tick("BTC-USDT", "100.00"));
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 10_000, 1)); // 100,000 units a lot
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 10_100, 5)); // 101,000 units a lot
    const out = mustOk(
      state,
      c.order("1", "BTC-USDT", "buy", "market", "ioc", null, null, 350_000n),
    );
    // 100,000 + 2 × 101,000 = 302,000 spent; 48,000 is less than a lot.
    expect(out.result).toMatchObject({ ok: true, value: { filledLots: 3 } });
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT - 302_000n, 0n]);
  });

  it("demo money stays in demo", () => {
    const { state, c } = setup(factory);
    mustOk(state, c.open("1", "demo"));
    expect(bal(state, "1", "USDT", "demo")).toEqual([100_000n * USDT, 0n]);
    expect(run(state, { ...c.deposit("1", "USDT", 1n), mode: "demo" } as Command).result).toEqual({
      ok: false,
      code: "demo_not_allowed",
    });
    expect(run(state, { ...c.grant("1", "USDT", 1n), mode: "real" } as Command).result).toEqual({
      ok: false,
      code: "real_not_allowed",
    });
    // A demo order never meets a real one.
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 100, 1));
    const demoBuy = mustOk(state, c.limit("1", "BTC-USDT", "buy", 100, 1, "gtc", "demo"));
    expect(demoBuy.result).toMatchObject({ ok: true, value: { orderStatus: "open" } });
    mustOk(state, c.grant("1", "USDT", 5n * USDT));
    const reset = mustOk(state, c.resetDemo("1"));
    expect(reset.result).toMatchObject({ ok: true, value: { cancelledCount: 1 } });
    expect(bal(state, "1", "USDT", "demo")).toEqual([100_000n * USDT, 0n]);
    expect(bal(state, "1", "USDT")).toEqual([100_000n * USDT, 0n]);
  });

  it("holds a withdrawal's fee with it, pays it to system:fees, releases it on cancel", () => {
    const { state, c } = setup(factory);
    mustOk(state, c.withdrawHoldFee("1", "USDT", 10n * USDT, 1n * USDT, "wf1"));
    expect(bal(state, "1", "USDT")).toEqual([99_989n * USDT, 11n * USDT]);
    expect(run(state, c.withdrawHoldFee("1", "USDT", 100_000n * USDT, 1n, "wf2")).result).toEqual({
      ok: false,
      code: "insufficient_balance",
    });
    expect(run(state, c.withdrawHoldFee("1", "USDT", 1n, -1n, "wf3")).result).toEqual({
      ok: false,
      code: "amount_negative_not_allowed",
    });
    const fees = getBalance(state, "system:fees", "real", "fund", "USDT").available;
    mustOk(state, c.withdrawComplete("wf1"));
    expect(bal(state, "1", "USDT")).toEqual([99_989n * USDT, 0n]);
    expect(getBalance(state, "system:fees", "real", "fund", "USDT").available).toBe(
      fees + 1n * USDT,
    );
    mustOk(state, c.withdrawHoldFee("1", "USDT", 5n * USDT, 2n * USDT, "wf4"));
    mustOk(state, c.withdrawCancel("wf4"));
    expect(bal(state, "1", "USDT")).toEqual([99_989n * USDT, 0n]);
  });

  it("deposits, withdrawals and transfers", () => {
    const { state, c } = setup(factory);
    mustOk(state, c.withdrawHold("1", "USDT", 10n * USDT, "w1"));
    expect(bal(state, "1", "USDT")).toEqual([99_990n * USDT, 10n * USDT]);
    expect(run(state, c.withdrawHold("1", "USDT", 1n, "w1")).result).toEqual({
      ok: false,
      code: "withdrawal_exists",
    });
    mustOk(state, c.withdrawComplete("w1"));
    expect(bal(state, "1", "USDT")).toEqual([99_990n * USDT, 0n]);
    expect(run(state, c.withdrawCancel("w1")).result).toEqual({
      ok: false,
      code: "withdrawal_not_pending",
    });
    mustOk(state, c.withdrawHold("1", "USDT", 5n * USDT, "w2"));
    mustOk(state, c.withdrawCancel("w2"));
    expect(bal(state, "1", "USDT")).toEqual([99_990n * USDT, 0n]);
    expect(bal(state, "system:external", "USDT")).toEqual([-299_990n * USDT, 0n]);
    mustOk(state, c.transferWallet("1", "USDT", 90n * USDT, "fund", "contract"));
    expect(getBalance(state, "1", "real", "contract", "USDT").available).toBe(90n * USDT);
    mustOk(state, c.transferUser("1", "2", "USDT", 1n));
    expect(run(state, c.transferUser("1", "1", "USDT", 1n)).result).toEqual({
      ok: false,
      code: "same_account",
    });
    expect(run(state, c.transferUser("1", "2", "USDT", 10n ** 30n)).result).toEqual({
      ok: false,
      code: "insufficient_balance",
    });
    expect(run(state, c.deposit("1", "USDT", 10n ** 37n)).result).toEqual({
      ok: false,
      code: "amount_above_maximum",
    });
    expect(run(state, c.deposit("1", "USDT", 0n)).result).toEqual({
      ok: false,
      code: "amount_must_be_positive",
    });
    expect(run(state, c.deposit("1", "DOGE", 1n)).result).toEqual({
      ok: false,
      code: "asset_not_found",
    });
    expect(run(state, c.transferUser("1", "9", "USDT", 1n)).result).toEqual({
      ok: false,
      code: "account_not_found",
    });
  });

  it("idempotency: repeats return the first result; reused ids and old times are rejected", () => {
    const { state, c } = setup(factory);
    const command = c.limit("1", "BTC-USDT", "buy", 100, 1);
    const first = run(state, command);
    const hash = stateHash(state);
    const again = run(state, { ...command });
    expect(again).toEqual({ result: first.result, events: [], duplicate: true });
    expect(stateHash(state)).toBe(hash);
    // A retry stamped later by the engine is the same command.
    expect(run(state, { ...command, atMs: c.nowMs }).duplicate).toBe(true);
    expect(run(state, { ...command, priceTicks: 101 }).result).toEqual({
      ok: false,
      code: "command_id_reused",
    });
    expect(run(state, { ...c.clock(), atMs: 1 }).result).toEqual({
      ok: false,
      code: "time_went_backwards",
    });
    // After the window passes and a clock tick prunes it, the id is new again.
    mustOk(state, c.clock(600_001));
    expect(run(state, { ...command, atMs: c.nowMs }).duplicate).toBe(false);
  });

  it("snapshot and restore reproduce the hash and keep working", () => {
    const { state, c } = setup(factory);
    mustOk(state, c.limit("1", "BTC-USDT", "buy", 100, 3));
    mustOk(state, c.limit("2", "BTC-USDT", "sell", 120, 2));
    mustOk(state, c.limit("3", "BTC-USDT", "buy", 100, 1));
    mustOk(state, c.withdrawHold("3", "BTC", 1n, "w9"));
    const copy = restore(snapshot(state), factory);
    expect(stateHash(copy)).toBe(stateHash(state));
    checkInvariants(copy);
    const more = [
      c.limit("2", "BTC-USDT", "sell", 100, 4),
      c.cancel("1", 1),
      c.withdrawComplete("w9"),
    ];
    for (const command of more) {
      expect(apply(copy, command)).toEqual(apply(state, command));
    }
    expect(stateHash(copy)).toBe(stateHash(state));
  });

  it("keeps the latest postings per account for statements", () => {
    const state = createKernelState({ statementPostingsMax: 2 }, factory);
    const c = new CommandMaker();
    mustOk(state, c.asset("USDT", 6));
    mustOk(state, c.open("1"));
    for (let i = 1; i <= 7; i++) mustOk(state, c.deposit("1", "USDT", BigInt(i)));
    const lines = getStatement(state, "1", "real", "fund", "USDT");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)!.amount).toBe(7n);
    expect(getStatement(state, "1", "real", "fund", "USDT", lines.at(-2)!.seq)).toHaveLength(1);
    const copy = restore(snapshot(state), factory);
    expect(stateHash(copy)).toBe(stateHash(state));
    mustOk(copy, c.deposit("1", "USDT", 8n));
    expect(getStatement(copy, "1", "real", "fund", "USDT").at(-1)!.seq).toBe(8);
  });

  it("encodes commands canonically", () => {
    const c = new CommandMaker();
    const command = c.order("1", "BTC-USDT", "buy", "market", "ioc", null, null, 123n);
    const bytes = encodeCommand(command);
    expect(decodeCommand(bytes)).toEqual(command);
    expect(encodeCommand(decodeCommand(bytes))).toEqual(bytes);
  });
});
