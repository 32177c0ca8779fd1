import { describe, expect, it } from "vitest";
import { apply, createKernelState, restore, snapshot } from "./index.ts";
import { getMarket, getMarkets, getMarketsOfInstrument } from "./queries.ts";
import { CommandMaker } from "./testing/commands.ts";

describe("market look-ups by instrument and by id", () => {
  it("give what getMarkets filtered gives, also after a restore", () => {
    const state = createKernelState();
    const c = new CommandMaker();
    apply(state, c.asset("USDT", 6));
    apply(state, c.asset("BTC", 8));
    apply(state, c.asset("ETH", 8));
    apply(state, c.market("BTC-USDT-2", "BTC", "USDT", { instrumentId: "BTCUSDT" }));
    apply(state, c.market("BTC-USDT-1", "BTC", "USDT", { instrumentId: "BTCUSDT" }));
    apply(state, c.market("ETH-USDT", "ETH", "USDT", { instrumentId: "ETHUSDT" }));
    for (const s of [state, restore(snapshot(state))]) {
      const all = getMarkets(s);
      for (const instrumentId of ["BTCUSDT", "ETHUSDT", "XRPUSDT"]) {
        expect(getMarketsOfInstrument(s, instrumentId)).toEqual(
          all.filter((m) => m.instrumentId === instrumentId),
        );
      }
      expect(getMarketsOfInstrument(s, "BTCUSDT").map((m) => m.marketId)).toEqual([
        "BTC-USDT-1",
        "BTC-USDT-2",
      ]);
      for (const m of all) expect(getMarket(s, m.marketId)).toEqual(m);
      expect(getMarket(s, "nope")).toBeUndefined();
    }
  });
});
