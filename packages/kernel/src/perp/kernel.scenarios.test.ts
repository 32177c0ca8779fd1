// Hand-checked perpetuals scenarios through the kernel (apply, ledger, book, tape), with every
// invariant checked after every command. Market: one lot at one tick = 100 USDT units
// (step 0.1, contract 0.001 BTC, USDT scale 6); 50,000.0 USDT is 500,000 ticks.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { snapshot, restore, stateHash } from "../snapshot.ts";
import { createKernelState } from "../state.ts";
import { getPerpMark, getPerpOpenOrders, getPerpPositions } from "./queries.ts";
import { perpDefinition, PerpHarness, PERP } from "./kernel-testing.ts";

const USDT = 1_000_000n;

function opened(isolated = false, leverage = 10) {
  const h = new PerpHarness();
  h.user("alice", 1_000n * USDT);
  h.user("bob", 1_000n * USDT);
  h.user("carol", 10_000n * USDT);
  if (isolated) h.isolated("alice");
  h.leverage("alice", leverage);
  h.tick("50000.0");
  expect(h.order("bob", "sell", 10, 500_000).result.ok).toBe(true);
  const out = h.order("alice", "buy", 10, 500_000);
  expect(out.result).toEqual({
    ok: true,
    value: { orderId: 2, orderStatus: "filled", filledLots: 10, restingLots: 0 },
  });
  return h;
}

describe("perpetuals through the kernel", () => {
  it("opens a cross long and a short, holds initial margin, charges fees and pays PnL", () => {
    const h = opened();
    // Notional 10 × 500,000 × 100 = 500 USDT; 10× → 50 USDT margin; taker 5 bps = 0.25 USDT.
    expect(h.account("alice")!.position).toEqual({ sizeLots: 10n, entryCost: 500n * USDT });
    expect(h.wallet("alice")).toEqual({ available: 949_750_000n, held: 50n * USDT });
    // Bob (default 10×) is short as maker: 2 bps = 0.1 USDT.
    expect(h.account("bob")!.position).toEqual({ sizeLots: -10n, entryCost: 500n * USDT });
    expect(h.wallet("bob")).toEqual({ available: 949_900_000n, held: 50n * USDT });
    // The mark rises 2 %: Alice closes at 51,000.0 against Carol's bid.
    h.tick("51000.0");
    h.order("carol", "buy", 10, 510_000);
    const close = h.order("alice", "sell", 10, 510_000, { reduceOnly: true });
    expect(close.result.ok).toBe(true);
    expect(h.account("alice")!.position.sizeLots).toBe(0n);
    // +10 USDT PnL, taker fee on 510 USDT = 0.255 USDT; margin released.
    expect(h.wallet("alice")).toEqual({
      available: 1_000n * USDT - 250_000n + 10n * USDT - 255_000n,
      held: 0n,
    });
    const fills = h.eventsOf("perp_fill");
    expect(fills.at(-1)!.realisedTaker).toBe(10n * USDT);
    expect(getPerpPositions(h.state, "alice", "real")).toMatchObject([
      { marketId: PERP, sizeLots: 0n, margin: 0n, liquidationTicks: null },
    ]);
    expect(getPerpMark(h.state, PERP, "real")).toEqual({
      markTicks: 510_000n,
      indexTicks: 510_000n,
      tickIds: ["t2"],
    });
    expect(fills.at(-1)!.tickIds).toEqual(["t2"]);
  });

  it("refuses a reduce-only order that would grow the position, and orders beyond margin", () => {
    const h = opened();
    expect(h.order("alice", "buy", 1, 500_000, { reduceOnly: true }).result).toEqual({
      ok: false,
      code: "reduce_only_would_increase",
    });
    expect(h.order("alice", "sell", 11, 500_000, { reduceOnly: true }).result).toEqual({
      ok: false,
      code: "reduce_only_would_increase",
    });
    expect(h.order("alice", "buy", 1_000, 500_000).result).toEqual({
      ok: false,
      code: "insufficient_margin",
    });
    expect(h.order("alice", "buy", 1, 400_000, { tif: "post_only" }).result.ok).toBe(true);
    expect(getPerpOpenOrders(h.state, "alice", "real")).toMatchObject([
      { priceTicks: 400_000, quantityLots: 1, reduceOnly: false },
    ]);
    expect(
      h.tryRun({
        type: "set_perp_margin_mode",
        ownerId: "alice",
        mode: "real",
        marketId: PERP,
        marginMode: "isolated",
      } as never).result,
    ).toEqual({ ok: false, code: "margin_mode_locked" });
  });

  it("liquidates an isolated long on the tick that crosses its liquidation price; the fund takes over", () => {
    const h = opened(true);
    const alice = h.account("alice")!;
    expect(alice.margin).toBe(50n * USDT);
    // equity = 50e6 + 1000(P − 500,000), maintenance = ceil(5P): liquidated below 452,261.3.
    expect(alice.side.triggers.get(`L|${alice.key}`)!.priceTicks).toBe(452_261n);
    h.tick("45226.2");
    expect(h.eventsOf("perp_liquidation")).toHaveLength(0);
    h.tick("45000.0");
    const [liquidation] = h.eventsOf("perp_liquidation");
    expect(liquidation).toMatchObject({
      ownerId: "alice",
      side: "sell",
      lots: 10n,
      tickIds: ["t3"],
    });
    // Empty book: the fund takes the whole position at the bankruptcy value (450 USDT).
    const [takeover] = h.eventsOf("perp_insurance_takeover");
    expect(takeover).toMatchObject({
      ownerId: "alice",
      lots: 10n,
      quoteAmount: 450n * USDT,
      forced: false,
    });
    expect(alice.position.sizeLots).toBe(0n);
    // Alice lost exactly her margin (and the opening fee), never more.
    expect(h.wallet("alice")).toEqual({ available: 949_750_000n, held: 0n });
    expect(h.account("system:insurance_fund")!.position.sizeLots).toBe(10n);
  });

  it("partially liquidates into the book at no worse than the bankruptcy price, fee to the fund", () => {
    const h = opened(true);
    h.order("carol", "buy", 10, 451_000);
    h.tick("45100.0");
    const fills = h.eventsOf("perp_fill").filter((f) => f.liquidation);
    expect(fills.length).toBeGreaterThan(0);
    const lots = fills.reduce((sum, f) => sum + f.quantityLots, 0);
    expect(lots).toBeGreaterThan(0);
    expect(lots).toBeLessThanOrEqual(10);
    expect(fills[0]!.priceTicks).toBe(451_000);
    expect(fills[0]!.feeTaker).toBeGreaterThan(0n);
    const fund = h.state.ledger.accounts.get("system:insurance_fund|real|contract|USDT")!;
    expect(fund.available).toBeGreaterThan(0n);
  });

  it("deleverages the most profitable short when the fund cannot cover a gap", () => {
    const h = opened(true);
    // A gap straight through bankruptcy (450,000): the empty fund cannot take a loss.
    h.tick("44000.0");
    const adl = h.eventsOf("perp_auto_deleverage");
    expect(adl).toHaveLength(1);
    expect(adl[0]).toMatchObject({ ownerId: "alice", counterpartyId: "bob", lots: 10n, rank: 1 });
    expect(h.account("alice")!.position.sizeLots).toBe(0n);
    expect(h.account("bob")!.position.sizeLots).toBe(0n);
    // Bob closed at the bankruptcy value 450 USDT: +50 USDT on his short.
    expect(h.wallet("bob")).toEqual({ available: 949_900_000n + 100n * USDT, held: 0n });
    expect(h.wallet("alice").available).toBe(949_750_000n);
  });

  it("settles funding zero-sum each interval with the remainder in its own account", () => {
    const h = opened();
    // A bid above the index and an ask: a positive premium, longs pay shorts.
    h.order("carol", "buy", 1, 502_000);
    h.order("carol", "sell", 1, 504_000);
    h.tick("50000.0");
    h.run({ type: "clock_tick" } as never, 28_800_000);
    const [funding] = h.eventsOf("perp_funding_settled");
    expect(funding!.rateE8).toBeGreaterThan(0n);
    const paid = funding!.payments.filter((p) => p.amount < 0n).reduce((s, p) => s - p.amount, 0n);
    const got = funding!.payments.filter((p) => p.amount > 0n).reduce((s, p) => s + p.amount, 0n);
    expect(paid - got).toBe(funding!.remainder);
    expect(funding!.tickIds).toContain("t2");
    const alicePays = funding!.payments.find((p) => p.ownerId === "alice")!.amount;
    expect(alicePays).toBeLessThan(0n);
  });

  it("fires a stop-loss on the mark as a reduce-only market order", () => {
    const h = opened();
    h.run({
      type: "set_perp_tp_sl",
      ownerId: "alice",
      mode: "real",
      marketId: PERP,
      takeProfitTicks: 600_000,
      stopLossTicks: 490_000,
    } as never);
    h.order("carol", "buy", 10, 489_000);
    h.tick("48950.0");
    const [fired] = h.eventsOf("perp_trigger_fired");
    expect(fired).toMatchObject({
      ownerId: "alice",
      kind: "stop_loss",
      triggerTicks: 490_000n,
      tickIds: ["t2"],
    });
    expect(h.account("alice")!.position.sizeLots).toBe(0n);
  });

  it("restores a snapshot to the same state hash", () => {
    const h = opened(true);
    h.order("carol", "buy", 3, 480_000);
    const json = snapshot(h.state);
    const restored = restore(json);
    expect(stateHash(restored)).toBe(stateHash(h.state));
  });

  it("demo positions are separate from real ones", () => {
    const h = new PerpHarness();
    h.user("dora", 1_000n * USDT, "demo");
    h.user("erik", 1_000n * USDT, "demo");
    h.tick("50000.0");
    h.order("erik", "sell", 2, 500_000, { mode: "demo" });
    expect(h.order("dora", "buy", 2, 500_000, { mode: "demo" }).result.ok).toBe(true);
    expect(h.account("dora", "demo")!.position.sizeLots).toBe(2n);
    expect(h.account("dora", "real")).toBeUndefined();
  });

  it("keeps cross collateral backing open positions in the contract wallet", () => {
    const h = opened();
    // Alice: 949.75 available and 50 held as margin.
    const out = (amount: bigint) =>
      h.tryRun({
        type: "transfer_wallet",
        ownerId: "alice",
        mode: "real",
        assetId: "USDT",
        amount,
        sourceWallet: "contract",
        targetWallet: "fund",
      } as never).result.ok;
    h.tick("49000.0");
    // At 49,000.0: 10 USDT of open loss and 49 USDT initial margin at the mark, so
    // 949.75 + 50 − 49 − 10 = 940.75 may leave, not a unit more.
    expect(out(940_750_001n)).toBe(false);
    expect(out(940_750_000n)).toBe(true);
    // The liquidation price moved up with the smaller wallet (re-indexed at once).
    const alice = h.account("alice")!;
    // 59 USDT of collateral: 59e6 + 1000(P − 500,000) < ceil(5P) below P = 443,216.5.
    expect(alice.side.triggers.get(`L|${alice.key}`)!.priceTicks).toBe(443_216n);
  });

  it("never takes more than the isolated margin, even when funding exceeds it", () => {
    // A premium of 9 % over the index: Alice owes about 45 USDT of funding on a 10 USDT margin.
    // Her position is then liquidated and her debt ends at zero.
    const h2 = new PerpHarness({ fundingCapBps: 1000 });
    h2.user("alice", 1_000n * USDT);
    h2.user("bob", 1_000n * USDT);
    h2.user("carol", 10_000n * USDT);
    h2.isolated("alice");
    h2.leverage("alice", 50);
    h2.tick("50000.0");
    h2.order("bob", "sell", 10, 500_000);
    h2.order("alice", "buy", 10, 500_000);
    expect(h2.account("alice")!.margin).toBe(10n * USDT);
    h2.order("carol", "buy", 1, 530_000);
    h2.order("carol", "sell", 1, 560_000);
    h2.tick("50000.0");
    h2.run({ type: "clock_tick" } as never, 28_800_000);
    const [funding] = h2.eventsOf("perp_funding_settled");
    expect(funding!.rateE8).toBeGreaterThan(8_000_000n);
    expect(h2.eventsOf("perp_liquidation").map((e) => e.ownerId)).toContain("alice");
    const alice = h2.account("alice")!;
    expect(alice.debt).toBe(0n);
    expect(alice.position.sizeLots).toBe(0n);
    // Lost the 10 USDT margin and the 0.25 USDT opening fee, nothing more.
    expect(h2.wallet("alice")).toEqual({
      available: 1_000n * USDT - 10n * USDT - 250_000n,
      held: 0n,
    });
  });

  it("liquidates an isolated short at or above its liquidation price", () => {
    const h = new PerpHarness();
    h.user("alice", 1_000n * USDT);
    h.user("bob", 1_000n * USDT);
    h.isolated("bob");
    h.tick("50000.0");
    h.order("alice", "buy", 10, 500_000);
    h.order("bob", "sell", 10, 500_000);
    const bob = h.account("bob")!;
    // Bob pays the taker fee on 500 USDT (0.25); his margin is 50 USDT.
    expect(bob.margin).toBe(50n * USDT);
    // equity = 550e6 − 1000P, maintenance = 5P: liquidated from 550,000,000 / 1005 up.
    expect(bob.side.triggers.get(`L|${bob.key}`)).toMatchObject({
      priceTicks: 547_264n,
      direction: "at_or_above",
    });
    h.tick("54726.3");
    expect(h.eventsOf("perp_liquidation")).toHaveLength(0);
    h.tick("54726.4");
    expect(h.eventsOf("perp_liquidation")[0]).toMatchObject({ ownerId: "bob", side: "buy" });
    // The fund buys him out at the bankruptcy value 550 USDT: he loses exactly his margin.
    expect(h.eventsOf("perp_insurance_takeover")[0]).toMatchObject({
      lots: 10n,
      quoteAmount: 550n * USDT,
    });
    expect(h.wallet("bob")).toEqual({ available: 1_000n * USDT - 50n * USDT - 250_000n, held: 0n });
  });

  it("moves a cross position's liquidation price when another market of the account moves", () => {
    const h = new PerpHarness();
    h.run(
      perpDefinition({
        marketId: "ETH-PERP",
        instrumentId: "ETH-USDT",
        priceStep: "0.01",
        contractSize: "0.01",
      }),
    );
    h.user("alice", 200n * USDT);
    h.user("bob", 1_000n * USDT);
    h.tick("50000.0");
    h.tick("3000.00", "ETH-USDT");
    h.order("bob", "sell", 10, 500_000);
    h.order("alice", "buy", 10, 500_000);
    h.order("bob", "sell", 10, 300_000, { marketId: "ETH-PERP" });
    h.order("alice", "buy", 10, 300_000, { marketId: "ETH-PERP" });
    const btc = h.account("alice")!;
    const before = btc.side.triggers.get(`L|${btc.key}`)!.priceTicks;
    expect(btc.side.multiCross.has(btc)).toBe(true);
    // ETH falls 10 %: 30 USDT of loss on the shared wallet moves BTC's liquidation price up.
    h.tick("2700.00", "ETH-USDT");
    const after = btc.side.triggers.get(`L|${btc.key}`)!.priceTicks;
    expect(after).toBeGreaterThan(before);
  });

  it("reset_demo hands a demo position to the demo fund at the mark and returns demo money", () => {
    const h = new PerpHarness();
    h.user("dora", 1_000n * USDT, "demo");
    h.user("erik", 1_000n * USDT, "demo");
    h.tick("50000.0");
    h.order("erik", "sell", 2, 500_000, { mode: "demo" });
    h.order("dora", "buy", 2, 500_000, { mode: "demo" });
    h.order("dora", "buy", 1, 490_000, { mode: "demo" });
    h.tick("51000.0");
    const out = h.run({ type: "reset_demo", ownerId: "dora", mode: "demo" } as never);
    expect(out.result).toEqual({ ok: true, value: { cancelledCount: 1 } });
    expect(h.account("dora", "demo")!.position.sizeLots).toBe(0n);
    expect(h.account("system:insurance_fund", "demo")!.position.sizeLots).toBe(2n);
    // The fund paid the mark value: 2 lots × 510,000 × 100 = 102 USDT, +2 USDT for Dora.
    expect(h.eventsOf("perp_insurance_takeover").at(-1)).toMatchObject({
      ownerId: "dora",
      quoteAmount: 102n * USDT,
    });
    expect(h.wallet("dora", "demo")).toEqual({ available: 0n, held: 0n });
  });

  it("closes, reverses and closes all positions as market orders", () => {
    const h = opened();
    const act = (type: string, extra: Record<string, unknown> = { marketId: PERP }) =>
      h.tryRun({ type, ownerId: "alice", mode: "real", ...extra } as never).result;
    // Liquidity on both sides at the mark.
    h.order("carol", "buy", 30, 499_000);
    h.order("carol", "sell", 30, 501_000);
    // The long's take-profit above and stop-loss below would fire at once on a short.
    act("set_perp_tp_sl", { marketId: PERP, takeProfitTicks: 600_000, stopLossTicks: 400_000 });
    // Reverse: one order of 20 lots, long 10 → short 10.
    expect(act("reverse_perp_position")).toMatchObject({
      ok: true,
      value: { orderStatus: "filled", filledLots: 20 },
    });
    expect(h.account("alice")!.position.sizeLots).toBe(-10n);
    expect(h.account("alice")).toMatchObject({ takeProfitTicks: null, stopLossTicks: null });
    h.tick("50050.0");
    expect(h.eventsOf("perp_trigger_fired")).toEqual([]);
    expect(h.account("alice")!.position.sizeLots).toBe(-10n);
    // A reduce-only order on the closing side is replaced by the close.
    h.order("alice", "buy", 4, 480_000, { reduceOnly: true });
    expect(act("close_perp_position")).toMatchObject({
      ok: true,
      value: { orderStatus: "filled", filledLots: 10 },
    });
    expect(h.account("alice")!.position.sizeLots).toBe(0n);
    expect(h.state.perp.orders.size).toBe(2); // Carol's rests
    expect(act("close_perp_position")).toEqual({ ok: false, code: "position_not_found" });
    // Close all: Bob's short goes.
    expect(
      h.tryRun({ type: "close_all_perp", ownerId: "bob", mode: "real" } as never).result.ok,
    ).toBe(true);
    expect(h.account("bob")!.position.sizeLots).toBe(0n);
  });
});

describe("a market's definition in the state", () => {
  it("hashes the same whatever the key order of the command that defined it (live = replayed)", () => {
    // The server spreads shared terms first, so its object's keys come in another order than
    // the codec's (which is what a replay of the journal decodes).
    const hashAfter = (definition: object) => {
      const state = createKernelState();
      apply(state, {
        type: "define_asset",
        id: "a",
        atMs: 1,
        assetId: "USDT",
        scale: 6,
        amountMax: null,
      } as never);
      const out = apply(state, { ...definition, id: "m", atMs: 2 } as never);
      expect(out.result.ok).toBe(true);
      return stateHash(state);
    };
    const definition = perpDefinition();
    const reversed = Object.fromEntries(Object.entries(definition).reverse());
    expect(Object.keys(reversed)[0]).not.toBe(Object.keys(definition)[0]);
    expect(hashAfter(reversed)).toBe(hashAfter(definition));
  });
});
