// Hand-checked deposit-bonus activities: a reservation is refused while the promotion account is
// short; a reservation sets the bonus aside at once; a qualifying deposit within the week pays
// it; after a week (clock advanced) the reservation lapses and the reserve returns; capacity,
// window and one place per user; demo activities pay demo money only; a snapshot restores all.

import { describe, expect, it } from "vitest";
import { apply, createKernelState, type Command } from "../index.ts";
import { checkInvariants } from "../invariants.ts";
import { accountOf, ownerOf, systemOwner } from "../ledger/accounts.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { CommandMaker } from "../testing/commands.ts";
import { systemOwners, type Mode } from "../types.ts";
import { promotionBalance } from "./state.ts";

const DAY = 86_400_000;
const USDT = 1_000_000n;

function setup() {
  const state = createKernelState({ demoGrants: [{ assetId: "USDT", amount: "1000" }] });
  const c = new CommandMaker(1_800_000_000_000);
  const run = (command: Command) => {
    const out = apply(state, command);
    checkInvariants(state);
    return out;
  };
  const code = (command: Command) => {
    const out = run(command);
    return out.result.ok ? "ok" : out.result.code;
  };
  const ok = (command: Command) => {
    const out = run(command);
    if (!out.result.ok) throw new Error(`${command.type} rejected: ${out.result.code}`);
    return out;
  };
  const fund = (owner: string, mode: Mode = "real") =>
    accountOf(state, ownerOf(state, mode, owner)!, "fund", "USDT").available;
  ok(c.asset("USDT", 6));
  for (const user of ["a", "b", "c"]) {
    ok(c.open(user));
    ok(c.open(user, "demo"));
  }
  return { state, c, run, code, ok, fund };
}

describe("deposit-bonus activities", () => {
  it("refuses a reservation while the promotion account is short, and pays a qualifying deposit", () => {
    const { state, c, code, ok, fund } = setup();
    expect(code(c.activityDefine("bad id!"))).toBe("activity_id_invalid");
    expect(code(c.activityDefine("x", { capacity: 0 }))).toBe("activity_terms_invalid");
    expect(code(c.activityDefine("x", { startsAtMs: 5, endsAtMs: 5 }))).toBe(
      "activity_terms_invalid",
    );
    expect(code(c.activityDefine("x", { bonus: -1n }))).toBe("amount_must_be_positive");
    expect(code(c.activityDefine("x", { assetId: "EUR" }))).toBe("asset_not_found");
    // 100 USDT deposit → 10 USDT bonus, two places.
    expect(code(c.activityDefine("welcome", { capacity: 2 }))).toBe("ok");
    expect(code(c.activityDefine("welcome"))).toBe("activity_exists");
    expect(code(c.activityReserve("welcome", "a", "r1"))).toBe("activity_promotion_short");
    expect(code(c.activityFund(15n * USDT, "real"))).toBe("ok");
    expect(code({ ...c.activityFund(USDT), reference: null } as Command)).toBe("reference_missing");
    expect(code(c.activityReserve("welcome", "a", "r1"))).toBe("ok");
    expect(promotionBalance(state, "real", "promotion", "USDT")).toBe(5n * USDT);
    expect(promotionBalance(state, "real", "reserve", "USDT")).toBe(10n * USDT);
    expect(code(c.activityReserve("welcome", "a", "r2"))).toBe("activity_already_reserved");
    // 5 USDT left: the second place cannot be backed.
    expect(code(c.activityReserve("welcome", "b", "r3"))).toBe("activity_promotion_short");
    expect(code(c.activityReserve("nope", "b", "r4"))).toBe("activity_not_found");
    expect(code(c.activityReserve("welcome", "b", "r1"))).toBe("activity_exists");
    // A deposit below the minimum pays nothing; one at the minimum pays the bonus.
    ok(c.deposit("a", "USDT", 99n * USDT));
    expect(fund("a")).toBe(99n * USDT);
    const paid = ok(c.deposit("a", "USDT", 100n * USDT));
    expect(fund("a")).toBe(209n * USDT);
    expect(paid.events.find((e) => e.type === "activity_reservation")).toMatchObject({
      reservationId: "r1",
      status: "paid",
      bonus: 10n * USDT,
    });
    expect(promotionBalance(state, "real", "reserve", "USDT")).toBe(0n);
    // Paid is final: a second deposit pays nothing more, and the place stays taken.
    ok(c.deposit("a", "USDT", 100n * USDT));
    expect(fund("a")).toBe(309n * USDT);
    ok(c.activityFund(20n * USDT));
    expect(code(c.activityReserve("welcome", "b", "r5"))).toBe("ok");
    expect(code(c.activityReserve("welcome", "c", "r6"))).toBe("activity_full");
  });

  it("lapses after a week (clock advanced) and returns the reserve; the place is free again", () => {
    const { state, c, code, ok, fund } = setup();
    ok(c.activityDefine("welcome", { capacity: 1 }));
    ok(c.activityFund(10n * USDT));
    ok(c.activityReserve("welcome", "a", "r1"));
    expect(code(c.activityReserve("welcome", "b", "r2"))).toBe("activity_full");
    ok(c.clock(7 * DAY - 10));
    expect(state.activity.reservations.get("r1")!.status).toBe("reserved");
    const lapsed = ok(c.clock(10));
    expect(lapsed.events.find((e) => e.type === "activity_reservation")).toMatchObject({
      reservationId: "r1",
      status: "lapsed",
    });
    expect(promotionBalance(state, "real", "promotion", "USDT")).toBe(10n * USDT);
    expect(promotionBalance(state, "real", "reserve", "USDT")).toBe(0n);
    // A deposit after the lapse pays no bonus.
    ok(c.deposit("a", "USDT", 500n * USDT));
    expect(fund("a")).toBe(500n * USDT);
    // The place is free again; a lapsed user may book again.
    expect(code(c.activityReserve("welcome", "a", "r3"))).toBe("ok");
    const copy = restore(snapshot(state));
    expect(stateHash(copy)).toBe(stateHash(state));
    // The restored copy lapses the new reservation a week later as the original does.
    const tick = c.clock(7 * DAY);
    apply(state, tick);
    apply(copy, tick);
    checkInvariants(copy);
    expect(copy.activity.reservations.get("r3")!.status).toBe("lapsed");
    expect(stateHash(copy)).toBe(stateHash(state));
  });

  it("takes reservations only inside the window", () => {
    const { c, code, ok } = setup();
    const now = 1_800_000_000_000;
    ok(c.activityDefine("later", { startsAtMs: now + DAY, endsAtMs: now + 2 * DAY }));
    ok(c.activityFund(100n * USDT));
    expect(code(c.activityReserve("later", "a", "r1"))).toBe("activity_not_open");
    ok(c.clock(DAY));
    expect(code(c.activityReserve("later", "a", "r2"))).toBe("ok");
    ok(c.clock(DAY));
    expect(code(c.activityReserve("later", "b", "r3"))).toBe("activity_not_open");
  });

  it("keeps demo activities in demo money: funded by the faucet, paid on a demo grant", () => {
    const { state, c, code, ok, fund } = setup();
    const external = () =>
      accountOf(state, systemOwner(state, "real", systemOwners.external), "fund", "USDT").available;
    const externalBefore = external();
    ok(c.activityDefine("demo-welcome", {}, "demo"));
    expect(code(c.activityReserve("demo-welcome", "a", "r1"))).toBe("activity_not_found");
    ok(c.activityFund(50n * USDT, "demo"));
    expect(promotionBalance(state, "real", "promotion", "USDT")).toBe(0n);
    expect(external()).toBe(externalBefore);
    expect(code(c.activityReserve("demo-welcome", "a", "r1", "demo"))).toBe("ok");
    // A real deposit does not pay the demo bonus.
    ok(c.deposit("a", "USDT", 200n * USDT));
    expect(fund("a")).toBe(200n * USDT);
    expect(state.activity.reservations.get("r1")!.status).toBe("reserved");
    const demoBefore = fund("a", "demo");
    ok(c.grant("a", "USDT", 100n * USDT));
    expect(fund("a", "demo")).toBe(demoBefore + 110n * USDT);
    expect(fund("a")).toBe(200n * USDT);
    expect(promotionBalance(state, "demo", "promotion", "USDT")).toBe(40n * USDT);
    // A demo reset lapses open demo reservations.
    ok(c.activityReserve("demo-welcome", "b", "r2", "demo"));
    ok(c.resetDemo("b"));
    expect(state.activity.reservations.get("r2")!.status).toBe("lapsed");
    expect(promotionBalance(state, "demo", "promotion", "USDT")).toBe(40n * USDT);
  });
});
