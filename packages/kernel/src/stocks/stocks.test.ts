// Stocks: market and limit fills at the recorded quote ± spread, prepaid hold and release,
// HK stamp duty rounding, the house inventory limit, sessions, take-profit / stop-loss from the
// tape, demo reset, and restart in the middle (snapshot + replay gives the same hash).

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { Command, Event } from "../types.ts";
import { fillCost, stampDutyOf } from "./pricing.ts";
import type { StockFillView } from "./types.ts";
import { getStockHolding, getStockInventory } from "./views.ts";

const HOUSE = "system:house";
const FEES = "system:fees";

function run(state: KernelState, command: Command): Event[] {
  const output = apply(state, command);
  expect(output.result, command.type).toMatchObject({ ok: true });
  checkInvariants(state);
  return output.events;
}

function refused(state: KernelState, command: Command): string {
  const output = apply(state, command);
  expect(output.result.ok, command.type).toBe(false);
  expect(output.events).toEqual([]);
  checkInvariants(state);
  return output.result.ok ? "" : output.result.code;
}

function setup(): { state: KernelState; c: CommandMaker } {
  const state = createKernelState({ demoGrants: [{ assetId: "USD", amount: "10000" }] });
  const c = new CommandMaker();
  for (const command of [
    c.asset("USD", 2),
    c.asset("HKD", 2),
    c.open("1"),
    c.open("2"),
    c.open("1", "demo"),
    c.deposit("1", "USD", 10_000_00n),
    c.deposit("1", "HKD", 100_000_00n),
    c.deposit(HOUSE, "USD", 100_000_00n),
    c.deposit(HOUSE, "HKD", 1_000_000_00n),
    c.grant(HOUSE, "USD", 100_000_00n),
    c.stockConfigure("AAPL", "USD"),
    c.stockConfigure("0700.HK", "HKD", {
      priceScale: 3,
      lotSize: 100n,
      commissionBps: 3,
      commissionMin: 300n,
      stampDutyBps: 10,
      stampDutyRoundUnits: 100n,
    }),
    c.stockFund("AAPL", 1_000n),
    c.stockFund("AAPL", 1_000n, "demo"),
    c.stockFund("0700.HK", 10_000n),
    c.stockSession("AAPL", true, "nyse:2026-11-27"),
    c.stockSession("0700.HK", true, "hkex:2026-11-27"),
    c.tick("AAPL", "200"),
    c.tick("0700.HK", "420.2"),
  ]) {
    run(state, command);
  }
  return { state, c };
}

const fund = (state: KernelState, owner: string, asset = "USD", mode: "real" | "demo" = "real") =>
  getBalance(state, owner, mode, "fund", asset);

function fillsOf(events: Event[]): StockFillView[] {
  return events.flatMap((e) => (e.type === "stock_order_filled" ? [e.fill] : []));
}

describe("stocks", () => {
  it("fills a market buy at the quote + spread, with commission, against the house", () => {
    const { state, c } = setup();
    const fills = fillsOf(run(state, c.stockOrder("1", "AAPL", "buy", 10n)));
    // 200 × 1.001 = 200.20; 10 shares = 2,002.00; commission 5 bps = 1.001 → 1.01 (up).
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({
      price: "200.20",
      notional: 200_200n,
      commission: 101n,
      stampDuty: 0n,
      net: 200_301n,
      released: 0n,
      tickId: "tc18",
    });
    expect(fund(state, "1")).toMatchObject({ available: 1_000_000n - 200_301n, held: 0n });
    expect(fund(state, HOUSE).available).toBe(10_000_000n + 200_200n);
    expect(fund(state, FEES).available).toBe(101n);
    expect(getStockHolding(state, "1", "real", "AAPL")).toMatchObject({
      quantity: 10n,
      costBasis: 200_301n,
    });
    expect(getStockInventory(state, "real", "AAPL")).toMatchObject({
      available: 990n,
      funded: 1000n,
    });
  });

  it("holds a limit buy's prepaid amount, fills on the crossing tick citing it, releases the rest", () => {
    const { state, c } = setup();
    run(
      state,
      c.stockOrder("1", "AAPL", "buy", 10n, { kind: "limit", limitPrice: "195", tif: "gtc" }),
    );
    // Prepaid: 1,950.00 + commission 1.00 (0.975 is under the 1.00 minimum).
    expect(fund(state, "1")).toMatchObject({ held: 195_100n });
    expect(getStockInventory(state, "real", "AAPL")).toMatchObject({
      available: 990n,
      reserved: 10n,
    });
    expect(fillsOf(run(state, c.tick("AAPL", "195.5")))).toEqual([]); // ask 195.70 > 195
    const tick = c.tick("AAPL", "194");
    const [fill] = fillsOf(run(state, tick));
    // ask = 194 × 1.001 = 194.194 → 194.20 (up): 1,942.00 + the 1.00 minimum.
    expect(fill).toMatchObject({ price: "194.20", notional: 194_200n, commission: 100n });
    expect(fill!.tickId).toBe(`t${tick.id}`);
    expect(fill!.released).toBe(195_100n - 194_300n);
    expect(fund(state, "1")).toMatchObject({ available: 1_000_000n - 194_300n, held: 0n });
  });

  it("charges HK stamp duty on both sides, rounded up to the whole dollar, in board lots", () => {
    const { state, c } = setup();
    expect(refused(state, c.stockOrder("1", "0700.HK", "buy", 150n))).toBe(
      "stock_quantity_invalid",
    );
    const [buy] = fillsOf(run(state, c.stockOrder("1", "0700.HK", "buy", 200n)));
    // ask = 420.2 × 1.001 = 420.6202 → 420.621; 200 shares = 84,124.20 HKD;
    // duty 0.1 % = 84.1242 → 85.00; commission 3 bps = 25.24 (25.23726 up).
    expect(buy).toMatchObject({ price: "420.621", notional: 8_412_420n, stampDuty: 8_500n });
    expect(buy!.commission).toBe(2_524n);
    const [sell] = fillsOf(run(state, c.stockOrder("1", "0700.HK", "sell", 200n)));
    // bid = 420.2 × 0.999 = 419.7798 → 419.779: 83,955.80; duty 83.9558 → 84.00.
    expect(sell).toMatchObject({ price: "419.779", notional: 8_395_580n, stampDuty: 8_400n });
    expect(sell!.net).toBe(8_395_580n - 8_400n - sell!.commission);
    expect(getStockHolding(state, "1", "real", "0700.HK")).toMatchObject({
      quantity: 0n,
      costBasis: 0n,
    });
  });

  it("stamp duty rounds up to whole units exactly at the boundary", () => {
    const config = {
      instrumentId: "X",
      assetId: "HKD",
      priceScale: 3,
      lotSize: 100n,
      quantityLotsMax: 10,
      spreadBps: 0,
      commissionBps: 0,
      commissionMin: 0n,
      stampDutyBps: 10,
      stampDutyRoundUnits: 100n,
      tickAgeMaxMs: 1,
      open: true,
    };
    expect(stampDutyOf(config, 100_000n)).toBe(100n); // 1,000.00 → 1.00 exactly
    expect(stampDutyOf(config, 100_001n)).toBe(200n); // 1,000.01 → 1.0001 → 2.00
    expect(stampDutyOf(config, 1n)).toBe(100n);
    expect(stampDutyOf({ ...config, stampDutyBps: 0 }, 1_000_000n)).toBe(0n);
    expect(fillCost(config, "sell", 10n ** 18n, 100n, 2).net).toBe(10_000n - 100n);
  });

  it("refuses a buy beyond the house's inventory, and the operator can fund more", () => {
    const { state, c } = setup();
    expect(
      refused(
        state,
        c.stockOrder("1", "AAPL", "buy", 1_001n, { kind: "limit", limitPrice: "1", tif: "gtc" }),
      ),
    ).toBe("stock_inventory_insufficient");
    run(state, c.stockOrder("1", "AAPL", "buy", 40n));
    expect(
      refused(state, c.stockOrder("1", "AAPL", "buy", 961n, { kind: "limit", limitPrice: "1" })),
    ).toBe("stock_inventory_insufficient");
    expect(refused(state, c.stockFund("AAPL", -961n))).toBe("stock_inventory_insufficient");
    run(state, c.stockFund("AAPL", 5n));
    run(state, c.stockOrder("1", "AAPL", "buy", 965n, { kind: "limit", limitPrice: "1" }));
    expect(getStockInventory(state, "real", "AAPL")).toMatchObject({
      available: 0n,
      reserved: 965n,
    });
  });

  it("refuses orders outside the session; a limit order may queue for the open", () => {
    const { state, c } = setup();
    run(state, c.stockSession("AAPL", false, "nyse:weekend"));
    expect(refused(state, c.stockOrder("1", "AAPL", "buy", 1n))).toBe("stock_market_closed");
    expect(
      refused(state, c.stockOrder("1", "AAPL", "buy", 1n, { kind: "limit", limitPrice: "250" })),
    ).toBe("stock_market_closed");
    run(
      state,
      c.stockOrder("1", "AAPL", "buy", 1n, {
        kind: "limit",
        limitPrice: "250",
        queueForOpen: true,
      }),
    );
    // Ticks while closed fill nothing.
    expect(fillsOf(run(state, c.tick("AAPL", "100")))).toEqual([]);
    run(state, c.stockSession("AAPL", true, "nyse:monday"));
    expect(fillsOf(run(state, c.tick("AAPL", "101")))).toHaveLength(1);
  });

  it("expires day orders at the session end, keeps good-till-cancelled ones, cancels", () => {
    const { state, c } = setup();
    run(state, c.stockOrder("1", "AAPL", "buy", 1n, { kind: "limit", limitPrice: "100" }));
    run(
      state,
      c.stockOrder("1", "AAPL", "buy", 2n, { kind: "limit", limitPrice: "100", tif: "gtc" }),
    );
    const events = run(state, c.stockSession("AAPL", false));
    const closed = events.flatMap((e) => (e.type === "stock_order_closed" ? [e.order] : []));
    expect(closed.map((o) => [o.quantity, o.status])).toEqual([[1n, "expired"]]);
    expect(state.stocks.pending.size).toBe(1);
    const [pending] = [...state.stocks.pending.values()];
    expect(refused(state, c.stockCancel("2", pending!.orderId))).toBe("order_not_found");
    run(state, c.stockCancel("1", pending!.orderId));
    expect(fund(state, "1")).toMatchObject({ available: 1_000_000n, held: 0n });
    expect(getStockInventory(state, "real", "AAPL")).toMatchObject({
      available: 1_000n,
      reserved: 0n,
    });
  });

  it("sells only shares held; a limit sell reserves the house's cash and fills on the crossing tick", () => {
    const { state, c } = setup();
    expect(refused(state, c.stockOrder("1", "AAPL", "sell", 1n))).toBe(
      "stock_holding_insufficient",
    );
    run(state, c.stockOrder("1", "AAPL", "buy", 10n));
    run(
      state,
      c.stockOrder("1", "AAPL", "sell", 10n, { kind: "limit", limitPrice: "210", tif: "gtc" }),
    );
    expect(fund(state, HOUSE).held).toBe(210_000n);
    expect(refused(state, c.stockOrder("1", "AAPL", "sell", 1n))).toBe(
      "stock_holding_insufficient",
    );
    const [fill] = fillsOf(run(state, c.tick("AAPL", "212")));
    // bid 212 × 0.999 = 211.788 → 211.78 (down), above the limit.
    expect(fill).toMatchObject({ price: "211.78", notional: 211_780n });
    expect(fund(state, HOUSE).held).toBe(0n);
    const holding = getStockHolding(state, "1", "real", "AAPL")!;
    expect(holding).toMatchObject({ quantity: 0n, heldQuantity: 0n });
    expect(holding.realisedPnl).toBe(fill!.net - 200_301n);
  });

  it("take-profit and stop-loss sell at market on the recorded tick, once", () => {
    const { state, c } = setup();
    run(state, c.stockOrder("1", "AAPL", "buy", 10n));
    expect(refused(state, c.stockTpSl("1", "AAPL", "190", "195"))).toBe("stock_price_invalid");
    expect(refused(state, c.stockTpSl("2", "AAPL", "220", "180"))).toBe(
      "stock_holding_insufficient",
    );
    run(state, c.stockTpSl("1", "AAPL", "220", "180"));
    expect(fillsOf(run(state, c.tick("AAPL", "219.99")))).toEqual([]);
    const tick = c.tick("AAPL", "220");
    const [fill] = fillsOf(run(state, tick));
    expect(fill).toMatchObject({ origin: "take_profit", quantity: 10n, tickId: `t${tick.id}` });
    expect(getStockHolding(state, "1", "real", "AAPL")).toMatchObject({
      quantity: 0n,
      takeProfit: null,
    });
    expect(fillsOf(run(state, c.tick("AAPL", "230")))).toEqual([]);
    // Stop-loss on a new holding; not while the market is closed.
    run(state, c.stockOrder("1", "AAPL", "buy", 5n));
    run(state, c.stockTpSl("1", "AAPL", null, "200"));
    run(state, c.stockSession("AAPL", false));
    expect(fillsOf(run(state, c.tick("AAPL", "150")))).toEqual([]);
    run(state, c.stockSession("AAPL", true));
    const [stop] = fillsOf(run(state, c.tick("AAPL", "151")));
    expect(stop).toMatchObject({ origin: "stop_loss", quantity: 5n, price: "150.84" });
  });

  it("refuses a stale quote and keeps demo money and shares apart from real ones", () => {
    const { state, c } = setup();
    c.nowMs += 120_000;
    expect(refused(state, c.stockOrder("1", "AAPL", "buy", 1n))).toBe("reference_price_stale");
    run(state, c.tick("AAPL", "200"));
    run(state, c.stockOrder("1", "AAPL", "buy", 3n, { mode: "demo" }));
    expect(fund(state, "1", "USD", "demo").available).toBeLessThan(1_000_000n);
    expect(fund(state, "1", "USD", "real").available).toBe(1_000_000n);
    expect(getStockInventory(state, "demo", "AAPL").available).toBe(997n);
    expect(getStockInventory(state, "real", "AAPL").available).toBe(1_000n);
    const reset = apply(state, c.resetDemo("1"));
    expect(reset.result.ok).toBe(true);
    checkInvariants(state);
    expect(getStockInventory(state, "demo", "AAPL").available).toBe(1_000n);
    expect(getStockHolding(state, "1", "demo", "AAPL")).toMatchObject({ quantity: 0n });
  });

  it("restarts in the middle and replays to the same hash and events", () => {
    const { state, c } = setup();
    run(state, c.stockOrder("1", "AAPL", "buy", 10n));
    run(state, c.stockTpSl("1", "AAPL", "220", null));
    run(
      state,
      c.stockOrder("1", "AAPL", "buy", 5n, { kind: "limit", limitPrice: "190", tif: "gtc" }),
    );
    run(state, c.stockOrder("1", "0700.HK", "buy", 100n, { kind: "limit", limitPrice: "400" }));
    const restored = restore(snapshot(state));
    checkInvariants(restored);
    expect(stateHash(restored)).toBe(stateHash(state));
    for (const command of [
      c.tick("AAPL", "189"),
      c.tick("AAPL", "221"),
      c.stockSession("0700.HK", false),
    ]) {
      const a = apply(state, command);
      const b = apply(restored, command);
      expect(b.events).toEqual(a.events);
      expect(stateHash(restored)).toBe(stateHash(state));
    }
  });
});
