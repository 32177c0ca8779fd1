// The honesty test of seconds contracts: no command type, alone or all together, changes the
// result of an open contract.

import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { commandTypesByCode } from "../registry.ts";
import type { CommandMaker } from "../testing/commands.ts";
import type { Command, CommandType } from "../types.ts";
import { PERP, perpDefinition } from "../perp/kernel-testing.ts";
import type { SecondsContractView } from "./types.ts";
import { buy, HOUSE, PERIOD, settledOf, setup } from "./testing.ts";

let perpSerial = 0;
/** Id and time for a perpetual command (the command maker has no perp builders). */
const stamp = (c: CommandMaker) => ({ id: `perp${++perpSerial}`, atMs: c.nowMs++ });
const perpUser = (c: CommandMaker) => ({
  ...stamp(c),
  ownerId: "1",
  mode: "real" as const,
  marketId: PERP,
});

/**
 * Commands of every type to send while a contract is open. A new command type does not compile
 * until it is listed here, so the honesty test covers it.
 */
const interference: Record<CommandType, (c: CommandMaker) => Command[]> = {
  define_asset: (c) => [c.asset("ETH", 8)],
  define_market: (c) => [c.market("ETH-USDT", "ETH", "USDT")],
  set_market_session: (c) => [c.session("BTC-USDT", false)],
  open_accounts: (c) => [c.open("3")],
  reset_demo: (c) => [c.resetDemo("1")],
  grant_demo: (c) => [c.grant(HOUSE, "USDT", 1_000_000n), c.grant("1", "USDT", 1_000_000n)],
  credit_deposit: (c) => [c.deposit(HOUSE, "USDT", 1_000_000n), c.deposit("1", "USDT", 1n)],
  withdrawal_hold: (c) => [
    c.withdrawHold(HOUSE, "USDT", 10n ** 12n, "w1"),
    c.withdrawHold(HOUSE, "USDT", 1_000_000n, "w2"),
  ],
  withdrawal_hold_fee: (c) => [
    c.withdrawHoldFee(HOUSE, "USDT", 10n ** 12n, 1_000n, "w3"),
    c.withdrawHoldFee(HOUSE, "USDT", 1_000_000n, 1_000n, "w4"),
  ],
  withdrawal_hold_wallet: (c) => [
    c.withdrawHoldWallet(HOUSE, "fiat", "USDT", 10n ** 12n, 1_000n, "w5"),
    c.withdrawHoldWallet(HOUSE, "fund", "USDT", 1_000_000n, 1_000n, "w6"),
  ],
  withdrawal_complete: (c) => [c.withdrawComplete("w2")],
  withdrawal_cancel: (c) => [c.withdrawCancel("w2")],
  transfer_wallet: (c) => [
    c.transferWallet(HOUSE, "USDT", 1_000_000n, "contract", "fund"),
    c.transferWallet("1", "USDT", 1_000_000n, "fund", "contract"),
  ],
  transfer_user: (c) => [
    c.transferUser("1", HOUSE, "USDT", 1_000_000n),
    c.transferUser("1", "2", "USDT", 1_000_000n),
  ],
  place_order: (c) => [c.limit("1", "BTC-USDT", "buy", 100, 10)],
  cancel_order: (c) => [c.cancel("1", 1)],
  replace_order: (c) => [c.replace("1", 1, 101, 10)],
  cancel_all: (c) => [c.cancelAll("1")],
  // A tick before expiry is the tape, not a settlement; an older one is refused.
  record_tick: (c) => [c.tick("BTC-USDT", "1"), c.tickAt("BTC-USDT", "99999", 0)],
  clock_tick: (c) => [c.clock()],
  exchange_quote: (c) => [c.exchangeQuote("1", "USDT", 1_000_000n, "BTC")],
  exchange_accept: (c) => [c.exchangeAccept("1", "c999")],
  seconds_configure: (c) => [
    c.secondsConfigure("BTC-USDT", PERIOD, { payoutBps: 1, graceMs: 1_000, open: false }),
  ],
  seconds_purchase: (c) => [c.secondsPurchase("1", "BTC-USDT", PERIOD, "down", 1_000_000n)],
  // Perpetuals on the same tape instrument: their trades, liquidations and funding never reach
  // a seconds contract.
  define_perp_market: (c) => [
    { ...perpDefinition({ instrumentId: "BTC-USDT" }), ...stamp(c) } as Command,
    c.transferWallet("1", "USDT", 50_000_000n, "fund", "contract"),
  ],
  set_perp_leverage: (c) => [{ type: "set_perp_leverage", ...perpUser(c), leverage: 20 }],
  set_perp_margin_mode: (c) => [
    { type: "set_perp_margin_mode", ...perpUser(c), marginMode: "isolated" },
  ],
  place_perp_order: (c) => [
    {
      type: "place_perp_order",
      ...perpUser(c),
      side: "buy",
      orderType: "limit",
      timeInForce: "gtc",
      priceTicks: 300_000,
      quantityLots: 1,
      reduceOnly: false,
    },
  ],
  cancel_perp_order: (c) => [
    { type: "cancel_perp_order", ...stamp(c), ownerId: "1", mode: "real", orderId: 1 },
  ],
  add_perp_margin: (c) => [{ type: "add_perp_margin", ...perpUser(c), amount: 1_000_000n }],
  remove_perp_margin: (c) => [{ type: "remove_perp_margin", ...perpUser(c), amount: 1_000_000n }],
  set_perp_tp_sl: (c) => [
    { type: "set_perp_tp_sl", ...perpUser(c), takeProfitTicks: 400_000, stopLossTicks: 200_000 },
  ],
  cancel_perp_tp_sl: (c) => [{ type: "cancel_perp_tp_sl", ...perpUser(c) }],
  close_perp_position: (c) => [{ type: "close_perp_position", ...perpUser(c) }],
  reverse_perp_position: (c) => [{ type: "reverse_perp_position", ...perpUser(c) }],
  close_all_perp: (c) => [{ type: "close_all_perp", ...stamp(c), ownerId: "1", mode: "real" }],
  fund_perp_market_maker: (c) => [
    {
      type: "fund_perp_market_maker",
      ...stamp(c),
      assetId: "USDT",
      amount: 1_000_000n,
      reference: "r1",
      reason: "margin",
      operatorId: null,
    },
  ],
  // Operator fee and leverage-cap changes apply to later orders; a contract's terms never move.
  set_market_fees: (c) => [
    { type: "set_market_fees", ...stamp(c), marketId: "BTC-USDT", feeBpsMaker: 0, feeBpsTaker: 100, operatorId: "op-1" }, // prettier-ignore
  ],
  set_perp_market_terms: (c) => [
    { type: "set_perp_market_terms", ...stamp(c), marketId: PERP, feeBpsMaker: 1, feeBpsTaker: 9, leverageMax: 5, operatorId: "op-1" }, // prettier-ignore
  ],
  // Savings move the user's and the savings accounts' money, never the house's reservation.
  savings_define_plan: (c) => [c.savingsPlan("p1", { cycleDays: 1 })],
  savings_fund_yield: (c) => [c.savingsFund("USDT", 1_000_000n), c.savingsFund("USDT", 1n, "demo")],
  savings_subscribe: (c) => [c.savingsSubscribe("1", "p1", 10_000_000n)],
  savings_redeem_early: (c) => [c.savingsRedeem("1", "c1")],
  // Stocks on the same tape instrument: their fills, sessions and triggers never reach a
  // seconds contract.
  stock_configure: (c) => [c.stockConfigure("BTC-USDT", "USDT", { spreadBps: 0 })],
  stock_session: (c) => [c.stockSession("BTC-USDT", true)],
  stock_fund_inventory: (c) => [c.stockFund("BTC-USDT", 100n)],
  stock_place_order: (c) => [c.stockOrder("1", "BTC-USDT", "buy", 1n)],
  stock_set_tpsl: (c) => [c.stockTpSl("1", "BTC-USDT", "99999", "1")],
  stock_cancel_order: (c) => [
    c.stockOrder("1", "BTC-USDT", "buy", 1n, { kind: "limit", limitPrice: "1", tif: "gtc" }),
    c.stockCancel("1", 2),
  ],
  // Loans on the same tape instrument: lending and liquidation never reach a seconds contract.
  loans_configure: (c) => [c.loansConfigure("btc7")],
  loans_fund_pool: (c) => [c.loansFund("USDT", 1_000_000n)],
  loans_apply: (c) => [c.loansApply("1", "btc7", 10_000_000n, 100_000n)],
  loans_decide: (c) => [c.loansDecide("c1", true)],
  loans_repay: (c) => [c.loansRepay("1", "c1", 1_000_000n)],
  loans_add_collateral: (c) => [c.loansAddCollateral("1", "c1", 1_000n)],
  place_order_stp: (c) => [c.limitStp("1", "BTC-USDT", "buy", 100, 1, "cancel_both")],
  amend_order_size: (c) => [c.amend("1", 1, 1)],
  place_conditional_order: (c) => [
    c.conditional("1", "BTC-USDT", "sell", 1, { priceTicks: 1, quantityLots: 1 }),
  ],
  place_oco_order: (c) => [c.oco("1", "BTC-USDT", "sell", 1, 1_000_000, 1, null)],
  place_perp_order_stp: (c) => [
    {
      type: "place_perp_order_stp",
      ...stamp(c),
      ownerId: "1",
      mode: "real",
      marketId: PERP,
      side: "buy",
      orderType: "limit",
      timeInForce: "gtc",
      priceTicks: 1,
      quantityLots: 1,
      reduceOnly: false,
      selfTradeMode: "cancel_incoming",
    },
  ],
  amend_perp_order_size: (c) => [
    {
      type: "amend_perp_order_size",
      ...stamp(c),
      ownerId: "1",
      mode: "real",
      orderId: 1,
      quantityLots: 1,
    },
  ],
  place_perp_conditional_order: (c) => [
    {
      type: "place_perp_conditional_order",
      ...stamp(c),
      ownerId: "1",
      mode: "real",
      marketId: PERP,
      side: "sell",
      kind: "stop",
      orderType: "market",
      timeInForce: "ioc",
      triggerTicks: 1,
      priceTicks: null,
      quantityLots: 1,
      reduceOnly: false,
      selfTradeMode: "cancel_resting",
    },
  ],
  place_perp_oco_order: (c) => [
    {
      type: "place_perp_oco_order",
      ...stamp(c),
      ownerId: "1",
      mode: "real",
      marketId: PERP,
      side: "sell",
      quantityLots: 1,
      reduceOnly: true,
      selfTradeMode: "cancel_resting",
      takeProfitTriggerTicks: 1_000_000_000,
      takeProfitPriceTicks: null,
      stopTriggerTicks: 1,
      stopPriceTicks: null,
    },
  ],
  cancel_perp_conditional_order: (c) => [
    {
      type: "cancel_perp_conditional_order",
      ...stamp(c),
      ownerId: "1",
      mode: "real",
      conditionalId: 1,
    },
  ],
  referral_link: (c) => [c.referralLink("2", "1")],
  referral_configure: (c) => [c.referralConfigure("spot", 5_000)],
  vip_configure: (c) => [
    c.vipConfigure(0, { feeDiscountBps: 10_000, withdrawDailyLimit: 1n }),
    c.vipConfigure(0, { feeDiscountBps: 10_000 }, "demo"),
  ],
  activity_define: (c) => [
    c.activityDefine("seconds-interference", { minDeposit: 1n, bonus: 1_000_000n }),
    c.activityDefine("seconds-interference-demo", { minDeposit: 1n, bonus: 1_000_000n }, "demo"),
  ],
  activity_fund: (c) => [c.activityFund(5_000_000n), c.activityFund(5_000_000n, "demo")],
  activity_reserve: (c) => [
    c.activityReserve("seconds-interference", "1", "seconds-interference-1"),
    c.activityReserve("seconds-interference-demo", "1", "seconds-interference-2", "demo"),
  ],
  agent_configure: (c) => [
    c.agentConfigure(1, { upgradeMembers: 1, spotBps: 10_000, perpBps: 10_000, stocksBps: 10_000 }),
    c.agentConfigure(1, { upgradeVolume: 1n, spotBps: 10_000 }, "demo"),
  ],
};

/** Every command type, in type-code order (the table has holes at unused codes). */
const allTypes = commandTypesByCode.filter((type): type is CommandType => type !== undefined);

describe("honesty: nothing changes the result of an open contract", () => {
  function outcome(types: CommandType[], mode: "real" | "demo"): SecondsContractView {
    const { state, c } = setup();
    const { id, expiresAtMs } = buy(state, c, "up", mode);
    for (const type of types) {
      for (const command of interference[type](c)) {
        apply(state, command); // accepted or refused: either way the contract keeps its result
        checkInvariants(state);
      }
    }
    c.nowMs = Math.max(c.nowMs, expiresAtMs);
    const events = apply(state, c.tick("BTC-USDT", "30500")).events;
    const settled = settledOf(events).find((s) => s.contractId === id);
    expect(settled, `contract settled after ${types.join(", ")}`).toBeDefined();
    return settled!;
  }

  for (const mode of ["real", "demo"] as const) {
    const baseline = (): Pick<
      SecondsContractView,
      "outcome" | "returned" | "openTickId" | "openPrice"
    > => {
      const s = outcome([], mode);
      return {
        outcome: s.outcome,
        returned: s.returned,
        openTickId: s.openTickId,
        openPrice: s.openPrice,
      };
    };
    it(`covers every command type (${mode})`, () => {
      expect(allTypes).toHaveLength(Object.keys(interference).length);
      const expected = baseline();
      expect(expected.outcome).toBe("win");
      for (const type of allTypes) {
        expect(outcome([type], mode), type).toMatchObject(expected);
      }
      // And all of them together, in type-code order.
      expect(outcome(allTypes, mode)).toMatchObject(expected);
    });
  }
});
