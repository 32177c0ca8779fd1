// A small harness for perpetuals through the kernel: a USDT asset, one perpetual market on the
// BTC-USDT tape, users with contract wallets, and invariants checked after every command.

import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { createKernelState, type KernelState } from "../state.ts";
import type { ApplyOutput, Command, Event, Mode } from "../types.ts";
import type { DefinePerpMarketCommand } from "./kernel-types.ts";
import "./module.ts";

export const PERP = "BTC-PERP";
export const INDEX = "BTC-USDT";

/** BTC-PERP: step 0.1 USDT, contract 0.001 BTC, so one lot at one tick is 100 USDT units. */
export function perpDefinition(
  overrides: Partial<DefinePerpMarketCommand> = {},
): Omit<DefinePerpMarketCommand, "id" | "atMs"> {
  return {
    type: "define_perp_market",
    marketId: PERP,
    instrumentId: INDEX,
    quoteAssetId: "USDT",
    priceStep: "0.1",
    contractSize: "0.001",
    quantityLotsMin: 1,
    quantityLotsMax: 1_000_000,
    leverageMax: 50,
    leverageDefault: 10,
    tiers: "0:50:0:50;10000000000:100:50000000:20",
    feeBpsMaker: 2,
    feeBpsTaker: 5,
    fundingIntervalMs: 28_800_000,
    fundingCapBps: 75,
    interestBpsPerDay: 3,
    priceBandBps: 500,
    markBasisCapBps: 0,
    liquidationFeeBps: 50,
    ...overrides,
  };
}

export class PerpHarness {
  state: KernelState;
  serial = 0;
  nowMs = 1_000;
  tickSerial = 0;
  events: Event[] = [];
  commands: Command[] = [];
  checkEvery = true;

  constructor(overrides: Partial<DefinePerpMarketCommand> = {}, fundInsurance = 0n) {
    this.state = createKernelState();
    this.run({ type: "define_asset", assetId: "USDT", scale: 6, amountMax: null } as never);
    this.run(perpDefinition(overrides));
    if (fundInsurance > 0n) this.user("system:insurance_fund", fundInsurance);
  }

  /** Applies a command (id and time filled in); throws if rejected. */
  run<C extends Command>(command: Omit<C, "id" | "atMs">, atMs?: number): ApplyOutput<C> {
    const out = this.tryRun(command, atMs);
    if (!out.result.ok) throw new Error(`${command.type} rejected: ${out.result.code}`);
    return out;
  }

  tryRun<C extends Command>(command: Omit<C, "id" | "atMs">, atMs?: number): ApplyOutput<C> {
    if (atMs !== undefined) this.nowMs = Math.max(this.nowMs, atMs);
    const full = { ...command, id: `p${++this.serial}`, atMs: this.nowMs++ } as unknown as C;
    const out = apply(this.state, full);
    this.commands.push(full);
    this.events.push(...out.events);
    if (this.checkEvery) checkInvariants(this.state);
    return out;
  }

  /** Opens a user (or funds a system owner) with `amount` USDT units in the contract wallet. */
  user(ownerId: string, amount: bigint, mode: Mode = "real"): void {
    if (!ownerId.startsWith("system:")) {
      this.run({ type: "open_accounts", ownerId, mode } as never);
    }
    if (amount === 0n) return;
    if (mode === "real") {
      this.run({
        type: "credit_deposit",
        ownerId,
        mode,
        assetId: "USDT",
        amount,
        reference: `dep-${this.serial}`,
        operatorId: null,
      } as never);
    } else {
      this.run({ type: "grant_demo", ownerId, mode, assetId: "USDT", amount } as never);
    }
    if (ownerId === "system:market_maker" && mode === "real") {
      // Real inventory of the labelled market maker reaches its contract wallet only by the
      // operator's command (a system owner's real wallet transfer stays refused).
      this.run({
        type: "fund_perp_market_maker",
        assetId: "USDT",
        amount,
        reference: `dep-${this.serial}`,
        reason: "market maker margin",
        operatorId: "op-1",
      } as never);
      return;
    }
    this.run({
      type: "transfer_wallet",
      ownerId,
      mode,
      assetId: "USDT",
      amount,
      sourceWallet: "fund",
      targetWallet: "contract",
    } as never);
  }

  /** Records an index tick at `price` (decimal USDT). */
  tick(price: string, instrumentId = INDEX): ApplyOutput<Command> {
    return this.run({
      type: "record_tick",
      tickId: `t${++this.tickSerial}`,
      instrumentId,
      price,
      tickAtMs: this.nowMs,
    } as never);
  }

  order(
    ownerId: string,
    side: "buy" | "sell",
    lots: number,
    priceTicks: number | null,
    opts: {
      tif?: "gtc" | "ioc" | "fok" | "post_only";
      reduceOnly?: boolean;
      mode?: Mode;
      marketId?: string;
      /** Sends `place_perp_order_stp` with this self-trade prevention mode. */
      selfTradeMode?: "cancel_resting" | "cancel_incoming" | "cancel_both";
    } = {},
  ) {
    return this.tryRun({
      type: opts.selfTradeMode === undefined ? "place_perp_order" : "place_perp_order_stp",
      ...(opts.selfTradeMode === undefined ? {} : { selfTradeMode: opts.selfTradeMode }),
      ownerId,
      mode: opts.mode ?? "real",
      marketId: opts.marketId ?? PERP,
      side,
      orderType: priceTicks === null ? "market" : "limit",
      timeInForce: opts.tif ?? (priceTicks === null ? "ioc" : "gtc"),
      priceTicks,
      quantityLots: lots,
      reduceOnly: opts.reduceOnly ?? false,
    } as never);
  }

  isolated(ownerId: string, mode: Mode = "real"): void {
    this.run({
      type: "set_perp_margin_mode",
      ownerId,
      mode,
      marketId: PERP,
      marginMode: "isolated",
    } as never);
  }

  leverage(ownerId: string, leverage: number, mode: Mode = "real"): void {
    this.run({ type: "set_perp_leverage", ownerId, mode, marketId: PERP, leverage } as never);
  }

  account(ownerId: string, mode: Mode = "real") {
    const side =
      mode === "real"
        ? this.state.perp.markets.get(PERP)!.real
        : this.state.perp.markets.get(PERP)!.demo;
    return side.accounts.get(`${mode}|${ownerId}|${PERP}`);
  }

  wallet(ownerId: string, mode: Mode = "real"): { available: bigint; held: bigint } {
    const account = this.state.ledger.accounts.get(`${ownerId}|${mode}|contract|USDT`);
    return { available: account?.available ?? 0n, held: account?.held ?? 0n };
  }

  eventsOf<T extends Event["type"]>(type: T): Extract<Event, { type: T }>[] {
    return this.events.filter((e) => e.type === type) as Extract<Event, { type: T }>[];
  }
}

/** Alice and bob with 1,000 USDT each in their real contract wallets, the index at 50,000.0. */
export function twoTraders(): PerpHarness {
  const h = new PerpHarness();
  h.user("alice", 1_000_000_000n);
  h.user("bob", 1_000_000_000n);
  h.tick("50000.0");
  return h;
}
