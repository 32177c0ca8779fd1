// A seeded simulation of perpetuals through the whole kernel: users trading one perpetual on
// the central book (limit, market, post-only, IOC, reduce-only), changing leverage and margin
// mode, moving isolated margin, setting TP/SL, over a violent index path (crashes and spikes of
// up to 30 % in one tick) with funding every hour. The harness checks every invariant after
// every command; at the end the command stream is replayed into a fresh kernel and a snapshot
// is restored, and both must give the same state hash.

import { apply } from "../apply.ts";
import { restore, snapshot, stateHash } from "../snapshot.ts";
import { createKernelState } from "../state.ts";
import { Random } from "../testing/simulate.ts";
import type { Mode } from "../types.ts";
import { perpDirectionOf } from "./conditional.ts";
import { sideOf } from "./kernel-state.ts";
import { perpDefinition, PerpHarness, PERP } from "./kernel-testing.ts";

const USERS = ["u1", "u2", "u3", "u4", "u5", "u6"];
const MAKER = "system:market_maker";
const OWNERS = [...USERS, MAKER];
const ETH = "ETH-PERP";
const STP_MODES = ["cancel_resting", "cancel_incoming", "cancel_both"] as const;

export interface PerpSimulationReport {
  seed: number;
  commands: number;
  accepted: number;
  fills: number;
  liquidations: number;
  takeovers: number;
  adl: number;
  fundings: number;
  /** Steps after which some cross account had positions in both markets. */
  spreadSteps: number;
  resets: number;
  /** Negative-balance covers by the insurance fund, and forced takeovers. */
  covers: number;
  forced: number;
  /** Accepted size amends. */
  amends: number;
  /** Conditional orders that fired (placed their order or were refused at the trigger). */
  conditionalsFired: number;
  /** OCO legs ended because the other leg fired or was cancelled. */
  ocoEnded: number;
  /** Own crossed orders cancelled, or incoming orders stopped, by self-trade prevention. */
  selfTradeStops: number;
  hash: string;
}

export function simulatePerp(seed: number, steps: number): PerpSimulationReport {
  const random = new Random(seed);
  const h = new PerpHarness({
    fundingIntervalMs: 3_600_000,
    leverageMax: 50,
    markBasisCapBps: random.chance(0.5) ? 0 : 50,
  });
  // A second market on another index: cross accounts spread over both.
  h.run(
    perpDefinition({
      marketId: ETH,
      instrumentId: "ETH-USDT",
      priceStep: "0.01",
      contractSize: "0.01",
      fundingIntervalMs: 3_600_000,
    }),
  );
  for (const user of USERS) {
    h.user(user, BigInt(random.int(50, 5_000)) * 1_000_000n);
    h.user(user, BigInt(random.int(50, 2_000)) * 1_000_000n, "demo");
  }
  // The labelled market maker trades like a user; its real margin comes from operator funding
  // (credit_deposit, then fund_perp_market_maker), its demo margin from the faucet.
  h.user(MAKER, BigInt(random.int(500, 5_000)) * 1_000_000n);
  h.user(MAKER, BigInt(random.int(500, 5_000)) * 1_000_000n, "demo");
  const prices: Record<string, number> = { [PERP]: 500_000, [ETH]: 300_000 };
  let amends = 0;
  let selfTradeStops = 0;
  const tick = (marketId: string): void => {
    const violent = random.chance(0.25);
    const moveBps = violent ? random.int(-3_000, 3_000) : random.int(-150, 150);
    const next = Math.max(1_000, Math.round((prices[marketId]! * (10_000 + moveBps)) / 10_000));
    prices[marketId] = next;
    if (marketId === PERP) h.tick((next / 10).toFixed(1));
    else h.tick((next / 100).toFixed(2), "ETH-USDT");
  };
  tick(PERP);
  tick(ETH);
  let accepted = 0;
  let spreadSteps = 0;
  for (let step = 0; step < steps; step++) {
    const mode: Mode = random.chance(0.2) ? "demo" : "real";
    const owner = random.pick(OWNERS);
    const roll = random.next();
    const marketId = random.chance(0.7) ? PERP : ETH;
    const priceTicks = prices[marketId]!;
    const base = { ownerId: owner, mode, marketId };
    let ok: boolean;
    const doneBefore = h.eventsOf("perp_order_done").length;
    if (roll < 0.15) {
      tick(marketId);
      ok = true;
    } else if (roll < 0.5) {
      const side = random.chance(0.5) ? "buy" : "sell";
      const offset = random.int(-200, 200) / 10_000;
      const price = Math.max(1, Math.round(priceTicks * (1 + offset)));
      const tif = random.pick(["gtc", "gtc", "ioc", "post_only", "fok"] as const);
      // Half the orders name a self-trade prevention mode (place_perp_order_stp).
      const stp = random.chance(0.5) ? random.pick(STP_MODES) : undefined;
      // The owner's own opposite orders this one crosses: what self-trade prevention guards.
      const crossed = new Set(
        [...h.state.perp.orders.values()]
          .filter(
            (o) =>
              o.account.owner.ownerId === owner &&
              o.account.side.mode === mode &&
              o.account.side.market.params.marketId === marketId &&
              o.side !== side &&
              !o.reduceOnly &&
              (side === "buy" ? o.priceTicks <= price : o.priceTicks >= price),
          )
          .map((o) => o.orderId),
      );
      const out = h.order(owner, side, random.int(1, 30), price, {
        tif,
        reduceOnly: random.chance(0.15),
        mode,
        marketId,
        ...(stp === undefined ? {} : { selfTradeMode: stp }),
      });
      ok = out.result.ok;
      if (out.result.ok && crossed.size > 0) {
        selfTradeStops += h
          .eventsOf("perp_order_done")
          .slice(doneBefore)
          .filter((e) => e.status === "cancelled" && crossed.has(e.orderId)).length;
        selfTradeStops +=
          (out.result.value as { orderStatus: string }).orderStatus === "cancelled" ? 1 : 0;
      }
    } else if (roll < 0.56) {
      // Position actions: close, reverse, close all.
      const type = random.pick([
        "close_perp_position",
        "reverse_perp_position",
        "close_all_perp",
      ] as const);
      const fields = type === "close_all_perp" ? { ownerId: owner, mode } : base;
      ok = h.tryRun({ type, ...fields } as never).result.ok;
    } else if (roll < 0.62 && random.chance(0.5)) {
      // A stop or take-profit (market or limit, sometimes reduce-only) a little away from the
      // mark, fired later by the violent path (conditional.ts).
      const side = random.chance(0.5) ? "buy" : "sell";
      const kind = random.chance(0.5) ? "stop" : "take_profit";
      const mark = Number(
        sideOf(h.state.perp.markets.get(marketId)!, mode).mark?.priceTicks ?? priceTicks,
      );
      const away = Math.max(1, Math.round((mark * random.int(5, 400)) / 10_000));
      const trigger = perpDirectionOf(kind, side) === "at_or_above" ? mark + away : mark - away;
      const limit = random.chance(0.5);
      if (random.chance(0.3)) {
        // An OCO pair (oco.ts): this trigger's leg and the other kind's on the far side.
        const other = Math.max(1, Math.round((mark * random.int(5, 400)) / 10_000));
        const up = mark + (kind === "take_profit" ? away : other);
        const down = Math.max(1, mark - (kind === "take_profit" ? other : away));
        const [takeProfit, stop] = side === "sell" ? [up, down] : [down, up];
        ok = h.tryRun({
          type: "place_perp_oco_order",
          ...base,
          side,
          quantityLots: random.int(1, 20),
          reduceOnly: random.chance(0.5),
          selfTradeMode: random.pick(STP_MODES),
          takeProfitTriggerTicks: takeProfit,
          takeProfitPriceTicks: limit ? takeProfit : null,
          stopTriggerTicks: stop,
          stopPriceTicks: limit ? Math.max(1, stop + random.int(-200, 200)) : null,
        } as never).result.ok;
      } else {
        ok = h.tryRun({
          type: "place_perp_conditional_order",
          ...base,
          side,
          kind,
          orderType: limit ? "limit" : "market",
          timeInForce: limit ? random.pick(["gtc", "ioc"]) : "ioc",
          triggerTicks: Math.max(1, trigger),
          priceTicks: limit ? Math.max(1, trigger + random.int(-200, 200)) : null,
          quantityLots: random.int(1, 20),
          reduceOnly: random.chance(0.3),
          selfTradeMode: random.pick(STP_MODES),
        } as never).result.ok;
      }
    } else if (roll < 0.62) {
      ok = h.order(owner, random.chance(0.5) ? "buy" : "sell", random.int(1, 20), null, {
        reduceOnly: random.chance(0.3),
        mode,
        marketId,
      }).result.ok;
    } else if (roll < 0.7) {
      const waiting = [...h.state.perp.conditionals.values()].filter(
        (c) => c.account.owner.ownerId === owner && c.account.side.mode === mode,
      );
      const open = [...h.state.perp.orders.values()].filter(
        (o) => o.account.owner.ownerId === owner && o.account.side.mode === mode,
      );
      if (waiting.length > 0 && (open.length === 0 || random.chance(0.3))) {
        ok = h.tryRun({
          type: "cancel_perp_conditional_order",
          ownerId: owner,
          mode,
          conditionalId: random.pick(waiting).conditionalId,
        } as never).result.ok;
        if (ok) accepted++;
        continue;
      }
      if (open.length === 0) continue;
      const order = random.pick(open);
      if (random.chance(0.5)) {
        ok = h.tryRun({
          type: "cancel_perp_order",
          ownerId: owner,
          mode,
          orderId: order.orderId,
        } as never).result.ok;
      } else {
        // Size-only amend: down keeps the queue place, up (or to zero) is refused.
        const remaining = order.quantityLots - order.filledLots;
        ok = h.tryRun({
          type: "amend_perp_order_size",
          ownerId: owner,
          mode,
          orderId: order.orderId,
          quantityLots: random.chance(0.85) ? random.int(1, remaining) : remaining + 1,
        } as never).result.ok;
        if (ok) amends++;
      }
    } else if (roll < 0.76) {
      ok = h.tryRun({
        type: "set_perp_leverage",
        ...base,
        leverage: random.int(5, 60),
      } as never).result.ok;
    } else if (roll < 0.81) {
      ok = h.tryRun({
        type: "set_perp_margin_mode",
        ...base,
        marginMode: random.chance(0.5) ? "isolated" : "cross",
      } as never).result.ok;
    } else if (roll < 0.87) {
      ok = h.tryRun({
        type: random.chance(0.5) ? "add_perp_margin" : "remove_perp_margin",
        ...base,
        amount: BigInt(random.int(1, 100)) * 1_000_000n,
      } as never).result.ok;
    } else if (roll < 0.93) {
      const away = random.int(50, 2_000);
      ok = h.tryRun({
        type: "set_perp_tp_sl",
        ...base,
        takeProfitTicks: random.chance(0.7) ? priceTicks + away : null,
        stopLossTicks: random.chance(0.7) ? Math.max(1, priceTicks - away) : null,
      } as never).result.ok;
    } else if (roll < 0.96) {
      // Money in and out of the contract wallet (out is limited by open cross positions).
      const out = random.chance(0.6);
      const amount = BigInt(random.int(1, 500)) * 1_000_000n;
      if (owner === MAKER && mode === "real" && !out) {
        // The operator tops up the market maker's margin (refused once its fund wallet is dry).
        h.tryRun({
          type: "credit_deposit",
          ownerId: MAKER,
          mode,
          assetId: "USDT",
          amount: amount / 2n,
          reference: `mm-${step}`,
          operatorId: "op-1",
        } as never);
        ok = h.tryRun({
          type: "fund_perp_market_maker",
          assetId: "USDT",
          amount,
          reference: `mm-${step}`,
          reason: "market maker margin",
          operatorId: "op-1",
        } as never).result.ok;
      } else
        ok = h.tryRun({
          type: "transfer_wallet",
          ownerId: owner,
          mode,
          assetId: "USDT",
          amount,
          sourceWallet: out ? "contract" : "fund",
          targetWallet: out ? "fund" : "contract",
        } as never).result.ok;
    } else if (roll < 0.97) {
      ok = h.tryRun({ type: "reset_demo", ownerId: owner, mode: "demo" } as never).result.ok;
    } else {
      ok = h.tryRun({ type: "clock_tick" } as never, h.nowMs + random.int(60_000, 5_400_000)).result
        .ok;
    }
    if (ok) accepted++;
    const btc = h.state.perp.markets.get(PERP)!;
    if (btc.real.multiCross.size + btc.demo.multiCross.size > 0) spreadSteps++;
  }
  const hash = stateHash(h.state);
  // Replay: the same commands into a fresh kernel give the same state.
  const replayed = createKernelState();
  for (const command of h.commands) apply(replayed, command);
  if (stateHash(replayed) !== hash) throw new Error(`seed ${seed}: replay hash differs`);
  if (stateHash(restore(snapshot(h.state))) !== hash) {
    throw new Error(`seed ${seed}: restored snapshot hash differs`);
  }
  return {
    seed,
    commands: h.commands.length,
    accepted,
    fills: h.eventsOf("perp_fill").length,
    liquidations: h.eventsOf("perp_liquidation").length,
    takeovers: h.eventsOf("perp_insurance_takeover").length,
    adl: h.eventsOf("perp_auto_deleverage").length,
    fundings: h.eventsOf("perp_funding_settled").length,
    spreadSteps,
    resets: h.eventsOf("demo_reset").length,
    covers: h.eventsOf("perp_negative_balance_cover").length,
    forced: h.eventsOf("perp_insurance_takeover").filter((e) => e.forced).length,
    amends,
    ocoEnded: h.eventsOf("perp_conditional_done").filter((e) => e.reason === "oco").length,
    conditionalsFired: h.eventsOf("perp_conditional_done").filter((e) => e.status !== "cancelled")
      .length,
    selfTradeStops,
    hash,
  };
}
