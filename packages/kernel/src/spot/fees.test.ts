import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { Command, Event } from "../types.ts";
import type { FillEvent } from "./types.ts";

const M = "BTC-USDT";

function setup(): { state: KernelState; c: CommandMaker; run: (x: Command) => Event[] } {
  const state = createKernelState();
  const c = new CommandMaker();
  const run = (command: Command): Event[] => {
    const out = apply(state, command);
    if (!out.result.ok) throw new Error(`${command.type}: ${out.result.code}`);
    checkInvariants(state);
    return out.events;
  };
  for (const command of [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market(M, "BTC", "USDT", { feeBpsMaker: 10, feeBpsTaker: 20 }),
    c.session(M, true),
    c.open("1"),
    c.open("2"),
    c.deposit("1", "USDT", 10_000_000_000n),
    c.deposit("2", "BTC", 100_000_000n),
  ]) {
    run(command);
  }
  return { state, c, run };
}

const fees = (c: CommandMaker, maker: number, taker: number): Command => ({
  type: "set_market_fees",
  id: `fees-${maker}-${taker}-${c.nowMs}`,
  atMs: c.nowMs++,
  marketId: M,
  feeBpsMaker: maker,
  feeBpsTaker: taker,
  operatorId: "op-1",
});

const fillOf = (events: Event[]): FillEvent =>
  events.find((e): e is FillEvent => e.type === "fill")!;

describe("set_market_fees (operator fee changes, type code 22)", () => {
  it("applies to orders placed after the change; an order resting from before keeps its rate", () => {
    const { state, c, run } = setup();
    run(c.limit("2", M, "sell", 100_000, 10)); // order 1 rests at the old rates
    const changed = run(fees(c, 0, 100));
    expect(changed).toEqual([
      expect.objectContaining({ type: "market_fees_set", feeBpsMaker: 0, feeBpsTaker: 100, orderIdFrom: 2, operatorId: "op-1" }), // prettier-ignore
    ]);
    expect(state.reference.markets.get(M)!.feeBpsTaker).toBe(100);
    // The taker (new) pays 100 bps of the base it buys; the maker (old) 10 bps of its quote.
    const fill = fillOf(run(c.limit("1", M, "buy", 100_000, 5)));
    expect(fill.feeTaker).toBe((fill.baseAmount * 100n + 9_999n) / 10_000n);
    expect(fill.feeMaker).toBe((fill.quoteAmount * 10n + 9_999n) / 10_000n);
    // A maker placed after the change pays the new maker rate (0).
    run(c.limit("1", M, "buy", 99_000, 5)); // order 3 rests
    const second = fillOf(run(c.limit("2", M, "sell", 99_000, 5)));
    expect(second.feeMaker).toBe(0n);
    // Still open: order 1 (5 lots left) keeps the epoch.
    expect(state.reference.markets.get(M)!.feeEpochs).toEqual([
      { orderIdBelow: 2, feeBpsMaker: 10, feeBpsTaker: 20 },
    ]);
  });

  it("keeps no epoch once no order from before is open, and snapshots restore the same hash", () => {
    const { state, c, run } = setup();
    run(fees(c, 5, 7));
    expect(state.reference.markets.get(M)!.feeEpochs).toBeUndefined();
    run(c.limit("2", M, "sell", 100_000, 10));
    run(fees(c, 1, 2));
    expect(state.reference.markets.get(M)!.feeEpochs).toHaveLength(1);
    const restored = restore(snapshot(state));
    expect(stateHash(restored)).toBe(stateHash(state));
    expect(restored.reference.markets.get(M)!.feeBpsMaker).toBe(1);
    expect(restored.reference.markets.get(M)!.feeEpochs).toEqual([
      { orderIdBelow: 2, feeBpsMaker: 5, feeBpsTaker: 7 },
    ]);
    checkInvariants(restored);
    run(c.cancel("2", 1));
    run(fees(c, 3, 4));
    expect(state.reference.markets.get(M)!.feeEpochs).toBeUndefined();
  });

  it("refuses rates outside 0..100 bps and unknown markets, changing nothing", () => {
    const { state, c } = setup();
    for (const [maker, taker] of [
      [-1, 10],
      [10, 101],
    ] as const) {
      expect(apply(state, fees(c, maker, taker)).result).toEqual({ ok: false, code: "market_invalid" }); // prettier-ignore
    }
    expect(apply(state, fees(c, 1.5, 10)).result).toEqual({ ok: false, code: "command_malformed" });
    const unknown = { ...(fees(c, 1, 1) as object), marketId: "NOPE" } as Command;
    expect(apply(state, unknown).result).toEqual({ ok: false, code: "market_not_found" });
    expect(state.reference.markets.get(M)!.feeBpsMaker).toBe(10);
  });
});
