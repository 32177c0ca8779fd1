import {
  getAssets,
  getBalance,
  getMarkets,
  getOpenOrders,
  parseAmount,
  systemOwners,
  type Command,
  type CommandResult,
  type KernelState,
  type MarketView,
  type Mode,
} from "@candor/kernel";
import type { Instrument } from "@candor/market";
import { AppError } from "../../http/app-error.ts";
import type { Unstamped } from "../../engine/engine.ts";

/** What the market maker needs from the engine: submit commands, read state. */
export interface KernelGateway {
  submit(command: Unstamped<Command>): Promise<{ result: CommandResult; duplicate?: boolean }>;
  query<T>(fn: (state: KernelState) => T): T;
}

export interface MarketMakerOptions {
  gateway: KernelGateway;
  /** Spot instruments to quote; each must have a kernel market with `instrumentId` = its id. */
  instruments: readonly Instrument[];
  modes?: readonly Mode[];
  /** Price levels per side (default 14). */
  levels?: number;
  /**
   * Distance between best bid and best ask in calm markets, basis points of the reference
   * (default 10); it widens with the recent moves of the reference (see `quote`).
   */
  spreadBps?: number;
  /** Mean distance between levels, basis points (default 4); each gap varies, seeded. */
  levelStepBps?: number;
  /**
   * Mean notional per level in the quote's smallest units (default 2,000 USDT at 6 decimals);
   * each level's size varies around it (seeded) and grows a little away from the touch.
   */
  notionalPerLevel?: bigint;
  /** Share of each balance the quotes of one market may hold, in percent (default 20). */
  inventorySharePercent?: bigint;
  /** Requote when the reference moved at least this much since the last quote (default 5 bps). */
  requoteBps?: number;
  /** Requote at least this often even if the price is still (default 30 s). */
  requoteIntervalMs?: number;
}

interface Quoted {
  referenceTicks: number;
  atMs: number;
  orders: number;
  /** Smoothed move of the reference between quotes, basis points: widens the spread. */
  volatilityBps: number;
  /** Quotes made so far on this book: part of the seed of sizes and gaps. */
  round: number;
}

/** The spread widens by this many bps per bp of recent move, up to `spreadWideningBpsMax`. */
const spreadWideningPerMoveBps = 2;
const spreadWideningBpsMax = 100;

/**
 * A number in [0, 1000) from a text, the same every time (FNV-1a, 32 bit): the seed of a
 * level's size and gap, so quotes look like a market yet replay identically.
 */
export function seededPerMille(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 1000;
}

const owner = systemOwners.marketMaker;

/**
 * The labelled market maker (`system:market_maker`): keeps layered post-only bids and asks on
 * every spot book, real and demo, around the tape price, through the same commands as users.
 * It never crosses the book (post-only), stays within a share of its own balances, and so can
 * only lose or make money like any other participant; its fills are on the tape like anyone's.
 */
export class MarketMaker {
  private readonly gateway: KernelGateway;
  private readonly options: Required<Omit<MarketMakerOptions, "gateway" | "instruments">>;
  private readonly instruments: readonly Instrument[];
  private readonly quoted = new Map<string, Quoted>();
  private busy = false;

  constructor(options: MarketMakerOptions) {
    this.gateway = options.gateway;
    this.instruments = options.instruments;
    this.options = {
      modes: options.modes ?? ["real", "demo"],
      levels: options.levels ?? 14,
      spreadBps: options.spreadBps ?? 10,
      levelStepBps: options.levelStepBps ?? 4,
      notionalPerLevel: options.notionalPerLevel ?? 2_000_000_000n,
      inventorySharePercent: options.inventorySharePercent ?? 20n,
      requoteBps: options.requoteBps ?? 5,
      requoteIntervalMs: options.requoteIntervalMs ?? 30_000,
    };
  }

  /**
   * Requotes every book whose reference moved, whose quotes were traded against, or whose
   * quotes are old. `prices` are tape prices in the instrument's scale (10^-priceScale units).
   * Calls never overlap: a call while one is running does nothing.
   */
  async refresh(prices: ReadonlyMap<string, bigint>, atMs: number): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    let requoted = 0;
    try {
      const markets = this.gateway.query((state) => getMarkets(state));
      for (const instrument of this.instruments) {
        const price = prices.get(instrument.id);
        const market = markets.find((m) => m.instrumentId === instrument.id);
        if (price === undefined || !market || !market.open) continue;
        const referenceTicks = Number(price / instrument.tickSize);
        for (const mode of this.options.modes) {
          if (this.needsQuote(market, mode, referenceTicks, atMs)) {
            await this.quote(market, mode, referenceTicks, atMs);
            requoted += 1;
          }
        }
      }
    } finally {
      this.busy = false;
    }
    return requoted;
  }

  private needsQuote(
    market: MarketView,
    mode: Mode,
    referenceTicks: number,
    atMs: number,
  ): boolean {
    const last = this.quoted.get(`${market.marketId}|${mode}`);
    if (!last) return true;
    const open = this.gateway.query((s) => getOpenOrders(s, owner, mode, market.marketId));
    // Someone traded against the quotes: restore full depth.
    if (open.length < last.orders || open.some((o) => o.filledLots > 0)) return true;
    if (atMs - last.atMs >= this.options.requoteIntervalMs) return true;
    const movedBps =
      (Math.abs(referenceTicks - last.referenceTicks) * 10_000) / last.referenceTicks;
    return movedBps >= this.options.requoteBps;
  }

  private async quote(market: MarketView, mode: Mode, referenceTicks: number, atMs: number) {
    const key = `${market.marketId}|${mode}`;
    const prefix = `mm:${mode}:${market.marketId}:${atMs}`;
    const last = this.quoted.get(key);
    const round = (last?.round ?? 0) + 1;
    // Volatility: the reference's move since the last quote, smoothed over a few quotes.
    const movedBps = last
      ? (Math.abs(referenceTicks - last.referenceTicks) * 10_000) / last.referenceTicks
      : 0;
    const volatilityBps = last ? (last.volatilityBps * 3 + movedBps) / 4 : 0;
    await this.gateway.submit({
      type: "cancel_all",
      id: `${prefix}:cancel`,
      ownerId: owner,
      mode,
      marketId: market.marketId,
    });
    const balance = (assetId: string) =>
      this.gateway.query((s) => getBalance(s, owner, mode, "fund", assetId)).available;
    const share = this.options.inventorySharePercent;
    let quoteBudget = (balance(market.quoteAssetId) * share) / 100n;
    let baseBudget = (balance(market.baseAssetId) * share) / 100n;
    const { levels, spreadBps, levelStepBps } = this.options;
    const spread =
      spreadBps + Math.min(volatilityBps * spreadWideningPerMoveBps, spreadWideningBpsMax);
    let placed = 0;
    const previous = { buy: Number.POSITIVE_INFINITY, sell: 0 };
    const offsetBps = { buy: spread / 2, sell: spread / 2 };
    for (let k = 0; k < levels; k++) {
      for (const side of ["buy", "sell"] as const) {
        const seed = `${key}|${round}|${side}|${k}`;
        // Gaps between levels vary from half to one and a half of the mean step.
        if (k > 0) {
          offsetBps[side] += (levelStepBps * (500 + seededPerMille(`${seed}|gap`))) / 1000;
        }
        const raw =
          side === "buy"
            ? Math.floor((referenceTicks * (10_000 - offsetBps[side])) / 10_000)
            : Math.ceil((referenceTicks * (10_000 + offsetBps[side])) / 10_000);
        // One order per price, strictly away from the touch, never crossing the other side.
        const ticks =
          side === "buy" ? Math.min(raw, previous.buy - 1) : Math.max(raw, previous.sell + 1);
        if (ticks < 1) continue;
        previous[side] = ticks;
        const lotValue = BigInt(ticks) * market.tickLotUnits;
        // Sizes from 0.3 to 2.3 times the mean, a little larger away from the touch.
        const sizePercent = BigInt(30 + Math.floor(seededPerMille(`${seed}|size`) / 5) + 8 * k);
        let lots = (this.options.notionalPerLevel * sizePercent) / 100n / lotValue;
        if (lots < BigInt(market.quantityLotsMin)) lots = BigInt(market.quantityLotsMin);
        if (lots > BigInt(market.quantityLotsMax)) lots = BigInt(market.quantityLotsMax);
        const cost = side === "buy" ? lots * lotValue : lots * market.lotUnits;
        if (side === "buy" ? cost > quoteBudget : cost > baseBudget) continue;
        const { result } = await this.gateway.submit({
          type: "place_order",
          id: `${prefix}:${side}:${k}`,
          ownerId: owner,
          mode,
          marketId: market.marketId,
          side,
          orderType: "limit",
          // Post-only: the maker adds depth and never takes a user's order.
          timeInForce: "post_only",
          priceTicks: ticks,
          quantityLots: Number(lots),
          quoteAmount: null,
        });
        if (!result.ok) continue;
        placed += 1;
        if (side === "buy") quoteBudget -= cost;
        else baseBudget -= cost;
      }
    }
    this.quoted.set(key, { referenceTicks, atMs, orders: placed, volatilityBps, round });
  }
}

/**
 * Demo inventory for the market maker: demo faucet → its demo wallet, like any demo user.
 * `amounts` are smallest units per asset. Fixed ids make it a one-time grant.
 */
export function demoFundingCommands(amounts: ReadonlyMap<string, bigint>): Unstamped<Command>[] {
  return [...amounts].map(([assetId, amount]) => ({
    type: "grant_demo",
    id: `mm:fund:demo:${assetId}`,
    ownerId: owner,
    mode: "demo",
    assetId,
    amount,
  }));
}

/**
 * Real inventory is money the operator actually put in: a deposit credit with the operator's
 * id and a reference, in the journal and on the market maker's statement. Nothing funds it
 * automatically.
 */
export function realFundingCommand(
  assetId: string,
  amount: bigint,
  reference: string,
  operatorId: string,
  id = `${reference}:${assetId}`,
): Unstamped<Command> {
  return {
    type: "credit_deposit",
    id: `mm:fund:real:${id}`,
    ownerId: owner,
    mode: "real",
    assetId,
    amount,
    reference,
    operatorId,
  };
}

/**
 * The operator's side of the labelled market maker: real inventory is money the operator
 * actually put in, credited by a journaled deposit with the operator's reference.
 */
export class MarketMakerFunding {
  constructor(private readonly engine: KernelGateway) {}

  /** Credits real inventory (idempotent by `body.id`); bad input changes nothing. */
  async fund(
    body: {
      /** Idempotency key of the credit. */
      id: string;
      assetId: string;
      /** Decimal string at the asset's decimals. */
      amount: string;
      /** The operator's reference (bank transfer, …), shown on the statement. */
      reference: string;
    },
    operatorId: string,
  ): Promise<{ credited: true; duplicate: boolean }> {
    const asset = this.engine.query((s) => getAssets(s).find((a) => a.assetId === body.assetId));
    const amount = asset ? parseAmount(body.amount, asset.scale) : undefined;
    if (!asset || !amount?.ok || amount.value <= 0n) {
      throw new AppError("validation_failed", [
        {
          path: asset ? "body.amount" : "body.assetId",
          message: asset ? "amount_invalid" : "asset_not_found",
        },
      ]);
    }
    const { result, duplicate } = await this.engine.submit(
      realFundingCommand(body.assetId, amount.value, body.reference, operatorId, body.id),
    );
    if (!result.ok) {
      throw new AppError("validation_failed", [{ path: "body", message: "rejected" }]);
    }
    return { credited: true, duplicate: duplicate ?? false };
  }
}

/**
 * Margin for the market maker's real perpetual quotes: the operator moves its operator-funded
 * real inventory (see `fund`) into its real contract wallet by the journaled
 * `fund_perp_market_maker` (kernel type 42), naming the operator, a reference and a reason.
 * The user-style wallet transfer stays refused for system owners in real mode.
 */
export function perpFundingCommand(
  body: { id: string; assetId: string; reference: string; reason: string },
  amount: bigint,
  operatorId: string | null,
): Unstamped<Command> {
  return {
    type: "fund_perp_market_maker",
    id: `mm:perp-fund:real:${body.id}`,
    assetId: body.assetId,
    amount,
    reference: body.reference,
    reason: body.reason,
    operatorId,
  };
}

export class PerpMarketMakerFunding {
  constructor(private readonly engine: KernelGateway) {}

  /** Moves real inventory into the contract wallet (idempotent by `body.id`). */
  async fund(
    body: { id: string; assetId: string; amount: string; reference: string; reason: string },
    operatorId: string | null,
  ): Promise<{ funded: true; duplicate: boolean }> {
    // Only a perpetual's quote asset is margin; anything else is refused before the journal.
    const asset = this.engine.query((s) =>
      [...s.perp.markets.values()].some((m) => m.params.quoteAssetId === body.assetId)
        ? getAssets(s).find((a) => a.assetId === body.assetId)
        : undefined,
    );
    const amount = asset ? parseAmount(body.amount, asset.scale) : undefined;
    if (!asset || !amount?.ok || amount.value <= 0n) {
      throw new AppError("validation_failed", [
        {
          path: asset ? "body.amount" : "body.assetId",
          message: asset ? "amount_invalid" : "asset_not_found",
        },
      ]);
    }
    const { result, duplicate } = await this.engine.submit(
      perpFundingCommand(body, amount.value, operatorId ?? "operator"),
    );
    if (!result.ok) {
      if (result.code === "insufficient_balance") throw new AppError("insufficient_balance");
      const path = result.code === "asset_not_found" ? "body.assetId" : "body";
      throw new AppError("validation_failed", [{ path, message: result.code }]);
    }
    return { funded: true, duplicate: duplicate ?? false };
  }
}
