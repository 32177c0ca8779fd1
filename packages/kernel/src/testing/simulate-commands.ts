// The simulator's random commands, one generator per product.

import type { Side, TimeInForce } from "../spot/types.ts";
import type { KernelState } from "../state.ts";
import type { Command, Mode } from "../types.ts";
import type { CommandMaker } from "./commands.ts";
import type { Random } from "./random.ts";

export const USERS = ["1", "2", "3", "4", "5", "6"];
export const MARKETS = [
  { marketId: "BTC-USDT", base: "BTC", quote: "USDT", center: 10_000 },
  { marketId: "ETH-BTC", base: "ETH", quote: "BTC", center: 500 },
];

/** A transfer into the fiat wallet, a hold on it, or the completion or cancel of a withdrawal. */
export function fiatWithdrawalCommand(
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

/** A quick-exchange quote (remembered) or an accept of a recent one, now and then someone else's. */
export function exchangeCommand(random: Random, c: CommandMaker, quoteIds: string[]): Command {
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
export function savingsCommand(random: Random, c: CommandMaker, ids: string[]): Command {
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
export function secondsCommand(random: Random, c: CommandMaker): Command {
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
export function stocksCommand(random: Random, c: CommandMaker, state: KernelState): Command {
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
export function conditionalCommand(random: Random, c: CommandMaker, state: KernelState): Command {
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
export function loansCommand(random: Random, c: CommandMaker, loanIds: string[]): Command {
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

export function randomCommand(
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
export function activityCommand(random: Random, c: CommandMaker): Command {
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
export function agentCommand(random: Random, c: CommandMaker): Command {
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
