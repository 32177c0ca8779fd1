// A seeded simulator of random command streams over the whole kernel. After every command it
// checks the invariants; at a random point it takes a snapshot, and at the end it restores that
// snapshot, replays the rest and compares state hashes. A failure names its seed.

import type { OrderBookFactory } from "../book/types.ts";
import { decodeCommand, encodeCommand } from "../command-codec.ts";
import { checkInvariants } from "../invariants.ts";
import { apply } from "../apply.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import type { Side, TimeInForce } from "../spot/types.ts";
import { createKernelState, type KernelState } from "../state.ts";
import type { Command, Mode } from "../types.ts";
import { CommandMaker } from "./commands.ts";

/** Small, fast, seedable PRNG (mulberry32). */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

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

const USERS = ["1", "2", "3", "4", "5", "6"];
const MARKETS = [
  { marketId: "BTC-USDT", base: "BTC", quote: "USDT", center: 10_000 },
  { marketId: "ETH-BTC", base: "ETH", quote: "BTC", center: 500 },
];

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

/** A quick-exchange quote (remembered) or an accept of a recent one, now and then someone else's. */
/** A transfer into the fiat wallet, a hold on it, or the completion or cancel of a withdrawal. */
function fiatWithdrawalCommand(
  random: Random,
  c: CommandMaker,
  withdrawals: string[],
  index: number,
): Command {
  const owner = random.pick(USERS);
  const roll = random.next();
  if (roll < 0.3) {
    return c.transferWallet(owner, "USDT", BigInt(random.int(1, 50_000_000)), "fund", "fiat");
  }
  if (roll < 0.7) {
    const id = `fw${index}`;
    withdrawals.push(id);
    const wallet = random.pick(["fiat", "fiat", "fund", "contract"] as const);
    const mode: Mode = random.chance(0.1) ? "demo" : "real";
    const amount = BigInt(random.int(0, 40_000_000));
    const fee = BigInt(random.int(-1, 1_000_000));
    return c.withdrawHoldWallet(owner, wallet, "USDT", amount, fee, id, mode);
  }
  const id = withdrawals.length > 0 ? random.pick(withdrawals) : "none";
  return random.chance(0.5) ? c.withdrawComplete(id) : c.withdrawCancel(id);
}

function exchangeCommand(random: Random, c: CommandMaker, quoteIds: string[]): Command {
  const mode: Mode = random.chance(0.25) ? "demo" : "real";
  const owner = random.pick(USERS);
  if (quoteIds.length === 0 || random.chance(0.5)) {
    const [source, target] = random.pick([
      ["USDT", "BTC"],
      ["BTC", "USDT"],
      ["BTC", "ETH"],
      ["ETH", "BTC"],
      ["ETH", "USDT"],
    ] as const);
    const amount = BigInt(random.int(0, 5_000)) * 10n ** BigInt(random.int(2, 6));
    const command = c.exchangeQuote(owner, source, amount, target, mode, {
      spreadBps: random.int(0, 200),
    });
    quoteIds.push(`${mode}|${owner}|${command.id}`);
    if (quoteIds.length > 50) quoteIds.shift();
    return command;
  }
  const [quoteMode, quoteOwner, quoteId] = random.pick(quoteIds).split("|") as [
    Mode,
    string,
    string,
  ];
  return random.chance(0.9)
    ? c.exchangeAccept(quoteOwner, quoteId, quoteMode)
    : c.exchangeAccept(owner, quoteId, mode);
}

/** A savings subscription, funding, early redemption, or hours passing so that days are paid. */
function savingsCommand(random: Random, c: CommandMaker, ids: string[]): Command {
  const mode: Mode = random.chance(0.3) ? "demo" : "real";
  const owner = random.pick(USERS);
  const roll = random.int(0, 9);
  if (roll < 2) {
    c.nowMs += random.int(1, 20) * 3_600_000;
    return c.clock();
  }
  if (roll < 3) return c.savingsFund("USDT", BigInt(random.int(0, 20)) * 1_000_000n, mode);
  if (roll < 4 && ids.length > 0) {
    const [idMode, idOwner, id] = random.pick(ids).split("|") as [Mode, string, string];
    return random.chance(0.8)
      ? c.savingsRedeem(idOwner, id, idMode)
      : c.savingsRedeem(owner, id, mode);
  }
  const command = c.savingsSubscribe(
    owner,
    random.pick(["s1", "s2", "m1", "nope"]),
    BigInt(random.int(0, 200)) * 1_000_000n,
    mode,
  );
  ids.push(`${mode}|${owner}|${command.id}`);
  if (ids.length > 50) ids.shift();
  return command;
}

/** A seconds purchase, or time moving on so that contracts reach expiry and grace. */
function secondsCommand(random: Random, c: CommandMaker): Command {
  if (random.chance(0.5)) {
    c.nowMs += random.int(0, 3_000);
    return random.chance(0.5) ? c.clock() : c.tick("BTC-USDT", `${random.int(9_995, 10_005)}.00`);
  }
  const mode: Mode = random.chance(0.3) ? "demo" : "real";
  return c.secondsPurchase(
    random.pick(USERS),
    "BTC-USDT",
    random.pick([5_000, 10_000, 7_000]),
    random.pick(["up", "down", "up", "down", "sideways"]),
    BigInt(random.int(0, 300)) * 1_000_000n,
    mode,
  );
}

/** A stock order, cancel, quote, session change, take-profit/stop-loss or inventory funding. */
function stocksCommand(random: Random, c: CommandMaker, state: KernelState): Command {
  const mode: Mode = random.chance(0.3) ? "demo" : "real";
  const owner = random.pick(USERS);
  const [id, lot] = random.pick([
    ["STK-US", 1n],
    ["STK-HK", 100n],
  ] as const);
  const price = () => `${random.int(9, 11)}.${random.int(0, 99)}`;
  const roll = random.next();
  if (roll < 0.3) return c.tick(id, price());
  if (roll < 0.36) return c.stockSession(id, random.chance(0.7));
  if (roll < 0.42) return c.stockFund(id, BigInt(random.int(-3, 10)) * lot, mode);
  if (roll < 0.5 && state.stocks.pending.size > 0) {
    const order = random.pick([...state.stocks.pending.values()]);
    return random.chance(0.9)
      ? c.stockCancel(order.ownerId, order.orderId, order.mode)
      : c.stockCancel(owner, order.orderId, mode);
  }
  if (roll < 0.58) {
    return c.stockTpSl(owner, id, random.chance(0.7) ? price() : null, random.chance(0.7) ? "9.5" : null, mode); // prettier-ignore
  }
  const limit = random.chance(0.5);
  return c.stockOrder(
    owner,
    id,
    random.chance(0.55) ? "buy" : "sell",
    BigInt(random.int(0, 20)) * (random.chance(0.95) ? lot : 1n),
    {
      // prettier-ignore
      mode,
      kind: limit ? "limit" : "market",
      limitPrice: limit ? price() : null,
      tif: limit && random.chance(0.5) ? "gtc" : "day",
      queueForOpen: random.chance(0.3),
    },
  );
}

/**
 * An order with a self-trade prevention mode, a size amend, a stop / take-profit order, an OCO
 * pair, a cancel of a pending one, or a violent tick that fires them.
 */
function conditionalCommand(random: Random, c: CommandMaker, state: KernelState): Command {
  const mode: Mode = random.chance(0.25) ? "demo" : "real";
  const owner = random.chance(0.1) ? "system:market_maker" : random.pick(USERS);
  const market = random.pick(MARKETS);
  const side: Side = random.chance(0.5) ? "buy" : "sell";
  const price = () => market.center + random.int(-60, 60);
  const lots = () => random.int(1, 30);
  const stp = random.pick(["cancel_resting", "cancel_incoming", "cancel_both"]);
  const roll = random.next();
  if (roll < 0.25) {
    const tif: TimeInForce = random.pick(["gtc", "gtc", "ioc", "fok"]);
    return c.limitStp(owner, market.marketId, side, price(), lots(), stp, tif, mode);
  }
  if (roll < 0.4) {
    const own = [...state.spot.orders.values()].filter(
      (o) => o.owner.ownerId === owner && o.owner.mode === mode,
    );
    const orderId = own.length > 0 ? random.pick(own).orderId : random.int(1, 50);
    return c.amend(owner, orderId, lots(), mode);
  }
  if (roll < 0.45) {
    const pending = [...state.spot.conditionals.values()];
    if (pending.length > 0) {
      const order = random.pick(pending);
      return c.cancel(order.owner.ownerId, order.orderId, order.owner.mode);
    }
  }
  if (roll < 0.7) {
    const market_ = random.chance(0.4);
    return c.conditional(owner, market.marketId, side, price(), {
      mode,
      kind: random.chance(0.5) ? "stop" : "take_profit",
      selfTradeMode: stp,
      ...(market_
        ? side === "buy"
          ? {
              orderType: "market",
              timeInForce: "ioc",
              quoteAmount: BigInt(random.int(1, 5_000_000)),
            }
          : { orderType: "market", timeInForce: "ioc", quantityLots: lots() }
        : { priceTicks: price(), quantityLots: lots(), timeInForce: "gtc" }),
    });
  }
  if (roll < 0.85) {
    const trigger = price();
    return c.oco(
      owner,
      market.marketId,
      side,
      lots(),
      price(),
      trigger,
      side === "buy" || random.chance(0.5) ? trigger + random.int(0, 10) : null,
      mode,
    );
  }
  // Violent ticks: far from the centre, so stops on both sides fire.
  const ticks = market.center + random.int(-90, 90);
  const stepTicks = market.marketId === "BTC-USDT" ? 100 : 1_000_000;
  const whole = Math.floor(ticks / stepTicks);
  const fraction = String(ticks % stepTicks).padStart(String(stepTicks).length - 1, "0");
  return c.tick(market.marketId, `${whole}.${fraction}`);
}

/** A loan application, repayment or top-up, or days and ticks passing. */
function loansCommand(random: Random, c: CommandMaker, loanIds: string[]): Command {
  const mode: Mode = random.chance(0.3) ? "demo" : "real";
  const roll = random.next();
  if (roll < 0.3) {
    c.nowMs += random.int(1, 30) * 3_600_000;
    return random.chance(0.5) ? c.clock() : c.tick("BTC-USDT", `${random.int(5_000, 12_000)}.00`);
  }
  if (roll < 0.55 || loanIds.length === 0) {
    const command = c.loansApply(
      random.pick(USERS),
      "sim",
      BigInt(random.int(5, 400)) * 1_000_000n,
      BigInt(random.int(0, 10_000_000)),
      mode,
    );
    loanIds.push(command.id);
    return command;
  }
  const loanId = random.pick(loanIds);
  return random.chance(0.7)
    ? c.loansRepay(random.pick(USERS), loanId, BigInt(random.int(1, 500)) * 1_000_000n, mode)
    : c.loansAddCollateral(random.pick(USERS), loanId, BigInt(random.int(1, 1_000_000)), mode);
}

function randomCommand(
  random: Random,
  c: CommandMaker,
  state: KernelState,
  history: Command[],
  openOrders: Map<string, number[]>,
  withdrawals: string[],
): Command {
  // Time moves on by 0–3 ms a command, now and then by minutes.
  c.nowMs += random.chance(0.002) ? random.int(60_000, 400_000) : random.int(0, 3);
  const roll = random.next();
  const mode: Mode = random.chance(0.25) ? "demo" : "real";
  const owner = random.chance(0.1) ? "system:market_maker" : random.pick(USERS);
  const market = random.pick(MARKETS);
  const side: Side = random.chance(0.5) ? "buy" : "sell";
  const price = () => market.center + random.int(-25, 25);
  const lots = () => (random.chance(0.05) ? random.int(0, 2_000) : random.int(1, 40));
  const ownOrder = (): number => {
    const list = openOrders.get(mode + "|" + owner);
    if (list === undefined || list.length === 0 || random.chance(0.05)) {
      return random.int(1, state.spot.orderIdNext + 2);
    }
    const index = random.int(0, list.length - 1);
    const orderId = list[index]!;
    if (!state.spot.orders.has(orderId)) list.splice(index, 1);
    return orderId;
  };
  if (roll < 0.3) {
    const tif: TimeInForce = random.pick(["gtc", "gtc", "gtc", "ioc", "fok", "post_only"]);
    return c.limit(owner, market.marketId, side, price(), lots(), tif, mode);
  }
  if (roll < 0.45) return c.replace(owner, ownOrder(), price(), lots(), mode);
  if (roll < 0.55) return c.cancel(owner, ownOrder(), mode);
  if (roll < 0.6) {
    if (side === "buy" && random.chance(0.5)) {
      const quote = BigInt(random.int(1, 5_000_000));
      return c.order(owner, market.marketId, "buy", "market", "ioc", null, null, quote, mode);
    }
    return c.order(owner, market.marketId, side, "market", "ioc", null, lots(), null, mode);
  }
  if (roll < 0.66) {
    const ticks = market.center + random.int(-30, 30);
    const step = market.marketId === "BTC-USDT" ? 100 : 1_000_000;
    const whole = Math.floor(ticks / step);
    const fraction = String(ticks % step).padStart(String(step).length - 1, "0");
    return c.tick(market.marketId, `${whole}.${fraction}`);
  }
  if (roll < 0.68) return c.cancelAll(owner, random.chance(0.5) ? market.marketId : null, mode);
  if (roll < 0.7) return c.clock(random.int(0, 1_000));
  if (roll < 0.73) {
    const user = random.pick(USERS);
    return c.deposit(user, random.pick(["USDT", "BTC", "ETH"]), BigInt(random.int(-5, 50_000_000)));
  }
  if (roll < 0.76) {
    const id = `w${history.length}`;
    withdrawals.push(id);
    const amount = BigInt(random.int(0, 80_000_000));
    return c.withdrawHold(random.pick(USERS), random.pick(["USDT", "BTC"]), amount, id);
  }
  if (roll < 0.79) {
    const id = withdrawals.length > 0 ? random.pick(withdrawals) : "none";
    return random.chance(0.5) ? c.withdrawComplete(id) : c.withdrawCancel(id);
  }
  if (roll < 0.82) {
    const wallets = ["fund", "contract", "fiat"] as const;
    return c.transferWallet(
      random.pick(USERS),
      random.pick(["USDT", "BTC"]),
      BigInt(random.int(0, 20_000_000)),
      random.pick(wallets),
      random.pick(wallets),
      mode,
    );
  }
  if (roll < 0.85) {
    return c.transferUser(
      random.pick(USERS),
      random.pick([...USERS, "99"]),
      "USDT",
      BigInt(random.int(1, 30_000_000)),
    );
  }
  if (roll < 0.87) {
    return random.chance(0.3)
      ? c.resetDemo(random.pick(USERS))
      : c.grant(random.pick([...USERS, "system:market_maker"]), "USDT", 50_000_000n);
  }
  if (roll < 0.88) return c.session(market.marketId, random.chance(0.7));
  if (roll < 0.95 && history.length > 0) {
    // Resend an earlier command: a duplicate (or, if time moved on, maybe pruned).
    const earlier = history[random.int(Math.max(0, history.length - 200), history.length - 1)]!;
    const roll2 = random.next();
    if (roll2 < 0.6) return earlier;
    // A retry stamped with the current time (the engine stamps time): still a duplicate.
    if (roll2 < 0.8 || earlier.type !== "place_order") {
      return { ...earlier, atMs: c.nowMs } as Command;
    }
    // The same id with other content: command_id_reused.
    return { ...earlier, atMs: c.nowMs, quantityLots: (earlier.quantityLots ?? 0) + 1 };
  }
  return c.limit(owner, market.marketId, side, price(), lots(), "gtc", mode);
}

/** A random deposit-bonus activity command: a reservation, a qualifying deposit, or time. */
function activityCommand(random: Random, c: CommandMaker): Command {
  const mode = random.pick(["real", "demo"] as const);
  const owner = String(random.int(1, 6));
  const roll = random.int(0, 9);
  if (roll < 4) {
    return c.activityReserve("sim-" + mode, owner, `res-${random.int(0, 1_000_000)}`, mode);
  }
  if (roll < 7) {
    const amount = BigInt(random.int(50, 150)) * 1_000_000n;
    return mode === "real" ? c.deposit(owner, "USDT", amount) : c.grant(owner, "USDT", amount);
  }
  if (roll < 8) return c.activityFund(50_000_000n, mode);
  return c.clock(random.int(1, 3) * 86_400_000);
}

/** Agents: a clock jump of hours (day-end recounts) or a level changed or removed. */
function agentCommand(random: Random, c: CommandMaker): Command {
  if (random.chance(0.6)) return c.clock(random.int(1, 30) * 3_600_000);
  return c.agentConfigure(
    random.pick([1, 2, 3]),
    {
      upgradeMembers: random.pick([0, 1, 2]),
      upgradeVolume: random.pick([1n, 1_000_000n, 500_000_000n]),
      keepMembers: random.pick([0, 1]),
      keepVolume: random.pick([0n, 10_000_000n]),
      spotBps: random.pick([0, 5_000, 10_000]),
      perpBps: random.pick([0, 10_000]),
      stocksBps: random.pick([0, 7_000, 10_000]),
      remove: random.chance(0.2),
    },
    random.pick(["real", "demo"] as const),
  );
}
