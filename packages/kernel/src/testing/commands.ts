// Command builders for tests, the simulator and the benchmark: every field present, sensible
// defaults, ids and times supplied by a small counter so tables stay short. The exchange core is
// in `commands-core.ts`; this file adds the products (seconds contracts, savings, stocks, loans
// and the programmes around them).

import type { SavingsDefinePlanCommand } from "../savings/types.ts";
import type { SecondsConfigureCommand } from "../seconds/types.ts";
import type { StockConfigureCommand, StockPlaceOrderCommand } from "../stocks/types.ts";
import type { LoansConfigureCommand } from "../loans/types.ts";
import type { Command, Mode } from "../types.ts";
import { CoreCommandMaker } from "./commands-core.ts";

/** Hands out command ids `c1, c2, …` and times 1000, 1001, … unless given. */
export class CommandMaker extends CoreCommandMaker {
  /** A seconds product: 85 % payout, stakes 1–1,000 units of a 6-decimal asset, 5 s grace. */
  secondsConfigure(
    instrumentId: string,
    periodMs: number,
    terms: Partial<Omit<SecondsConfigureCommand, "type" | "id" | "atMs">> = {},
  ): Command {
    return {
      type: "seconds_configure",
      ...this.next(),
      instrumentId,
      periodMs,
      assetId: "USDT",
      payoutBps: 8_500,
      stakeMin: 1_000_000n,
      stakeMax: 1_000_000_000n,
      exposureMax: 10_000_000_000n,
      graceMs: 5_000,
      tickAgeMaxMs: 10_000,
      open: true,
      operatorId: "op1",
      ...terms,
    };
  }

  /** A seconds purchase; the contract id is the command id. */
  secondsPurchase(
    ownerId: string,
    instrumentId: string,
    periodMs: number,
    direction: string,
    stake: bigint,
    mode: Mode = "real",
  ): Command {
    return {
      type: "seconds_purchase",
      ...this.next(),
      ownerId,
      mode,
      instrumentId,
      periodMs,
      direction,
      stake,
    };
  }

  /** A savings plan: 30 days at 0.05 % a day, 10–10,000 units of a 6-decimal asset. */
  savingsPlan(
    planId: string,
    terms: Partial<Omit<SavingsDefinePlanCommand, "type" | "id" | "atMs">> = {},
  ): Command {
    return {
      type: "savings_define_plan",
      ...this.next(),
      planId,
      kind: "savings",
      name: "Plan " + planId,
      details: "",
      assetId: "USDT",
      cycleDays: 30,
      dailyRateE8: 50_000,
      startDelayMs: 0,
      amountMin: 10_000_000n,
      amountMax: 10_000_000_000n,
      amountStep: 1_000_000n,
      capacity: 100_000_000_000n,
      earlyRedemption: "forfeit_unpaid",
      earlyPenaltyBps: 0,
      open: true,
      operatorId: "op1",
      ...terms,
    };
  }

  /** The operator funds the savings yield account (real: from outside, with a reference). */
  savingsFund(assetId: string, amount: bigint, mode: Mode = "real"): Command {
    const base = this.next();
    return {
      type: "savings_fund_yield",
      ...base,
      mode,
      assetId,
      amount,
      reference: mode === "real" ? `fund-${base.id}` : null,
      operatorId: "op1",
    };
  }

  /** A subscription; the subscription id is the command id. */
  savingsSubscribe(ownerId: string, planId: string, amount: bigint, mode: Mode = "real"): Command {
    return { type: "savings_subscribe", ...this.next(), ownerId, mode, planId, amount };
  }

  savingsRedeem(ownerId: string, subscriptionId: string, mode: Mode = "real"): Command {
    return { type: "savings_redeem_early", ...this.next(), ownerId, mode, subscriptionId };
  }

  /** A tick observed at `tickAtMs` (default: the command time). */
  tickAt(instrumentId: string, price: string, tickAtMs?: number): Command {
    const base = this.next();
    return {
      type: "record_tick",
      ...base,
      tickId: `t${base.id}`,
      instrumentId,
      price,
      tickAtMs: tickAtMs ?? base.atMs,
    };
  }

  /** Stock terms: a US-style stock by default (lot 1, 2 decimals, 10 bps spread, no duty). */
  stockConfigure(
    instrumentId: string,
    assetId: string,
    overrides: Partial<StockConfigureCommand> = {},
  ): Command {
    return {
      type: "stock_configure",
      ...this.next(),
      instrumentId,
      assetId,
      priceScale: 2,
      lotSize: 1n,
      quantityLotsMax: 100_000,
      spreadBps: 10,
      commissionBps: 5,
      commissionMin: 100n,
      stampDutyBps: 0,
      stampDutyRoundUnits: 1n,
      tickAgeMaxMs: 60_000,
      open: true,
      operatorId: null,
      ...overrides,
    };
  }

  stockSession(instrumentId: string, open: boolean, sessionId: string | null = null): Command {
    return { type: "stock_session", ...this.next(), instrumentId, open, sessionId };
  }

  stockOrder(
    ownerId: string,
    instrumentId: string,
    side: "buy" | "sell",
    quantity: bigint,
    overrides: Partial<StockPlaceOrderCommand> = {},
  ): Command {
    return {
      type: "stock_place_order",
      ...this.next(),
      ownerId,
      mode: "real",
      instrumentId,
      side,
      kind: "market",
      quantity,
      limitPrice: null,
      tif: "day",
      queueForOpen: false,
      ...overrides,
    };
  }

  stockCancel(ownerId: string, orderId: number, mode: Mode = "real"): Command {
    return { type: "stock_cancel_order", ...this.next(), ownerId, mode, orderId };
  }

  stockFund(instrumentId: string, quantity: bigint, mode: Mode = "real"): Command {
    return {
      type: "stock_fund_inventory",
      ...this.next(),
      mode,
      instrumentId,
      quantity,
      operatorId: "op",
      reference: "inventory funding",
    };
  }

  stockTpSl(
    ownerId: string,
    instrumentId: string,
    takeProfit: string | null,
    stopLoss: string | null,
    mode: Mode = "real",
  ): Command {
    return {
      type: "stock_set_tpsl",
      ...this.next(),
      ownerId,
      mode,
      instrumentId,
      takeProfit,
      stopLoss,
    };
  }

  loansConfigure(productId: string, overrides: Partial<LoansConfigureCommand> = {}): Command {
    return {
      type: "loans_configure",
      ...this.next(),
      productId,
      loanAssetId: "USDT",
      collateralAssetId: "BTC",
      instrumentId: "BTC-USDT",
      ltvInitialBps: 6_500,
      ltvMarginCallBps: 7_500,
      ltvLiquidationBps: 8_500,
      amountMin: 10_000_000n,
      amountMax: 100_000_000_000n,
      termDays: 7,
      dailyRatePpm: 1_000,
      reviewRequired: false,
      tickAgeMaxMs: 60_000,
      open: true,
      operatorId: null,
      ...overrides,
    };
  }

  loansFund(assetId: string, amount: bigint, mode: Mode = "real"): Command {
    return { type: "loans_fund_pool", ...this.next(), mode, assetId, amount, operatorId: null };
  }

  loansApply(
    ownerId: string,
    productId: string,
    amount: bigint,
    collateral: bigint,
    mode: Mode = "real",
  ): Command {
    return { type: "loans_apply", ...this.next(), ownerId, mode, productId, amount, collateral };
  }

  loansDecide(loanId: string, approve: boolean, reason: string | null = null): Command {
    return { type: "loans_decide", ...this.next(), loanId, approve, reason, operatorId: "op" };
  }

  loansRepay(ownerId: string, loanId: string, amount: bigint, mode: Mode = "real"): Command {
    return { type: "loans_repay", ...this.next(), ownerId, mode, loanId, amount };
  }

  loansAddCollateral(
    ownerId: string,
    loanId: string,
    amount: bigint,
    mode: Mode = "real",
  ): Command {
    return { type: "loans_add_collateral", ...this.next(), ownerId, mode, loanId, amount };
  }

  referralLink(inviterId: string, inviteeId: string, mode: Mode = "real"): Command {
    return { type: "referral_link", ...this.next(), inviterId, inviteeId, mode };
  }

  referralConfigure(product: string, rebateBps: number, mode: Mode = "real"): Command {
    return {
      type: "referral_configure",
      ...this.next(),
      mode,
      product,
      rebateBps,
      operatorId: null,
    };
  }

  vipConfigure(
    level: number,
    terms: {
      assetId?: string;
      minVolume?: bigint;
      minBalance?: bigint;
      feeDiscountBps?: number;
      withdrawDailyLimit?: bigint;
      remove?: boolean;
    },
    mode: Mode = "real",
  ): Command {
    return {
      type: "vip_configure",
      ...this.next(),
      mode,
      level,
      assetId: terms.assetId ?? "USDT",
      minVolume: terms.minVolume ?? 0n,
      minBalance: terms.minBalance ?? 0n,
      feeDiscountBps: terms.feeDiscountBps ?? 0,
      withdrawDailyLimit: terms.withdrawDailyLimit ?? 0n,
      remove: terms.remove ?? false,
      operatorId: null,
    };
  }

  agentConfigure(
    level: number,
    terms: {
      assetId?: string;
      upgradeMembers?: number;
      upgradeVolume?: bigint;
      keepMembers?: number;
      keepVolume?: bigint;
      spotBps?: number;
      perpBps?: number;
      stocksBps?: number;
      remove?: boolean;
    },
    mode: Mode = "real",
  ): Command {
    return {
      type: "agent_configure",
      ...this.next(),
      mode,
      level,
      assetId: terms.assetId ?? "USDT",
      upgradeMembers: terms.upgradeMembers ?? 0,
      upgradeVolume: terms.upgradeVolume ?? 0n,
      keepMembers: terms.keepMembers ?? 0,
      keepVolume: terms.keepVolume ?? 0n,
      spotBps: terms.spotBps ?? 0,
      perpBps: terms.perpBps ?? 0,
      stocksBps: terms.stocksBps ?? 0,
      remove: terms.remove ?? false,
      operatorId: null,
    };
  }

  activityDefine(
    activityId: string,
    terms: {
      assetId?: string;
      minDeposit?: bigint;
      bonus?: bigint;
      capacity?: number;
      startsAtMs?: number;
      endsAtMs?: number;
    } = {},
    mode: Mode = "real",
  ): Command {
    return {
      type: "activity_define",
      ...this.next(),
      activityId,
      mode,
      assetId: terms.assetId ?? "USDT",
      minDeposit: terms.minDeposit ?? 100_000_000n,
      bonus: terms.bonus ?? 10_000_000n,
      capacity: terms.capacity ?? 10,
      startsAtMs: terms.startsAtMs ?? 0,
      endsAtMs: terms.endsAtMs ?? 4_000_000_000_000,
      operatorId: null,
    };
  }

  activityFund(amount: bigint, mode: Mode = "real", assetId = "USDT"): Command {
    return {
      type: "activity_fund",
      ...this.next(),
      mode,
      assetId,
      amount,
      reference: mode === "real" ? "bank-" + String(this.serial) : null,
      operatorId: null,
    };
  }

  activityReserve(
    activityId: string,
    ownerId: string,
    reservationId: string,
    mode: Mode = "real",
  ): Command {
    return { type: "activity_reserve", ...this.next(), activityId, ownerId, mode, reservationId };
  }
}
