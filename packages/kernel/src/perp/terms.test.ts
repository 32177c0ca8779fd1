// Operator changes of a perpetual market's fees and leverage cap (type code 23): later orders
// only, never an existing position; bounded; snapshots keep them.

import { describe, expect, it } from "vitest";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { PerpHarness, PERP } from "./kernel-testing.ts";
import type { SetPerpMarketTermsCommand } from "./terms.ts";

const USDT = 1_000_000n;

function terms(h: PerpHarness, feeBpsMaker: number, feeBpsTaker: number, leverageMax: number) {
  return h.tryRun<SetPerpMarketTermsCommand>({
    type: "set_perp_market_terms",
    marketId: PERP,
    feeBpsMaker,
    feeBpsTaker,
    leverageMax,
    operatorId: "op-1",
  });
}

function market() {
  const h = new PerpHarness(); // maker 2 bps, taker 5 bps, cap 50, default 10
  h.user("alice", 1_000n * USDT);
  h.user("bob", 1_000n * USDT);
  h.tick("50000.0");
  return h;
}

describe("set_perp_market_terms", () => {
  it("charges each order the rates in force when it was placed", () => {
    const h = market();
    expect(h.order("bob", "sell", 10, 500_000).result.ok).toBe(true); // order 1, old rates
    expect(terms(h, 0, 50, 50).result.ok).toBe(true);
    expect(h.state.perp.markets.get(PERP)!.params.feeBpsTaker).toBe(50);
    expect(h.order("alice", "buy", 10, 500_000).result.ok).toBe(true); // order 2, new rates
    const fill = h.eventsOf("perp_fill").at(-1)!;
    // Notional 500 USDT: the maker's 2 bps (0.1 USDT), the taker's 50 bps (2.5 USDT).
    expect(fill.feeMaker).toBe(100_000n);
    expect(fill.feeTaker).toBe(2_500_000n);
    // The old epoch is dropped at the next change, once no order from before it is open.
    expect(h.state.perp.markets.get(PERP)!.feeEpochs).toHaveLength(1);
    expect(terms(h, 0, 50, 50).result.ok).toBe(true);
    expect(h.state.perp.markets.get(PERP)!.feeEpochs).toBeUndefined();
  });

  it("a lower cap keeps existing positions and leverage; it refuses only opening orders", () => {
    const h = market();
    h.leverage("alice", 20);
    h.order("bob", "sell", 10, 500_000);
    h.order("alice", "buy", 5, 500_000);
    const before = { ...h.account("alice")!.position, margin: h.account("alice")!.margin };
    expect(terms(h, 2, 5, 10).result.ok).toBe(true);
    const alice = h.account("alice")!;
    expect(alice.leverage).toBe(20); // never silently changed
    expect({ ...alice.position, margin: alice.margin }).toEqual(before);
    expect(h.state.perp.markets.get(PERP)!.params.leverageDefault).toBe(10);
    // Growing the position is refused until she chooses a leverage within the cap.
    expect(h.order("alice", "buy", 1, 500_000).result).toEqual({ ok: false, code: "leverage_invalid" }); // prettier-ignore
    // Reducing still works.
    expect(h.order("alice", "sell", 1, 500_000, { reduceOnly: true }).result.ok).toBe(true);
    expect(h.tryRun({ type: "set_perp_leverage", ownerId: "alice", mode: "real", marketId: PERP, leverage: 20 } as never).result).toEqual({ ok: false, code: "leverage_invalid" }); // prettier-ignore
    h.leverage("alice", 10);
    expect(h.order("alice", "buy", 1, 500_000).result.ok).toBe(true);
  });

  it("refuses fees outside 0..100 bps, a cap above the defined one, and unknown markets", () => {
    const h = market();
    expect(terms(h, 101, 5, 10).result).toEqual({ ok: false, code: "market_invalid" });
    expect(terms(h, 2, -1, 10).result).toEqual({ ok: false, code: "market_invalid" });
    expect(terms(h, 2, 5, 51).result).toEqual({ ok: false, code: "perp_leverage_invalid" });
    expect(terms(h, 2, 5, 0).result).toEqual({ ok: false, code: "perp_leverage_invalid" });
    const unknown = h.tryRun({ type: "set_perp_market_terms", marketId: "NOPE", feeBpsMaker: 1, feeBpsTaker: 1, leverageMax: 1, operatorId: null } as never); // prettier-ignore
    expect(unknown.result).toEqual({ ok: false, code: "market_not_found" });
    expect(h.state.perp.markets.get(PERP)!.termsChanged).toBeUndefined();
    // Raising back up to the defined cap is allowed.
    expect(terms(h, 2, 5, 5).result.ok).toBe(true);
    expect(terms(h, 2, 5, 50).result.ok).toBe(true);
    expect(h.state.perp.markets.get(PERP)!.params.leverageDefault).toBe(10);
  });

  it("snapshots keep changed terms and open orders' epochs (same hash after restore)", () => {
    const h = market();
    const untouched = stateHash(restore(snapshot(h.state)));
    expect(untouched).toBe(stateHash(h.state));
    h.order("bob", "sell", 10, 510_000); // rests at the old rates
    expect(terms(h, 1, 9, 25).result.ok).toBe(true);
    const restored = restore(snapshot(h.state));
    expect(stateHash(restored)).toBe(stateHash(h.state));
    const m = restored.perp.markets.get(PERP)!;
    expect([m.params.feeBpsMaker, m.params.feeBpsTaker, m.params.leverageMax]).toEqual([1, 9, 25]);
    expect(m.feeEpochs).toEqual([{ orderIdBelow: 2, feeBpsMaker: 2, feeBpsTaker: 5 }]);
  });
});
