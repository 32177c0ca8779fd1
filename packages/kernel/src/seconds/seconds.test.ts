// Seconds contracts: tick selection at the boundaries, ties, reservation and release, the
// exposure limit, restart in the middle of a contract (the honesty test is in honesty.test.ts).

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import type { Command } from "../types.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { buy, fund, HOUSE, PERIOD, run, settledOf, setup } from "./testing.ts";

describe("seconds contracts", () => {
  it("holds the stake in escrow, reserves the payout, and pays a win from the reservation", () => {
    const { state, c } = setup();
    const { id, expiresAtMs, openTickId } = buy(state, c);
    expect(openTickId).toBe("tc12");
    expect(fund(state, "1").available).toBe(900_000_000n);
    expect(fund(state, HOUSE)).toMatchObject({ available: 415_000_000n, held: 85_000_000n });
    expect(getBalance(state, HOUSE, "real", "contract", "USDT").available).toBe(100_000_000n);
    c.nowMs = expiresAtMs - 1;
    expect(settledOf(run(state, c.tick("BTC-USDT", "30001")))).toEqual([]); // before expiry
    c.nowMs = expiresAtMs; // a tick exactly at expiry settles
    const tick = c.tick("BTC-USDT", "30002");
    const [settled] = settledOf(run(state, tick));
    expect(settled).toMatchObject({
      contractId: id,
      outcome: "win",
      openTickId: "tc12",
      settleTickId: `t${tick.id}`,
      settlePrice: "30002",
      returned: 185_000_000n,
    });
    expect(fund(state, "1").available).toBe(1_085_000_000n);
    expect(fund(state, HOUSE)).toMatchObject({ available: 415_000_000n, held: 0n });
    expect(state.seconds.settledCount).toBe(1);
  });

  it("a loss moves the stake to the house and releases the reservation", () => {
    const { state, c } = setup();
    const { expiresAtMs } = buy(state, c, "up");
    c.nowMs = expiresAtMs + 10;
    const [settled] = settledOf(run(state, c.tick("BTC-USDT", "29999.99")));
    expect(settled).toMatchObject({ outcome: "loss", returned: 0n });
    expect(fund(state, "1").available).toBe(900_000_000n);
    expect(fund(state, HOUSE)).toMatchObject({ available: 600_000_000n, held: 0n });
  });

  it("down wins when the price falls; equal prices refund the stake", () => {
    const { state, c } = setup();
    const down = buy(state, c, "down");
    c.nowMs = down.expiresAtMs;
    expect(settledOf(run(state, c.tick("BTC-USDT", "29000")))[0]?.outcome).toBe("win");
    const tie = buy(state, c, "up");
    c.nowMs = tie.expiresAtMs;
    const [settled] = settledOf(run(state, c.tick("BTC-USDT", "29000.000")));
    expect(settled).toMatchObject({ outcome: "tie", returned: 100_000_000n });
  });

  it("no tick within the grace period: the schedule refunds the stake", () => {
    const { state, c } = setup();
    const { expiresAtMs } = buy(state, c);
    c.nowMs = expiresAtMs + 4_000;
    expect(settledOf(run(state, c.clock()))).toEqual([]);
    c.nowMs = expiresAtMs + 5_000;
    const [settled] = settledOf(run(state, c.clock()));
    expect(settled).toMatchObject({
      outcome: "no_tick",
      settleTickId: null,
      returned: 100_000_000n,
    });
    expect(fund(state, "1").available).toBe(1_000_000_000n);
    expect(fund(state, HOUSE)).toMatchObject({ available: 500_000_000n, held: 0n });
    // A later tick finds nothing to settle: each contract settles once.
    expect(settledOf(run(state, c.tick("BTC-USDT", "1")))).toEqual([]);
    expect(state.seconds.settledCount).toBe(1);
  });

  it("a tick after a gap longer than the grace refunds; within the grace it settles", () => {
    const { state, c } = setup();
    const first = buy(state, c);
    c.nowMs = first.expiresAtMs + 5_001; // no clock tick ran meanwhile
    expect(settledOf(run(state, c.tick("BTC-USDT", "40000")))[0]).toMatchObject({
      outcome: "no_tick",
      settleTickId: null,
    });
    const second = buy(state, c);
    c.nowMs = second.expiresAtMs + 5_000; // the last ms of the grace
    expect(settledOf(run(state, c.tick("BTC-USDT", "50000")))[0]?.outcome).toBe("win");
  });

  it("out-of-order ticks are refused and settle nothing", () => {
    const { state, c } = setup();
    const { expiresAtMs } = buy(state, c);
    c.nowMs = expiresAtMs + 1;
    const stale = c.tickAt("BTC-USDT", "99999", 1_000);
    expect(apply(state, stale).result).toEqual({ ok: false, code: "tick_out_of_order" });
    expect(state.seconds.open.size).toBe(1);
  });

  it("refuses a purchase the house cannot reserve, past the exposure limit, or on a stale tick", () => {
    const { state, c } = setup();
    const tooMuch = (stake: bigint) => c.secondsPurchase("1", "BTC-USDT", PERIOD, "up", stake);
    run(state, c.secondsConfigure("BTC-USDT", PERIOD, { exposureMax: 170_000_000n }));
    run(state, tooMuch(100_000_000n));
    run(state, tooMuch(100_000_000n));
    expect(apply(state, tooMuch(1_000_000n)).result).toEqual({
      ok: false,
      code: "seconds_exposure_limit",
    });
    run(state, c.secondsConfigure("BTC-USDT", PERIOD, { exposureMax: 10n ** 12n }));
    expect(apply(state, tooMuch(500_000_000n)).result).toEqual({
      ok: false,
      code: "house_insufficient",
    });
    const cases: [Command, string][] = [
      [
        c.secondsPurchase("1", "BTC-USDT", PERIOD, "sideways", 1_000_000n),
        "seconds_direction_invalid",
      ],
      [c.secondsPurchase("1", "BTC-USDT", 60_000, "up", 1_000_000n), "seconds_product_not_found"],
      [tooMuch(999_999n), "seconds_stake_below_minimum"],
      [tooMuch(1_000_000_001n), "seconds_stake_above_maximum"],
      [tooMuch(-5n), "amount_must_be_positive"],
      [c.secondsPurchase("2", "BTC-USDT", PERIOD, "up", 1_000_000n), "insufficient_balance"],
      [c.secondsPurchase(HOUSE, "BTC-USDT", PERIOD, "up", 1_000_000n), "owner_not_allowed"],
    ];
    for (const [command, code] of cases) {
      expect(apply(state, command).result, code).toEqual({ ok: false, code });
      expect(state.seconds.open.size).toBe(2);
    }
    c.nowMs += 10_001;
    expect(apply(state, tooMuch(1_000_000n)).result).toEqual({
      ok: false,
      code: "reference_price_stale",
    });
    run(state, c.secondsConfigure("BTC-USDT", PERIOD, { open: false }));
    run(state, c.tick("BTC-USDT", "30000"));
    expect(apply(state, tooMuch(1_000_000n)).result).toEqual({
      ok: false,
      code: "seconds_product_closed",
    });
  });

  it("a rejection changes nothing but the remembered id", () => {
    const { state, c } = setup();
    const command = c.secondsPurchase("1", "BTC-USDT", PERIOD, "up", 10n ** 15n);
    const output = apply(state, command);
    expect(output.result.ok).toBe(false);
    expect(output.events).toEqual([]);
    expect(state.seconds.open.size).toBe(0);
    expect(fund(state, "1").available).toBe(1_000_000_000n);
    expect(fund(state, HOUSE)).toMatchObject({ available: 500_000_000n, held: 0n });
  });

  it("restarts in the middle of a contract and settles it identically", () => {
    const { state, c } = setup();
    const { expiresAtMs } = buy(state, c);
    const demo = buy(state, c, "down", "demo");
    const restored = restore(snapshot(state));
    checkInvariants(restored);
    expect(stateHash(restored)).toBe(stateHash(state));
    c.nowMs = Math.max(expiresAtMs, demo.expiresAtMs);
    const tick = c.tick("BTC-USDT", "30100");
    const a = apply(state, tick);
    const b = apply(restored, tick);
    expect(b.events).toEqual(a.events);
    expect(settledOf(a.events).map((s) => s.outcome)).toEqual(["win", "loss"]);
    expect(stateHash(restored)).toBe(stateHash(state));
  });

  it("the demo house pays demo contracts: demo money stays demo", () => {
    const { state, c } = setup();
    const { expiresAtMs } = buy(state, c, "up", "demo");
    expect(fund(state, "1", "demo").available).toBe(900_000_000n);
    expect(fund(state, HOUSE, "demo").held).toBe(85_000_000n);
    expect(fund(state, HOUSE, "real").held).toBe(0n);
    c.nowMs = expiresAtMs;
    run(state, c.tick("BTC-USDT", "31000"));
    expect(fund(state, "1", "demo").available).toBe(1_085_000_000n);
    expect(fund(state, "1", "real").available).toBe(1_000_000_000n);
  });
});
