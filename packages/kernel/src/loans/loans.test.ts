// Loans: pool funding and liquidity, LTV at the tape price, daily accrual, early and late
// repayment at their boundaries, the 3-day grace, margin call, liquidation with the remainder
// returned, collateral shortfall, review, demo reset, and replay identity across a restore.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { Command, Event } from "../types.ts";
import { DAY_MS } from "./math.ts";
import type { LoanView } from "./types.ts";
import { getLoan, getLoanFigures, getLoanPool } from "./views.ts";

const TREASURY = "system:treasury";
const USDT = 1_000_000n;
const BTC = 100_000_000n;

function run(state: KernelState, command: Command): Event[] {
  const output = apply(state, command);
  expect(output.result, command.type).toMatchObject({ ok: true });
  checkInvariants(state);
  return output.events;
}

function code(state: KernelState, command: Command): string | null {
  const { result } = apply(state, command);
  checkInvariants(state);
  return result.ok ? null : result.code;
}

function setup(overrides: Parameters<CommandMaker["loansConfigure"]>[1] = {}): {
  state: KernelState;
  c: CommandMaker;
} {
  const state = createKernelState({ demoGrants: [{ assetId: "BTC", amount: "1" }] });
  const c = new CommandMaker();
  for (const command of [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT"),
    c.open("1"),
    c.open("1", "demo"),
    c.deposit("1", "BTC", BTC),
    c.deposit(TREASURY, "USDT", 100_000n * USDT),
    c.loansConfigure("btc7", overrides),
    c.loansFund("USDT", 50_000n * USDT),
    c.loansFund("USDT", 50_000n * USDT, "demo"),
    c.tick("BTC-USDT", "30000"),
  ]) {
    run(state, command);
  }
  return { state, c };
}

const balance = (state: KernelState, asset: string, mode: "real" | "demo" = "real") =>
  getBalance(state, "1", mode, "fund", asset);

function borrow(state: KernelState, c: CommandMaker, amount = 10_000n * USDT): LoanView {
  const command = c.loansApply("1", "btc7", amount, BTC);
  run(state, command);
  return getLoan(state, command.id)!;
}

/** Moves the clock to `ms` after the loan started and runs the due entries. */
function at(state: KernelState, c: CommandMaker, loan: LoanView, ms: number): LoanView {
  c.nowMs = loan.startedAtMs! + ms;
  run(state, c.clock());
  return getLoan(state, loan.loanId)!;
}

describe("loans", () => {
  it("lends from the funded pool against frozen collateral, within the initial LTV", () => {
    const { state, c } = setup();
    // 20,000 USDT against 1 BTC at 30,000 is 66.67 % > 65 %.
    expect(code(state, c.loansApply("1", "btc7", 20_000n * USDT, BTC))).toBe("loans_ltv_too_high");
    expect(code(state, c.loansApply("1", "btc7", 19_500n * USDT, BTC))).toBeNull();
    expect(balance(state, "BTC")).toMatchObject({ available: 0n, held: BTC });
    expect(balance(state, "USDT").available).toBe(19_500n * USDT);
    expect(getLoanPool(state, "real", "USDT").available).toBe(30_500n * USDT);
  });

  it("refuses amounts outside the bounds and more than the pool holds (by 1 unit)", () => {
    const { state, c } = setup({
      amountMax: 10n ** 15n,
      ltvInitialBps: 9_000,
      ltvMarginCallBps: 9_500,
      ltvLiquidationBps: 9_900,
    });
    expect(code(state, c.loansApply("1", "btc7", 9n * USDT, BTC))).toBe("loan_amount_invalid");
    expect(code(state, c.loansApply("1", "btc7", 10n ** 15n + 1n, BTC))).toBe(
      "loan_amount_invalid",
    );
    run(state, c.deposit("1", "BTC", 9n * BTC));
    expect(code(state, c.loansApply("1", "btc7", 50_000n * USDT + 1n, 10n * BTC))).toBe(
      "loans_pool_insufficient",
    );
    expect(code(state, c.loansApply("1", "btc7", 50_000n * USDT, 10n * BTC))).toBeNull();
    expect(getLoanPool(state, "real", "USDT").available).toBe(0n);
  });

  it("needs a fresh tape price and funded treasury money", () => {
    const { state, c } = setup();
    c.nowMs += 61_000;
    expect(code(state, c.loansApply("1", "btc7", 1_000n * USDT, BTC))).toBe(
      "reference_price_stale",
    );
    expect(code(state, c.loansFund("USDT", 50_000n * USDT + 1n))).toBe("insufficient_balance");
  });

  it("accrues a day's interest per schedule entry and charges half the rest on early repayment", () => {
    const { state, c } = setup();
    let loan = borrow(state, c);
    loan = at(state, c, loan, DAY_MS - 1);
    expect(loan.interest).toBe(0n);
    loan = at(state, c, loan, DAY_MS);
    expect(loan).toMatchObject({ interest: 10n * USDT, daysAccrued: 1 });
    // Early on day 1: 10 interest + half of 6 remaining days × 10 = 30.
    expect(getLoanFigures(state, loan)).toMatchObject({
      repayNow: 10_040n * USDT,
      earlyFee: 30n * USDT,
    });
    run(state, c.deposit("1", "USDT", 100n * USDT));
    run(state, c.loansRepay("1", loan.loanId, 20_000n * USDT));
    loan = getLoan(state, loan.loanId)!;
    expect(loan).toMatchObject({
      status: "repaid",
      interestPaid: 40n * USDT,
      principalPaid: 10_000n * USDT,
    });
    expect(balance(state, "USDT").available).toBe(60n * USDT);
    expect(balance(state, "BTC")).toMatchObject({ available: BTC, held: 0n });
    expect(getLoanPool(state, "real", "USDT").available).toBe(50_040n * USDT);
  });

  it("charges no early fee on the last day (at maturity)", () => {
    const { state, c } = setup();
    let loan = borrow(state, c);
    loan = at(state, c, loan, 6 * DAY_MS);
    expect(getLoanFigures(state, loan).earlyFee).toBe(5n * USDT); // one day left: half of 10
    loan = at(state, c, loan, 7 * DAY_MS);
    expect(getLoanFigures(state, loan)).toMatchObject({ repayNow: 10_070n * USDT, earlyFee: 0n });
  });

  it("accrues overdue interest at 110 % and a 1 % late fee a day; partial repayment pays fees first", () => {
    const { state, c } = setup();
    let loan = borrow(state, c);
    loan = at(state, c, loan, 9 * DAY_MS);
    expect(loan).toMatchObject({ interest: 92n * USDT, lateFees: 200n * USDT, forcedClose: false });
    run(state, c.loansRepay("1", loan.loanId, 250n * USDT));
    loan = getLoan(state, loan.loanId)!;
    expect(loan).toMatchObject({ lateFees: 0n, interest: 42n * USDT, principal: 10_000n * USDT });
  });

  it("liquidates only after 3 days overdue, at the next recorded tick, and returns the rest", () => {
    const { state, c } = setup();
    let loan = borrow(state, c);
    loan = at(state, c, loan, 10 * DAY_MS - 1); // 3 days overdue less 1 ms
    expect(loan.forcedClose).toBe(false);
    run(state, c.tick("BTC-USDT", "30000"));
    expect(getLoan(state, loan.loanId)!.status).toBe("active");
    loan = at(state, c, loan, 10 * DAY_MS);
    expect(loan).toMatchObject({ forcedClose: true, status: "active" });
    const debt = loan.principal + loan.interest + loan.lateFees; // 10,000 + 70 + 33 + 300
    expect(debt).toBe(10_403n * USDT);
    const tick = c.tick("BTC-USDT", "40000");
    run(state, tick);
    loan = getLoan(state, loan.loanId)!;
    expect(loan).toMatchObject({
      status: "liquidated",
      closeTickId: (tick as { tickId: string }).tickId,
      closePrice: "40000",
      collateralSeized: 26_007_500n, // 10,403 / 40,000 BTC
      shortfall: 0n,
    });
    expect(balance(state, "BTC")).toMatchObject({ available: BTC - 26_007_500n, held: 0n });
    expect(getBalance(state, TREASURY, "real", "contract", "BTC").available).toBe(26_007_500n);
  });

  it("calls margin at the margin LTV and liquidates at the liquidation LTV at the tick price", () => {
    const { state, c } = setup();
    const loan = borrow(state, c);
    expect(getLoanFigures(state, loan)).toMatchObject({
      marginCallPrice: "13333.333333333333333334",
      liquidationPrice: "11764.705882352941176471",
    });
    run(state, c.tick("BTC-USDT", "13500"));
    expect(getLoan(state, loan.loanId)!.marginCall).toBe(false);
    run(state, c.tick("BTC-USDT", "13000"));
    expect(getLoan(state, loan.loanId)!.marginCall).toBe(true);
    run(state, c.deposit("1", "BTC", BTC));
    run(state, c.loansAddCollateral("1", loan.loanId, BTC));
    run(state, c.tick("BTC-USDT", "13000"));
    expect(getLoan(state, loan.loanId)).toMatchObject({ marginCall: false, collateral: 2n * BTC });
    run(state, c.tick("BTC-USDT", "5500")); // 10,000 / 11,000 = 90.9 %
    expect(getLoan(state, loan.loanId)).toMatchObject({
      status: "liquidated",
      collateralSeized: 181_818_182n,
      shortfall: 0n,
    });
    expect(balance(state, "BTC")).toMatchObject({ available: 2n * BTC - 181_818_182n, held: 0n });
  });

  it("records a collateral shortfall when the tick prices the collateral below the debt", () => {
    const { state, c } = setup();
    const loan = borrow(state, c);
    run(state, c.tick("BTC-USDT", "5000"));
    expect(getLoan(state, loan.loanId)).toMatchObject({
      status: "liquidated",
      collateralSeized: BTC,
      shortfall: 5_000n * USDT,
      principalPaid: 5_000n * USDT,
    });
    expect(balance(state, "BTC")).toMatchObject({ available: 0n, held: 0n });
  });

  it("reserves the principal for an application until an operator decides", () => {
    const { state, c } = setup({ reviewRequired: true });
    const first = c.loansApply("1", "btc7", 10_000n * USDT, (BTC * 6n) / 10n);
    run(state, first);
    expect(getLoan(state, first.id)!.status).toBe("pending");
    expect(getLoanPool(state, "real", "USDT")).toEqual({
      available: 40_000n * USDT,
      reserved: 10_000n * USDT,
    });
    run(state, c.loansDecide(first.id, false, "documents unreadable"));
    expect(getLoan(state, first.id)).toMatchObject({
      status: "rejected",
      reason: "documents unreadable",
    });
    expect(balance(state, "BTC")).toMatchObject({ available: BTC, held: 0n });
    const second = c.loansApply("1", "btc7", 10_000n * USDT, BTC);
    run(state, second);
    // The price fell before approval: the kernel re-checks the LTV at the last tick.
    run(state, c.tick("BTC-USDT", "15000"));
    expect(code(state, c.loansDecide(second.id, true))).toBe("loans_ltv_too_high");
    run(state, c.tick("BTC-USDT", "30000"));
    run(state, c.loansDecide(second.id, true));
    expect(getLoan(state, second.id)).toMatchObject({
      status: "active",
      principal: 10_000n * USDT,
    });
    expect(code(state, c.loansDecide(second.id, false))).toBe("loan_not_pending");
    expect(balance(state, "USDT").available).toBe(10_000n * USDT);
  });

  it("closes demo loans on demo reset and never touches real money", () => {
    const { state, c } = setup();
    const command = c.loansApply("1", "btc7", 10_000n * USDT, BTC, "demo");
    run(state, command);
    expect(getLoanPool(state, "real", "USDT").available).toBe(50_000n * USDT);
    run(state, c.resetDemo("1"));
    expect(getLoan(state, command.id)!.status).toBe("reset");
    expect(code(state, c.loansRepay("1", command.id, USDT, "demo"))).toBe("loan_not_active");
    expect(code(state, c.loansRepay("2", command.id, USDT))).not.toBeNull();
  });

  it("replays identically after a snapshot restore in the middle of a loan", () => {
    const { state, c } = setup();
    const loan = borrow(state, c);
    at(state, c, loan, 2 * DAY_MS);
    const restored = restore(snapshot(state));
    expect(stateHash(restored)).toBe(stateHash(state));
    const rest = [
      c.tick("BTC-USDT", "12000"),
      ((c.nowMs = loan.startedAtMs! + 11 * DAY_MS), c.clock()),
      c.tick("BTC-USDT", "31000"),
    ];
    for (const command of rest) {
      run(state, command);
      run(restored, command);
    }
    expect(getLoan(restored, loan.loanId)!.status).toBe("liquidated");
    expect(stateHash(restored)).toBe(stateHash(state));
  });
});
