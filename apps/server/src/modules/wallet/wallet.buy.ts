import { createHash } from "node:crypto";
import type { ExchangeQuoteView, ExchangeRecordView } from "@candor/contract";
import {
  formatAmount,
  getAssets,
  getBalance,
  getExchangeQuote,
  getLastTick,
  getMarkets,
  parseAmount,
  systemOwners,
  type Amount,
} from "@candor/kernel";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { AppError } from "../../http/app-error.ts";
import type { QuickExchange } from "./wallet.exchange.ts";
import type { WalletEngine, WalletSession } from "./wallet.service.ts";
import type { WalletTransfers } from "./wallet.transfers.ts";

export interface WalletBuyOptions {
  engine: WalletEngine;
  exchange: QuickExchange;
  transfers: Pick<WalletTransfers, "betweenWallets">;
  now: () => number;
  /** What buys are paid with, from the fiat wallet (default USDT). */
  payAsset?: string;
  /** How long after its expiry an unaccepted buy quote's payment is moved back, ms. */
  returnGraceMs?: number;
}

interface StandingBuy {
  session: WalletSession;
  quoteId: string;
  amount: string;
  expiresAtMs: number;
}

/**
 * Buy (spec index/buy): crypto for the fiat wallet's balance at a quick-exchange quote.
 *
 * The kernel prices and executes quick exchanges from the fund wallet, so a buy is three
 * journaled steps the user sees in the statement: the payment moves fiat → fund (a wallet
 * transfer), the kernel quotes (tape price ± the disclosed spread, expiry, the house must hold
 * what it promises) and, on accept before the expiry, executes exactly at the quote. A quote that
 * is refused, or expires unaccepted, has its payment moved back fund → fiat. The money never
 * leaves the user's own wallets between the steps.
 */
export class WalletBuy {
  private readonly payAsset: string;
  private readonly standing = new Map<string, StandingBuy>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: WalletBuyOptions) {
    this.payAsset = options.payAsset ?? "USDT";
  }

  /** Moves the payments of expired, unaccepted quotes back, every few seconds. */
  start(): void {
    this.timer ??= setInterval(() => void this.returnExpired(), 2_000);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.returnExpired(Number.POSITIVE_INFINITY);
  }

  options_(session: WalletSession) {
    const { items, available, scale } = this.options.engine.query((s) => {
      const asset = getAssets(s).find((a) => a.assetId === this.payAsset);
      const markets = getMarkets(s).filter((m) => m.quoteAssetId === this.payAsset);
      return {
        scale: asset?.scale ?? 0,
        available: getBalance(s, session.ownerId, session.mode, "fiat", this.payAsset).available,
        items: markets.map((m) => {
          const tick = getLastTick(s, m.instrumentId);
          return {
            asset: m.baseAssetId,
            instrumentId: m.instrumentId,
            price: tick?.price ?? null,
            tickId: tick?.tickId ?? null,
          };
        }),
      };
    });
    return {
      payAsset: this.payAsset,
      available: formatAmount(available as Amount, scale),
      spreadBps: this.options.exchange.spreadBps,
      quoteTtlMs: this.options.exchange.quoteTtlMs,
      counterparty: systemOwners.house,
      items,
    };
  }

  async quote(
    session: WalletSession,
    input: { requestId: string; asset: string; amount: string },
  ): Promise<ExchangeQuoteView> {
    if (input.asset === this.payAsset) throw new AppError("exchange_pair_unsupported");
    const scale = this.options.engine
      .query((s) => getAssets(s))
      .find((a) => a.assetId === this.payAsset)?.scale;
    if (scale === undefined) throw new AppError("asset_not_found");
    const parsed = parseAmount(input.amount, scale);
    if (!parsed.ok) throw new AppError(errorCodeOf(parsed.code));
    if (parsed.value <= 0n) throw new AppError("amount_must_be_positive");
    const available = this.options.engine.query(
      (s) => getBalance(s, session.ownerId, session.mode, "fiat", this.payAsset).available,
    );
    if (available < parsed.value) throw new AppError("insufficient_balance");
    const key = `${session.ownerId}|${session.mode}|${input.requestId}`;
    await this.options.transfers.betweenWallets(session, {
      requestId: requestIdOf("buy-pay", key),
      asset: this.payAsset,
      amount: input.amount,
      sourceWallet: "fiat",
      targetWallet: "fund",
    });
    try {
      const quote = await this.options.exchange.quote(session, {
        requestId: input.requestId,
        sourceAsset: this.payAsset,
        targetAsset: input.asset,
        sourceAmount: input.amount,
      });
      this.standing.set(quote.quoteId, {
        session,
        quoteId: quote.quoteId,
        amount: input.amount,
        expiresAtMs: quote.expiresAtMs,
      });
      this.start();
      return quote;
    } catch (error) {
      await this.payBack(session, key, input.amount);
      throw error;
    }
  }

  async accept(session: WalletSession, quoteId: string): Promise<ExchangeRecordView> {
    const buy = this.standing.get(quoteId);
    const quote = this.options.engine.query((s) => getExchangeQuote(s, quoteId));
    if (
      buy === undefined ||
      buy.session.ownerId !== session.ownerId ||
      buy.session.mode !== session.mode
    ) {
      // Not a standing buy of this user: an executed one answers as it was, else not found.
      return this.options.exchange.accept(session, quoteId);
    }
    // A standing buy whose quote the kernel no longer holds has expired (pruned by the clock).
    if (quote === undefined) throw new AppError("quote_expired");
    try {
      const record = await this.options.exchange.accept(session, quoteId);
      this.standing.delete(quoteId);
      return record;
    } catch (error) {
      if (error instanceof AppError && error.code !== "quote_expired") {
        // Refused for good (the house or the balance no longer covers it): pay back now.
        this.standing.delete(quoteId);
        await this.payBack(session, keyOf(buy), buy.amount);
      }
      throw error;
    }
  }

  /** Pays back every standing buy whose quote expired `returnGraceMs` ago (or all: Infinity). */
  async returnExpired(nowMs = this.options.now()): Promise<void> {
    const grace = this.options.returnGraceMs ?? 2_000;
    for (const buy of [...this.standing.values()]) {
      if (nowMs < buy.expiresAtMs + grace) continue;
      this.standing.delete(buy.quoteId);
      try {
        await this.payBack(buy.session, keyOf(buy), buy.amount);
      } catch {
        // The user moved the money themselves (it is theirs, in their fund wallet): nothing to do.
      }
    }
  }

  private async payBack(session: WalletSession, key: string, amount: string): Promise<void> {
    await this.options.transfers.betweenWallets(session, {
      requestId: requestIdOf("buy-back", key),
      asset: this.payAsset,
      amount,
      sourceWallet: "fund",
      targetWallet: "fiat",
    });
  }
}

function keyOf(buy: StandingBuy): string {
  // The quote id is `exchange_quote:<owner>:<mode>:<requestId>`.
  const requestId = buy.quoteId.split(":").slice(3).join(":");
  return `${buy.session.ownerId}|${buy.session.mode}|${requestId}`;
}

/** A transfer request id derived from the buy, so a retry is the same transfer. */
function requestIdOf(prefix: string, key: string): string {
  return `${prefix}-${createHash("sha256").update(key).digest("base64url").slice(0, 40)}`;
}
