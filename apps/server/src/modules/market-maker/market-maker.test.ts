import {
  apply,
  checkInvariants,
  createKernelState,
  getDepth,
  getLastTick,
  getOpenOrders,
  getMarkets,
  systemOwners,
  type Command,
  type KernelState,
} from "@candor/kernel";
import { findInstrument, instruments } from "@candor/market";
import { describe, expect, it } from "vitest";
import type { Unstamped } from "../../engine/engine.ts";
import { KernelTapeSink } from "../market/kernel-tape-sink.ts";
import {
  demoFundingCommands,
  MarketMaker,
  realFundingCommand,
  type KernelGateway,
} from "./market-maker.service.ts";
import { spotInstruments, spotMarketId, spotSetupCommands } from "../market/spot-markets.ts";

// The engine is not wired into the server yet, so these tests drive the kernel directly through
// the same gateway shape (submit + query) the engine offers.
function kernelGateway() {
  const state: KernelState = createKernelState({});
  let nowMs = Date.parse("2026-11-23T12:00:00Z");
  const events: { type: string }[] = [];
  const gateway: KernelGateway & { state: KernelState; advance(ms: number): void } = {
    state,
    advance(ms) {
      nowMs += ms;
    },
    async submit(command: Unstamped<Command>) {
      const step = apply(state, { ...command, atMs: nowMs } as Command);
      events.push(...step.events);
      return step;
    },
    query: (fn) => fn(state),
  };
  return { gateway, events, now: () => nowMs, advance: (ms: number) => gateway.advance(ms) };
}

const spot = spotInstruments(instruments);
const btc = findInstrument("BTCUSDT")!;
const mm = systemOwners.marketMaker;

async function setUp() {
  const kernel = kernelGateway();
  for (const command of spotSetupCommands(instruments)) {
    const { result } = await kernel.gateway.submit(command);
    expect(result, command.id).toMatchObject({ ok: true });
  }
  const tape = new KernelTapeSink(
    kernel.gateway.submit,
    new Map(spot.map((i) => [i.id, spotMarketId(i)])),
  );
  const prices = new Map<string, bigint>();
  for (const instrument of spot) {
    const price = BigInt(instrument.simulation.startPrice.replace(".", ""));
    prices.set(instrument.id, price);
    tape.recordTick(instrument, {
      instrumentId: instrument.id,
      atMs: kernel.now(),
      price,
      quantity: 1n,
      source: "simulated",
    });
  }
  await new Promise((r) => setTimeout(r, 0));
  const demo = new Map<string, bigint>([["USDT", 50_000_000_000_000n]]);
  for (const instrument of spot) demo.set(instrument.base.symbol, 10n ** 20n);
  for (const command of demoFundingCommands(demo)) {
    expect((await kernel.gateway.submit(command)).result).toMatchObject({ ok: true });
  }
  for (const [assetId, amount] of demo) {
    const command = realFundingCommand(assetId, amount, "operator-funding-1", "operator:1");
    expect((await kernel.gateway.submit(command)).result).toMatchObject({ ok: true });
  }
  return { ...kernel, tape, prices };
}

describe("market maker on the kernel", () => {
  it("defines the spot markets from the catalogue and records ticks on the tape", async () => {
    const { gateway } = await setUp();
    const markets = gateway.query((s) => getMarkets(s));
    expect(markets.map((m) => m.marketId)).toContain("BTC-USDT");
    expect(markets).toHaveLength(spot.length);
    expect(markets.every((m) => m.open)).toBe(true);
    expect(gateway.query((s) => getLastTick(s, "BTCUSDT"))?.price).toBe("95000.00");
  });

  it("quotes layered bids and asks on every spot book, real and demo", async () => {
    const { gateway, prices, now } = await setUp();
    const maker = new MarketMaker({ gateway, instruments: spot });
    expect(await maker.refresh(prices, now())).toBe(spot.length * 2);
    for (const instrument of spot) {
      for (const mode of ["real", "demo"] as const) {
        const depth = gateway.query((s) => getDepth(s, spotMarketId(instrument), mode, 20))!;
        expect(depth.bids.length, `${instrument.id} ${mode}`).toBe(14);
        expect(depth.asks.length, `${instrument.id} ${mode}`).toBe(14);
        const reference = Number(prices.get(instrument.id)! / instrument.tickSize);
        expect(depth.bids[0]!.priceTicks).toBeLessThan(reference);
        expect(depth.asks[0]!.priceTicks).toBeGreaterThan(reference);
      }
    }
    checkInvariants(gateway.state);
    // Nothing changed: no requote.
    expect(await maker.refresh(prices, now())).toBe(0);
  });

  it("looks like a market: sizes and gaps vary (seeded, the same every run), spreads widen with moves", async () => {
    const quoteBtc = async () => {
      const { gateway, prices, now, advance } = await setUp();
      const maker = new MarketMaker({ gateway, instruments: [btc] });
      await maker.refresh(prices, now());
      const calm = gateway.query((s) => getDepth(s, "BTC-USDT", "real", 20))!;
      // The reference jumps 1% twice: the maker requotes with a wider spread.
      for (const step of [101n, 102n]) {
        advance(1_000);
        prices.set("BTCUSDT", (prices.get("BTCUSDT")! * step) / 100n);
        await maker.refresh(prices, now());
      }
      const moving = gateway.query((s) => getDepth(s, "BTC-USDT", "real", 20))!;
      checkInvariants(gateway.state);
      return { calm, moving };
    };
    const { calm, moving } = await quoteBtc();
    const sizes = calm.bids.map((level) => level.quantityLots);
    expect(new Set(sizes).size).toBeGreaterThan(7);
    const gaps = calm.bids.slice(1).map((level, i) => calm.bids[i]!.priceTicks - level.priceTicks);
    expect(new Set(gaps).size).toBeGreaterThan(3);
    const spread = (depth: typeof calm) => depth.asks[0]!.priceTicks - depth.bids[0]!.priceTicks;
    const relative = (depth: typeof calm) => (spread(depth) * 10_000) / depth.bids[0]!.priceTicks;
    expect(relative(moving)).toBeGreaterThan(relative(calm) * 2);
    // Seeded: the same inputs give the same book.
    expect((await quoteBtc()).calm).toEqual(calm);
  });

  it("lets a user trade at once, labels the maker on the fill, and requotes after", async () => {
    const { gateway, prices, now, events, advance } = await setUp();
    const maker = new MarketMaker({ gateway, instruments: spot });
    await maker.refresh(prices, now());
    advance(1_000);
    expect(
      (await gateway.submit({ type: "open_accounts", id: "u1", ownerId: "100001", mode: "demo" }))
        .result,
    ).toMatchObject({ ok: true });
    const { result } = await gateway.submit({
      type: "place_order",
      id: "u1-buy",
      ownerId: "100001",
      mode: "demo",
      marketId: "BTC-USDT",
      side: "buy",
      orderType: "market",
      timeInForce: "ioc",
      priceTicks: null,
      quantityLots: 100,
      quoteAmount: null,
    });
    expect(result).toMatchObject({ ok: true, value: { filledLots: 100 } });
    const fill = events.find((e) => e.type === "fill") as unknown as { makerOwnerId: string };
    expect(fill.makerOwnerId).toBe(mm);
    advance(1_000);
    expect(await maker.refresh(prices, now())).toBe(1); // Only the book that traded.
    expect(gateway.query((s) => getOpenOrders(s, mm, "demo", "BTC-USDT"))).toHaveLength(28);
    checkInvariants(gateway.state);
  });

  it("follows the tape price and cancels stale quotes", async () => {
    const { gateway, prices, now, advance } = await setUp();
    const maker = new MarketMaker({ gateway, instruments: [btc] });
    await maker.refresh(prices, now());
    advance(1_000);
    prices.set("BTCUSDT", (prices.get("BTCUSDT")! * 101n) / 100n);
    expect(await maker.refresh(prices, now())).toBe(2);
    const depth = gateway.query((s) => getDepth(s, "BTC-USDT", "real", 20))!;
    expect(depth.bids).toHaveLength(14);
    expect(depth.bids[0]!.priceTicks).toBeGreaterThan(9_500_000);
  });

  it("stays within its inventory: an unfunded mode gets no quotes", async () => {
    const kernel = kernelGateway();
    for (const command of spotSetupCommands(instruments)) await kernel.gateway.submit(command);
    const maker = new MarketMaker({ gateway: kernel.gateway, instruments: [btc] });
    await maker.refresh(new Map([["BTCUSDT", 9_500_000n]]), kernel.now());
    expect(kernel.gateway.query((s) => getOpenOrders(s, mm, "real"))).toEqual([]);
    expect(kernel.gateway.query((s) => getOpenOrders(s, mm, "demo"))).toEqual([]);
  });

  it("closes a spot market through the tape sink when its session ends", async () => {
    const { gateway, tape, now } = await setUp();
    tape.setSession(btc, false, now());
    await new Promise((r) => setTimeout(r, 0));
    expect(gateway.query((s) => getMarkets(s)).find((m) => m.marketId === "BTC-USDT")?.open).toBe(
      false,
    );
  });
});

describe("kernel depth for the market API", () => {
  it("converts the maker's book into instrument prices and quantities", async () => {
    const { kernelDepthSource } = await import("../market/kernel-depth.ts");
    const { gateway, prices, now } = await setUp();
    await new MarketMaker({ gateway, instruments: [btc] }).refresh(prices, now());
    const source = kernelDepthSource(gateway.query, new Map([["BTCUSDT", "BTC-USDT"]]));
    const depth = source.depth(btc, "real", 3, prices.get("BTCUSDT")!);
    expect(depth.source).toBe("order_book");
    expect(depth.bids).toHaveLength(3);
    expect(depth.bids[0]![0] < prices.get("BTCUSDT")!).toBe(true);
    expect(depth.asks[0]![0] > prices.get("BTCUSDT")!).toBe(true);
    expect(source.depth(findInstrument("AAPL")!, "real", 3, 23_000n).source).toBe("simulated");
  });
});
