// The wired kernel against the reference model (`reference.ts`) on the same random streams:
// users trade one lot count at the mark through the real book (a resting limit and a crossing
// IOC), change leverage and margin mode, move isolated margin, the index moves, and funding
// settles. Sizes stay small against the wallets, so the two models' different pre-trade margin
// checks (the kernel's order hold at placement, the reference's test after the fill) never
// bind. After every step the positions, each owner's wallet and isolated margin, fees,
// the funding remainder and clearing must be equal in both. The calm profile keeps everyone far
// from maintenance, so the comparison covers the trading, margin and funding arithmetic; the
// liquidation paths (where the kernel's real book differs from the reference's resting list)
// are covered by the scenarios and the simulation.

import { describe, expect, it } from "vitest";
import { Random } from "../testing/simulate.ts";
import type { Mode } from "../types.ts";
import { PerpHarness, PERP } from "./kernel-testing.ts";
import type { RefCommand, RefState } from "./reference.ts";
import { applyReference, createReferenceState } from "./reference.ts";

const USERS = ["a", "b", "c", "d"];
const USDT = 1_000_000n;

function step(ref: RefState, command: RefCommand): RefState {
  const out = applyReference(ref, command);
  if (!out.ok) throw new Error(`reference refused ${command.type}: ${out.code}`);
  return out.state;
}

function compare(h: PerpHarness, ref: RefState, where: string): void {
  const mode: Mode = "real";
  for (const user of USERS) {
    const account = h.account(user)!;
    const expected = ref.accounts.get(user)!;
    const wallet = h.wallet(user);
    const view = {
      position: account.position,
      marginMode: account.marginMode,
      leverage: account.leverage,
      cash:
        account.marginMode === "cross"
          ? wallet.available + account.margin - account.debt
          : wallet.available,
      isolatedMargin: account.marginMode === "isolated" ? account.margin - account.debt : 0n,
    };
    expect(view, `${where}: ${user}`).toEqual({
      position: expected.position,
      marginMode: expected.marginMode,
      leverage: expected.leverage,
      cash: expected.wallet,
      isolatedMargin: expected.isolatedMargin,
    });
  }
  const system = (owner: string) =>
    h.state.ledger.accounts.get(`${owner}|${mode}|contract|USDT`)?.available ?? 0n;
  let debts = 0n;
  for (const account of h.state.perp.markets.get(PERP)!.real.accounts.values()) {
    debts += account.debt;
  }
  expect(system("system:fees"), `${where}: fees`).toBe(ref.fees);
  expect(system("system:funding_remainder"), `${where}: remainder`).toBe(ref.fundingRemainder);
  expect(system("system:perp_clearing") + debts, `${where}: clearing`).toBe(ref.clearing);
}

let fundingsSeen = 0;
let fillsSeen = 0;
let liquidationsSeen = 0;
let amendsSeen = 0;
let selfCrossSeen = 0;
const STP_MODES = ["cancel_resting", "cancel_incoming", "cancel_both"] as const;

function runOne(seed: number, steps: number, violent = false): number {
  const random = new Random(seed);
  const h = new PerpHarness({
    fundingIntervalMs: 3_600_000,
    leverageMax: 10,
    leverageDefault: 5,
    tiers: "0:50:0:10;10000000000:100:50000000:5",
  });
  let ref = createReferenceState(h.state.perp.markets.get(PERP)!.real.market.params);
  for (const user of USERS) {
    const amount = BigInt(violent ? random.int(300, 2_000) : random.int(20_000, 50_000)) * USDT;
    h.user(user, amount);
    ref = step(ref, { type: "deposit", ownerId: user, amount });
    h.leverage(user, 5);
    ref = step(ref, { type: "set_leverage", ownerId: user, leverage: 5 });
  }
  let priceTicks = 500_000;
  let tickNo = 0;
  const tick = (): void => {
    const bps = violent && random.chance(0.5) ? random.int(-2_500, 2_500) : random.int(-100, 100);
    priceTicks += Math.round((priceTicks * bps) / 10_000);
    h.tick((priceTicks / 10).toFixed(1));
    tickNo++;
    ref = step(ref, {
      type: "mark",
      tickId: `t${tickNo}`,
      indexTicks: BigInt(priceTicks),
      bidTicks: null,
      askTicks: null,
    });
  };
  tick();
  let compared = 0;
  for (let i = 0; i < steps; i++) {
    const roll = random.next();
    const user = random.pick(USERS);
    if (roll < 0.2) {
      tick();
    } else if (roll < 0.65) {
      const buyer = random.pick(USERS);
      const seller = random.pick(USERS.filter((u) => u !== buyer));
      const lots = random.int(1, violent ? 10 : 5);
      const takerBuys = random.chance(0.5);
      const [maker, taker] = takerBuys ? [seller, buyer] : [buyer, seller];
      const makerSide = takerBuys ? "sell" : "buy";
      const rested = h.order(maker, makerSide, lots, priceTicks, { tif: "post_only" });
      if (!rested.result.ok) continue;
      const orderId = (rested.result.value as { orderId: number }).orderId;
      // Sometimes the maker lowers its size in place first: the taker then gets only that.
      let restingLots = lots;
      if (lots > 1 && random.chance(0.3)) {
        restingLots = random.int(1, lots - 1);
        h.run({
          type: "amend_perp_order_size",
          ownerId: maker,
          mode: "real",
          orderId,
          quantityLots: restingLots,
        } as never);
        amendsSeen++;
      }
      // The taker names a self-trade prevention mode; it trades someone else, so none applies.
      const taken = h.order(taker, takerBuys ? "buy" : "sell", lots, priceTicks, {
        tif: "ioc",
        selfTradeMode: random.pick(STP_MODES),
      });
      if (h.state.perp.orders.has(orderId)) {
        h.run({ type: "cancel_perp_order", ownerId: maker, mode: "real", orderId } as never);
      }
      if (!taken.result.ok || (taken.result.value as { filledLots: number }).filledLots === 0) {
        continue;
      }
      expect((taken.result.value as { filledLots: number }).filledLots).toBe(restingLots);
      const filled = applyReference(ref, {
        type: "fill",
        buyerId: buyer,
        sellerId: seller,
        lots: BigInt(restingLots),
        priceTicks: BigInt(priceTicks),
        taker: takerBuys ? "buy" : "sell",
      });
      // The reference refuses a fill that leaves equity below zero at the mark; the kernel lets
      // the book fill it and liquidates at once (docs/perpetuals.md §12.1). The streams part.
      if (!filled.ok && violent) break;
      if (!filled.ok) throw new Error(`reference refused fill: ${filled.code}`);
      ref = filled.state;
    } else if (roll < 0.7) {
      // A user crosses its own resting order: every self-trade prevention mode trades nothing,
      // so the reference model does not change (its comparison below checks the kernel agrees).
      const makerSide = random.chance(0.5) ? "buy" : "sell";
      const rested = h.order(user, makerSide, random.int(1, 5), priceTicks, { tif: "post_only" });
      if (!rested.result.ok) continue;
      const mode = random.pick(STP_MODES);
      const taken = h.order(
        user,
        makerSide === "buy" ? "sell" : "buy",
        random.int(1, 5),
        priceTicks,
        {
          tif: "ioc",
          selfTradeMode: mode,
        },
      );
      if (taken.result.ok) {
        expect((taken.result.value as { filledLots: number }).filledLots).toBe(0);
        selfCrossSeen++;
      }
      const orderId = (rested.result.value as { orderId: number }).orderId;
      const kept = h.state.perp.orders.has(orderId);
      if (taken.result.ok) {
        expect(kept, `resting order after ${mode}`).toBe(mode === "cancel_incoming");
      }
      if (kept) h.run({ type: "cancel_perp_order", ownerId: user, mode: "real", orderId } as never);
    } else if (roll < 0.75) {
      const leverage = random.int(1, 10);
      const out = h.tryRun({
        type: "set_perp_leverage",
        ownerId: user,
        mode: "real",
        marketId: PERP,
        leverage,
      } as never);
      const refOut = applyReference(ref, { type: "set_leverage", ownerId: user, leverage });
      expect(out.result.ok, "leverage accepted alike").toBe(refOut.ok);
      if (refOut.ok) ref = refOut.state;
    } else if (roll < 0.83) {
      const marginMode = random.chance(0.5) ? "isolated" : "cross";
      const out = h.tryRun({
        type: "set_perp_margin_mode",
        ownerId: user,
        mode: "real",
        marketId: PERP,
        marginMode,
      } as never);
      if (out.result.ok) ref = step(ref, { type: "set_margin_mode", ownerId: user, marginMode });
    } else if (roll < 0.93) {
      const add = random.chance(0.5);
      const amount = BigInt(random.int(1, 50)) * USDT;
      const out = h.tryRun({
        type: add ? "add_perp_margin" : "remove_perp_margin",
        ownerId: user,
        mode: "real",
        marketId: PERP,
        amount,
      } as never);
      const refOut = applyReference(ref, {
        type: add ? "add_margin" : "remove_margin",
        ownerId: user,
        amount,
      });
      expect(out.result.ok, "margin move accepted alike").toBe(refOut.ok);
      if (refOut.ok) ref = refOut.state;
    } else {
      h.run({ type: "clock_tick" } as never, (Math.floor(h.nowMs / 3_600_000) + 1) * 3_600_000);
      if (h.eventsOf("perp_funding_settled").length > 0) {
        ref = step(ref, { type: "settle_funding", atMs: h.nowMs });
      }
    }
    if (!violent && h.eventsOf("perp_liquidation").length > 0) break;
    compare(h, ref, `seed ${seed} step ${i}`);
    compared++;
  }
  if (violent) liquidationsSeen += h.eventsOf("perp_liquidation").length;
  fundingsSeen += h.eventsOf("perp_funding_settled").filter((e) => e.payments.length > 0).length;
  fillsSeen += h.eventsOf("perp_fill").length;
  return compared;
}

describe("the wired kernel against the reference model", () => {
  it("agrees on positions, wallets, margins, fees, funding and clearing (100 seeds)", () => {
    let compared = 0;
    for (let seed = 1; seed <= 100; seed++) compared += runOne(seed, 60);
    expect(compared).toBeGreaterThan(4_000);
    expect(fundingsSeen).toBeGreaterThan(50);
    expect(fillsSeen).toBeGreaterThan(1_000);
    expect(amendsSeen).toBeGreaterThan(100);
    expect(selfCrossSeen).toBeGreaterThan(50);
    // CPU-bound and deterministic: minutes on a shared, loaded machine are load, not a fault.
  }, 180_000);

  it("agrees through liquidations, takeovers and ADL on violent paths (empty book, 200 seeds)", () => {
    let compared = 0;
    for (let seed = 1; seed <= 200; seed++) compared += runOne(seed, 60, true);
    console.log(JSON.stringify({ compared, liquidationsSeen }));
    expect(compared).toBeGreaterThan(2_000);
    expect(liquidationsSeen).toBeGreaterThan(10);
  });
});
