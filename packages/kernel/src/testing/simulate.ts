// A seeded simulator of random command streams over the whole kernel. After every command it
// checks the invariants; at a random point it takes a snapshot, and at the end it restores that
// snapshot, replays the rest and compares state hashes. A failure names its seed.

import type { OrderBookFactory } from "../book/types.ts";
import { decodeCommand, encodeCommand } from "../command-codec.ts";
import { checkInvariants } from "../invariants.ts";
import { apply } from "../apply.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState } from "../state.ts";
import type { Command } from "../types.ts";
import { CommandMaker } from "./commands.ts";
import { Random } from "./random.ts";
import {
  activityCommand,
  agentCommand,
  conditionalCommand,
  exchangeCommand,
  fiatWithdrawalCommand,
  loansCommand,
  randomCommand,
  savingsCommand,
  secondsCommand,
  stocksCommand,
  USERS,
} from "./simulate-commands.ts";

export { Random };

export interface SimulationOptions {
  seed: number;
  commands: number;
  bookFactory: OrderBookFactory;
  /** Check invariants after every command (default true). */
  checkEveryStep?: boolean;
  /**
   * Mix quick-exchange quotes and accepts into the stream and fund the house (default false).
   * Off, the stream is exactly the one the pinned simulation hashes of 2026-11-24 were made
   * from: no random number is drawn for it.
   */
  exchange?: boolean;
  /**
   * Mix seconds-contract purchases (and the time they need to expire) into the stream, with two
   * products on BTC-USDT and a funded house (default false; off, no random number is drawn).
   */
  seconds?: boolean;
  /**
   * Mix savings plans (funding, subscriptions, early redemptions and days passing) into the
   * stream (default false; off, no random number is drawn).
   */
  savings?: boolean;
  /**
   * Mix stock orders, quotes, sessions, take-profit/stop-loss and inventory funding into the
   * stream, on a US-style and an HK-style stock settled in USDT (default false; off, no random
   * number is drawn).
   */
  stocks?: boolean;
  /**
   * Mix loans (applications, repayments, collateral top-ups, days passing and BTC-USDT ticks
   * that can liquidate) into the stream, with a funded pool in both modes (default false; off,
   * no random number is drawn).
   */
  loans?: boolean;
  /**
   * Mix fiat-wallet withdrawals (`withdrawal_hold_wallet`, the bank-card route) with transfers
   * into the fiat wallet and completions/cancels into the stream (default false; off, no random
   * number is drawn).
   */
  fiatWithdrawals?: boolean;
  /**
   * Mix self-trade prevention modes, size amends, stop / take-profit orders and OCO pairs into
   * the stream (default false; off, no random number is drawn).
   */
  conditional?: boolean;
  /**
   * Link users as inviter and invitees in both modes and configure rebate shares for every
   * product, so that the fees of spot (and stock, with `stocks`) trades pay rebates; now and then
   * the shares change (default false; off, no random number is drawn).
   */
  referral?: boolean;
  /** VIP levels (fee discounts by 30-day volume or balance, daily withdrawal limits). */
  vip?: boolean;
  /** Deposit-bonus activities (promotion funding, reservations, lapses, bonuses). */
  activities?: boolean;
  /**
   * Agent levels (team volume, day-end recounts with clock jumps of hours, agent rebates next to
   * the invitation rebates; use with `referral`).
   */
  agents?: boolean;
}

export interface SimulationReport {
  seed: number;
  commands: number;
  accepted: number;
  fills: number;
  /** Quick exchanges executed (exchange_executed events). */
  exchanges: number;
  /** Seconds contracts bought and settled (seconds_purchased / seconds_settled events). */
  secondsPurchased: number;
  secondsSettled: number;
  /** Savings subscriptions made and ended (savings_subscribed / savings_subscription_ended). */
  savingsSubscribed: number;
  savingsEnded: number;
  /** Stock orders filled (stock_order_filled events). */
  stockFills: number;
  /** Loans lent and closed (loan_changed events "approved" and "repaid"/"liquidated"). */
  loansLent: number;
  loansClosed: number;
  /** Conditional orders that fired (conditional_triggered events). */
  conditionalsFired: number;
  /** VIP levels set or removed (vip_configured events). */
  vipConfigured: number;
  /** Activity reservations that changed state (activity_reservation events). */
  activityReservations: number;
  /** Rebates paid (referral_rebate events). */
  rebates: number;
  /** Agent rebates paid (agent_fee events with a rebate) and agent level changes. */
  agentRebates: number;
  agentLevelChanges: number;
  rejections: Record<string, number>;
  hash: string;
}

/** Fails with the seed in the message so anyone can replay it. */
export class SimulationFailure extends Error {
  constructor(
    readonly seed: number,
    readonly step: number,
    cause: unknown,
  ) {
    super(
      `simulation seed ${seed} failed at command ${step}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = "SimulationFailure";
  }
}

/** Runs one seeded simulation; throws {@link SimulationFailure} on any broken invariant. */
export function simulate(options: SimulationOptions): SimulationReport {
  const { seed, bookFactory } = options;
  const random = new Random(seed);
  const c = new CommandMaker(1_000);
  const state = createKernelState(
    {
      openOrdersPerOwnerMax: 12,
      levelsPerSideMax: 40,
      ordersPerBookMax: 150,
      statementPostingsMax: 20,
    },
    bookFactory,
  );
  const history: Command[] = [];
  const report: SimulationReport = {
    seed,
    commands: 0,
    accepted: 0,
    fills: 0,
    exchanges: 0,
    secondsPurchased: 0,
    secondsSettled: 0,
    savingsSubscribed: 0,
    savingsEnded: 0,
    stockFills: 0,
    loansLent: 0,
    loansClosed: 0,
    conditionalsFired: 0,
    rebates: 0,
    agentRebates: 0,
    agentLevelChanges: 0,
    vipConfigured: 0,
    activityReservations: 0,
    rejections: {},
    hash: "",
  };
  const snapshotAt = random.int(0, options.commands);
  let snapshotBytes: Uint8Array | null = null;
  let snapshotIndex = 0;
  const withdrawals: string[] = [];
  const openOrders = new Map<string, number[]>(); // `mode|owner` → order ids seen resting
  let step = 0;

  const send = (command: Command, check: boolean): void => {
    const out = apply(state, command);
    history.push(command);
    report.commands++;
    if (out.result.ok) {
      if (!out.duplicate) report.accepted++;
      for (const event of out.events) {
        if (event.type === "fill") report.fills++;
        if (event.type === "exchange_executed") report.exchanges++;
        if (event.type === "seconds_purchased") report.secondsPurchased++;
        if (event.type === "seconds_settled") report.secondsSettled++;
        if (event.type === "savings_subscribed") report.savingsSubscribed++;
        if (event.type === "savings_subscription_ended") report.savingsEnded++;
        if (event.type === "stock_order_filled") report.stockFills++;
        if (event.type === "conditional_triggered") report.conditionalsFired++;
        if (event.type === "referral_rebate") report.rebates++;
        if (event.type === "agent_fee" && event.rebate > 0n) report.agentRebates++;
        if (event.type === "agent_level_changed") report.agentLevelChanges++;
        if (event.type === "vip_configured") report.vipConfigured++;
        if (event.type === "activity_reservation") report.activityReservations++;
        if (event.type === "loan_changed" && event.change === "approved") report.loansLent++;
        if (
          event.type === "loan_changed" &&
          (event.change === "repaid" || event.change === "liquidated") &&
          event.loan.status !== "active"
        ) {
          report.loansClosed++;
        }
        // A triggered order may rest and leave again within one tick.
        if (event.type === "order_rested" && state.spot.orders.has(event.orderId)) {
          const order = state.spot.orders.get(event.orderId)!;
          const key = order.owner.mode + "|" + order.owner.ownerId;
          let list = openOrders.get(key);
          if (list === undefined) openOrders.set(key, (list = []));
          if (!list.includes(event.orderId)) list.push(event.orderId);
        }
      }
    } else {
      report.rejections[out.result.code] = (report.rejections[out.result.code] ?? 0) + 1;
    }
    if (check) checkInvariants(state);
  };

  try {
    const setup: Command[] = [
      c.asset("USDT", 6),
      c.asset("BTC", 8),
      c.asset("ETH", 8, 10n ** 12n),
      c.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: 5, feeBpsTaker: 15 }),
      c.market("ETH-BTC", "ETH", "BTC", {
        priceStep: "0.000001",
        lotSize: "0.01",
        feeBpsMaker: 0,
        feeBpsTaker: 30,
        levelsPerSideMax: 8,
        priceBandBps: 300,
      }),
      c.session("BTC-USDT", true),
      c.session("ETH-BTC", true),
    ];
    const maker = "system:market_maker";
    setup.push(c.deposit(maker, "USDT", 10_000_000_000n), c.deposit(maker, "BTC", 1_000_000_000n));
    setup.push(c.deposit(maker, "ETH", 100_000_000_000n), c.grant(maker, "BTC", 1_000_000_000n));
    for (const user of USERS) {
      setup.push(c.open(user, "real"), c.open(user, "demo"));
      setup.push(c.deposit(user, "USDT", BigInt(random.int(1, 5_000)) * 1_000_000n));
      setup.push(c.deposit(user, "BTC", BigInt(random.int(0, 300)) * 1_000_000n));
      setup.push(c.deposit(user, "ETH", BigInt(random.int(0, 3_000)) * 1_000_000n));
      setup.push(c.grant(user, "BTC", 100_000_000n), c.grant(user, "ETH", 1_000_000_000n));
    }
    if (options.exchange === true) {
      const house = "system:house";
      setup.push(c.deposit(house, "USDT", 50_000_000_000n), c.deposit(house, "BTC", 500_000_000n));
      setup.push(c.deposit(house, "ETH", 5_000_000_000n), c.grant(house, "BTC", 500_000_000n));
      setup.push(c.grant(house, "USDT", 50_000_000_000n), c.grant(house, "ETH", 5_000_000_000n));
    }
    if (options.seconds === true) {
      const house = "system:house";
      setup.push(c.deposit(house, "USDT", 2_000_000_000n), c.grant(house, "USDT", 2_000_000_000n));
      for (const periodMs of [5_000, 10_000]) {
        setup.push(
          c.secondsConfigure("BTC-USDT", periodMs, {
            payoutBps: 8_000,
            stakeMax: 200_000_000n,
            exposureMax: 1_000_000_000n,
            graceMs: 2_000,
            tickAgeMaxMs: 5_000,
          }),
        );
      }
    }
    if (options.savings === true) {
      setup.push(
        c.savingsPlan("s1", { cycleDays: 1, dailyRateE8: 1_000_000, amountMin: 1_000_000n }),
        c.savingsPlan("s2", { cycleDays: 3, earlyPenaltyBps: 100, amountMin: 1_000_000n }),
        c.savingsPlan("m1", { kind: "mining", cycleDays: 2, earlyRedemption: "none" }),
        c.savingsFund("USDT", 50_000_000n),
        c.savingsFund("USDT", 50_000_000n, "demo"),
      );
    }
    if (options.stocks === true) {
      const house = "system:house";
      setup.push(c.deposit(house, "USDT", 5_000_000_000n), c.grant(house, "USDT", 5_000_000_000n));
      setup.push(c.stockConfigure("STK-US", "USDT", { commissionMin: 10_000n }));
      setup.push(
        c.stockConfigure("STK-HK", "USDT", {
          priceScale: 3,
          lotSize: 100n,
          spreadBps: 20,
          stampDutyBps: 10,
          stampDutyRoundUnits: 1_000_000n,
        }),
      );
      for (const [id, shares] of [
        ["STK-US", 500n],
        ["STK-HK", 5_000n],
      ] as const) {
        setup.push(c.stockFund(id, shares), c.stockFund(id, shares, "demo"));
        setup.push(c.stockSession(id, true), c.tick(id, "10"));
      }
    }
    if (options.loans === true) {
      setup.push(c.deposit("system:treasury", "USDT", 100_000_000_000n));
      setup.push(c.loansConfigure("sim", { tickAgeMaxMs: 600_000, termDays: 3 }));
      setup.push(
        c.loansFund("USDT", 100_000_000_000n),
        c.loansFund("USDT", 1_000_000_000n, "demo"),
      );
    }
    if (options.referral === true) {
      for (const mode of ["real", "demo"] as const) {
        for (const [inviter, invitee] of [
          ["1", "2"],
          ["1", "3"],
          ["2", "4"],
          ["9", "5"],
        ]) {
          setup.push(c.referralLink(inviter!, invitee!, mode));
        }
        setup.push(c.referralConfigure("spot", 2_000, mode));
        setup.push(c.referralConfigure("stocks", 5_000, mode));
        setup.push(c.referralConfigure("perp", 1_000, mode));
      }
    }
    if (options.vip === true) {
      for (const mode of ["real", "demo"] as const) {
        setup.push(c.vipConfigure(0, { withdrawDailyLimit: 5_000_000_000n }, mode));
        setup.push(c.vipConfigure(1, { minVolume: 1_000_000_000n, feeDiscountBps: 2_000 }, mode));
        setup.push(c.vipConfigure(2, { minBalance: 10_000_000_000n, feeDiscountBps: 5_000 }, mode));
      }
    }
    if (options.agents === true) {
      for (const mode of ["real", "demo"] as const) {
        setup.push(c.agentConfigure(1, { upgradeMembers: 1, upgradeVolume: 1_000_000n, keepMembers: 1, spotBps: 3_000, perpBps: 2_000, stocksBps: 5_000 }, mode)); // prettier-ignore
        setup.push(c.agentConfigure(2, { upgradeMembers: 2, upgradeVolume: 100_000_000n, keepMembers: 1, keepVolume: 10_000_000n, spotBps: 8_000, perpBps: 9_000, stocksBps: 10_000 }, mode)); // prettier-ignore
      }
    }
    if (options.activities === true) {
      for (const mode of ["real", "demo"] as const) {
        setup.push(c.activityDefine("sim-" + mode, { capacity: 50 }, mode));
        setup.push(c.activityFund(200_000_000n, mode));
      }
    }
    for (const command of setup) send(command, false);
    checkInvariants(state);
    const savingsIds: string[] = [];
    const loanIds: string[] = [];
    const quoteIds: string[] = [];

    for (step = 0; step < options.commands; step++) {
      if (step === snapshotAt) {
        snapshotBytes = snapshot(state);
        snapshotIndex = history.length;
      }
      const command =
        options.exchange === true && random.chance(0.1)
          ? exchangeCommand(random, c, quoteIds)
          : options.seconds === true && random.chance(0.1)
            ? secondsCommand(random, c)
            : options.savings === true && random.chance(0.1)
              ? savingsCommand(random, c, savingsIds)
              : options.stocks === true && random.chance(0.15)
                ? stocksCommand(random, c, state)
                : options.loans === true && random.chance(0.1)
                  ? loansCommand(random, c, loanIds)
                  : options.fiatWithdrawals === true && random.chance(0.1)
                    ? fiatWithdrawalCommand(random, c, withdrawals, history.length)
                    : options.conditional === true && random.chance(0.2)
                      ? conditionalCommand(random, c, state)
                      : options.referral === true && random.chance(0.02)
                        ? c.referralConfigure(
                            random.pick(["spot", "stocks"]),
                            random.pick([0, 500, 2_000, 10_000]),
                            random.pick(["real", "demo"] as const),
                          )
                        : options.agents === true && random.chance(0.03)
                          ? agentCommand(random, c)
                          : options.activities === true && random.chance(0.05)
                            ? activityCommand(random, c)
                            : options.vip === true && random.chance(0.02)
                              ? c.vipConfigure(
                                  random.pick([1, 2, 3]),
                                  {
                                    minVolume: random.pick([0n, 100_000_000n, 5_000_000_000n]),
                                    minBalance: random.pick([0n, 1n, 50_000_000_000n]),
                                    feeDiscountBps: random.pick([0, 1_000, 10_000]),
                                    withdrawDailyLimit: random.pick([0n, 1_000_000n]),
                                    remove: random.chance(0.2),
                                  },
                                  random.pick(["real", "demo"] as const),
                                )
                              : randomCommand(random, c, state, history, openOrders, withdrawals);
      send(command, options.checkEveryStep !== false);
    }
    if (snapshotBytes === null) {
      snapshotBytes = snapshot(state);
      snapshotIndex = history.length;
    }
    report.hash = stateHash(state);
    const copy = restore(snapshotBytes, bookFactory);
    for (let i = snapshotIndex; i < history.length; i++) {
      // Replays go through the journal encoding, as they would after a restart.
      apply(copy, decodeCommand(encodeCommand(history[i]!)));
    }
    checkInvariants(copy);
    const replayed = stateHash(copy);
    if (replayed !== report.hash) {
      throw new Error(`restore at ${snapshotAt} + replay gives ${replayed}, live ${report.hash}`);
    }
  } catch (error) {
    if (error instanceof SimulationFailure) throw error;
    throw new SimulationFailure(seed, step, error);
  }
  return report;
}
