import { describe, expect, it } from "vitest";
import { apply, createKernelState } from "./index.ts";
import {
  formatPriceTicks,
  formatQuantityLots,
  parsePriceTicks,
  parseQuantityLots,
} from "./market-units.ts";
import { getMarkets } from "./queries.ts";
import { CommandMaker } from "./testing/commands.ts";

function market() {
  const state = createKernelState();
  const c = new CommandMaker();
  apply(state, c.asset("USDT", 6));
  apply(state, c.asset("BTC", 8));
  apply(state, c.market("BTC-USDT", "BTC", "USDT", { quantityLotsMin: 2, quantityLotsMax: 1000 }));
  return getMarkets(state)[0]!;
}

describe("market units", () => {
  const m = market();
  it("parses prices on the tick grid and rejects the rest", () => {
    expect(parsePriceTicks(m, "30123.45")).toEqual({ ok: true, value: 3_012_345 });
    expect(parsePriceTicks(m, "30123.451")).toEqual({ ok: false, code: "price_not_on_tick" });
    expect(parsePriceTicks(m, "0")).toEqual({ ok: false, code: "price_must_be_positive" });
    expect(parsePriceTicks(m, "-1")).toEqual({ ok: false, code: "amount_negative_not_allowed" });
    expect(parsePriceTicks(m, "1e3")).toEqual({ ok: false, code: "amount_malformed" });
    expect(parsePriceTicks(m, "99999999999999")).toEqual({ ok: false, code: "price_too_high" });
    expect(formatPriceTicks(m, 3_012_345)).toBe("30123.45");
  });
  it("parses quantities on the lot grid within the market's limits", () => {
    expect(parseQuantityLots(m, "0.015")).toEqual({ ok: true, value: 15 });
    expect(parseQuantityLots(m, "0.0155")).toEqual({ ok: false, code: "quantity_not_on_lot" });
    expect(parseQuantityLots(m, "0.000000001")).toEqual({
      ok: false,
      code: "quantity_not_on_lot",
    });
    expect(parseQuantityLots(m, "0.001")).toEqual({ ok: false, code: "quantity_below_minimum" });
    expect(parseQuantityLots(m, "2")).toEqual({ ok: false, code: "quantity_too_high" });
    expect(parseQuantityLots(m, "")).toEqual({ ok: false, code: "amount_empty" });
    expect(formatQuantityLots(m, 15)).toBe("0.015");
  });
});
