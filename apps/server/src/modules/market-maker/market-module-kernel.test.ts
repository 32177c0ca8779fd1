import {
  apply,
  checkInvariants,
  createKernelState,
  getLastTick,
  type Command,
} from "@candor/kernel";
import { expect, it } from "vitest";
import type { Unstamped } from "../../engine/engine.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { createMarketModule } from "../market/market.module.ts";

// Until the engine runs in main.ts, the market module is tested with the kernel behind the same
// submit/query shape the engine has.
describeEachDatabase("market module with a kernel", (database) => {
  it("defines spot markets, records ticks, funds and runs the market maker, serves kernel depth", async () => {
    const state = createKernelState({});
    let nowMs = Date.parse("2026-11-23T15:00:00Z");
    const kernel = {
      async submit(command: Unstamped<Command>) {
        return apply(state, { ...command, atMs: nowMs } as Command);
      },
      query: <T>(fn: (s: typeof state) => T) => fn(state),
    };
    const market = await createMarketModule({
      database: database(),
      now: () => nowMs,
      backfillDays: 1,
      kernel,
    });
    nowMs += 2_000;
    market.service.step(nowMs);
    await new Promise((r) => setTimeout(r, 0));
    expect(getLastTick(state, "BTCUSDT")?.tickAtMs).toBe(nowMs);
    // Demo side is funded automatically; the real side waits for an operator credit.
    expect(await market.marketMaker!.refresh(market.service.lastPrices(), nowMs)).toBeGreaterThan(
      0,
    );
    const btc = market.service.instrument("BTCUSDT")!;
    const demo = market.service.depth(btc, "demo", 5, nowMs);
    expect(demo.source).toBe("order_book");
    expect(demo.bids).toHaveLength(5);
    expect(demo.asks).toHaveLength(5);
    expect(Number(demo.bids[0]![0])).toBeLessThan(Number(demo.asks[0]![0]));
    expect(market.service.depth(btc, "real", 5, nowMs).bids).toEqual([]);
    expect(market.service.depth(market.service.instrument("AAPL")!, "real", 5, nowMs).source).toBe(
      "simulated",
    );
    checkInvariants(state);
  });
});
