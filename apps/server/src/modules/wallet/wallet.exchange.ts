import { createHash } from "node:crypto";
import type { ExchangeQuoteView, ExchangeRecordView } from "@candor/contract";
import { formatDecimal, mulDiv, pow10 } from "@candor/decimal";
import {
  formatAmount,
  getAssets,
  getBalance,
  getExchangeQuote,
  getLastTick,
  getMarkets,
  getNowMs,
  parseAmount,
  systemOwners,
  type Amount,
  type Event,
  type ExchangeQuoteView as KernelQuote,
} from "@candor/kernel";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { ExchangeRow, WalletRecordsRepository } from "./wallet.repository.ts";
import type { WalletEngine, WalletSession } from "./wallet.service.ts";

export interface QuickExchangeOptions {
  engine: WalletEngine;
  records: Pick<WalletRecordsRepository, "addExchange" | "exchangeByQuoteId" | "exchanges">;
  /** Disclosed spread against the tape price, basis points (default 50 = 0.5 %). */
  spreadBps?: number;
  /** How long a quote stands, ms (default 10,000). */
  quoteTtlMs?: number;
  /** A quote needs a tick at most this old, ms (default 60,000). */
  tickAgeMaxMs?: number;
  /**
   * Demo only: the demo house is topped up from the demo faucet to these amounts (whole units)
   * when a demo quote finds it below half. Demo money, never real; the real house holds only
   * what the operator credited (POST /api/v1/operator/house/deposits).
   */
  houseDemoFunding?: Readonly<Record<string, string>>;
}

const defaultHouseDemoFunding: Readonly<Record<string, string>> = {
  USDT: "10000000",
  BTC: "200",
  ETH: "3000",
};

/** Decimals a displayed rate keeps (rounded down). */
const RATE_SCALE = 18;

/**
 * Quick exchange: quotes priced by the kernel from the tape ± a disclosed spread, executed
 * against the labelled house; records of executed exchanges.
 */
export class QuickExchange {
  readonly spreadBps: number;
  readonly quoteTtlMs: number;
  private readonly tickAgeMaxMs: number;

  constructor(private readonly options: QuickExchangeOptions) {
    this.spreadBps = options.spreadBps ?? 50;
    this.quoteTtlMs = options.quoteTtlMs ?? 10_000;
    this.tickAgeMaxMs = options.tickAgeMaxMs ?? 60_000;
  }

  /** Pairs with a market (quoted both ways), their last tape price and tick. */
  pairs() {
    const items = this.options.engine.query((state) =>
      getMarkets(state).map((m) => {
        const tick = getLastTick(state, m.instrumentId);
        return {
          base: m.baseAssetId,
          quote: m.quoteAssetId,
          instrumentId: m.instrumentId,
          price: tick?.price ?? null,
          tickId: tick?.tickId ?? null,
        };
      }),
    );
    return {
      spreadBps: this.spreadBps,
      quoteTtlMs: this.quoteTtlMs,
      counterparty: systemOwners.house,
      items,
    };
  }

  async quote(
    session: WalletSession,
    input: { requestId: string; sourceAsset: string; targetAsset: string; sourceAmount: string },
  ): Promise<ExchangeQuoteView> {
    const assets = this.options.engine.query((s) => getAssets(s));
    const source = assets.find((a) => a.assetId === input.sourceAsset);
    const target = assets.find((a) => a.assetId === input.targetAsset);
    if (!source || !target) throw new AppError("asset_not_found");
    const paired = this.options.engine.query((s) =>
      getMarkets(s).some(
        (m) =>
          (m.baseAssetId === source.assetId && m.quoteAssetId === target.assetId) ||
          (m.quoteAssetId === source.assetId && m.baseAssetId === target.assetId),
      ),
    );
    if (!paired || source === target) throw new AppError("exchange_pair_unsupported");
    const amount = parseAmount(input.sourceAmount, source.scale);
    if (!amount.ok) throw new AppError(errorCodeOf(amount.code));
    if (amount.value <= 0n) throw new AppError("amount_must_be_positive");
    await ensureAccounts(this.options.engine, session.ownerId, session.mode);
    if (session.mode === "demo") await this.topUpDemoHouse(target.assetId, target.scale);
    const quoteId = `exchange_quote:${session.ownerId}:${session.mode}:${input.requestId}`;
    const applied = await submit(this.options.engine, {
      type: "exchange_quote",
      id: quoteId,
      ownerId: session.ownerId,
      mode: session.mode,
      sourceAssetId: source.assetId,
      sourceAmount: amount.value,
      targetAssetId: target.assetId,
      spreadBps: this.spreadBps,
      ttlMs: this.quoteTtlMs,
      tickAgeMaxMs: this.tickAgeMaxMs,
    });
    if (!applied.result.ok) {
      const code = applied.result.code;
      if (code === "market_not_found") throw new AppError("exchange_pair_unsupported");
      if (code === "quote_amount_too_small") throw new AppError("exchange_amount_too_small");
      throw new AppError(errorCodeOf(code));
    }
    const quote =
      quotedIn(applied.events) ??
      quotedIn(applied.first?.events ?? []) ??
      this.options.engine.query((s) => getExchangeQuote(s, quoteId));
    if (!quote) throw new AppError("quote_not_found");
    return this.quoteView({
      ...quote,
      sourceAsset: quote.sourceAssetId,
      targetAsset: quote.targetAssetId,
    });
  }

  async accept(session: WalletSession, quoteId: string): Promise<ExchangeRecordView> {
    // Accepting twice answers with the one exchange that happened.
    const done = await this.options.records.exchangeByQuoteId(quoteId);
    if (done) {
      if (done.ownerId !== session.ownerId || done.mode !== session.mode) {
        throw new AppError("quote_not_found");
      }
      return this.recordView(done);
    }
    const applied = await submit(this.options.engine, {
      type: "exchange_accept",
      id: acceptCommandId(session, quoteId),
      ownerId: session.ownerId,
      mode: session.mode,
      quoteId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const executed = [...applied.events, ...(applied.first?.events ?? [])].find(
      (e) => e.type === "exchange_executed",
    );
    if (executed?.type !== "exchange_executed") {
      const row = await this.options.records.exchangeByQuoteId(quoteId);
      if (!row) throw new AppError("quote_not_found");
      return this.recordView(row);
    }
    const q = executed.quote;
    const row: Omit<ExchangeRow, "id"> = {
      quoteId: q.quoteId,
      ownerId: q.ownerId,
      mode: q.mode,
      sourceAsset: q.sourceAssetId,
      sourceAmount: q.sourceAmount,
      targetAsset: q.targetAssetId,
      targetAmount: q.targetAmount,
      instrumentId: q.instrumentId,
      tickId: q.tickId,
      price: q.price,
      spreadBps: q.spreadBps,
      paymentPostingSeq: executed.paymentPostingSeq,
      deliveryPostingSeq: executed.deliveryPostingSeq,
      quotedAtMs: q.quotedAtMs,
      expiresAtMs: q.expiresAtMs,
      executedAtMs: executed.atMs,
    };
    await this.options.records.addExchange(row);
    return this.recordView({ ...row, id: 0n });
  }

  async list(session: WalletSession, page: { cursor?: string; limit: number }) {
    const rows = await this.options.records.exchanges({
      ownerId: session.ownerId,
      mode: session.mode,
      beforeId: page.cursor === undefined ? undefined : BigInt(page.cursor),
      limit: page.limit + 1,
    });
    const shown = rows.slice(0, page.limit);
    return {
      items: shown.map((row) => this.recordView(row)),
      nextCursor: rows.length > page.limit ? String(shown[shown.length - 1]!.id) : null,
    };
  }

  /** Operator: real money the operator put in, credited to the house with its reference. */
  async fundHouse(
    body: { id: string; assetId: string; amount: string; reference: string },
    operatorId: string,
  ) {
    const asset = this.options.engine
      .query((s) => getAssets(s))
      .find((a) => a.assetId === body.assetId);
    if (!asset) throw new AppError("asset_not_found");
    const amount = parseAmount(body.amount, asset.scale);
    if (!amount.ok) throw new AppError(errorCodeOf(amount.code));
    const applied = await submit(this.options.engine, {
      type: "credit_deposit",
      id: `house:fund:real:${body.id}`,
      ownerId: systemOwners.house,
      mode: "real",
      assetId: asset.assetId,
      amount: amount.value,
      reference: body.reference,
      operatorId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return { postingSeq: String(applied.result.value.postingSeq) };
  }

  /** Demo money from the demo faucet into the demo house, when it runs below half its target. */
  private async topUpDemoHouse(assetId: string, scale: number): Promise<void> {
    const text = (this.options.houseDemoFunding ?? defaultHouseDemoFunding)[assetId];
    if (text === undefined) return;
    const target = parseAmount(text, scale);
    if (!target.ok) return;
    const { held, nowMs } = this.options.engine.query((s) => ({
      held: getBalance(s, systemOwners.house, "demo", "fund", assetId).available,
      nowMs: getNowMs(s),
    }));
    if (held * 2n >= target.value) return;
    await submit(this.options.engine, {
      type: "grant_demo",
      id: `house:fund:demo:${assetId}:${nowMs}`,
      ownerId: systemOwners.house,
      mode: "demo",
      assetId,
      amount: target.value - held,
    });
  }

  private scaleOf(assetId: string): number {
    return (
      this.options.engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId)?.scale ?? 0
    );
  }

  private quoteView(q: {
    quoteId: string;
    mode: "real" | "demo";
    sourceAsset: string;
    sourceAmount: bigint;
    targetAsset: string;
    targetAmount: bigint;
    instrumentId: string;
    tickId: string;
    price: string;
    spreadBps: number;
    quotedAtMs: number;
    expiresAtMs: number;
  }): ExchangeQuoteView {
    const sourceScale = this.scaleOf(q.sourceAsset);
    const targetScale = this.scaleOf(q.targetAsset);
    // target / 10^ts ÷ (source / 10^ss), at 18 decimals, rounded down.
    const rate = mulDiv(
      q.targetAmount * pow10(sourceScale),
      pow10(RATE_SCALE),
      q.sourceAmount * pow10(targetScale),
      "floor",
    );
    return {
      quoteId: q.quoteId,
      mode: q.mode,
      sourceAsset: q.sourceAsset,
      sourceAmount: formatAmount(q.sourceAmount as Amount, sourceScale),
      targetAsset: q.targetAsset,
      targetAmount: formatAmount(q.targetAmount as Amount, targetScale),
      instrumentId: q.instrumentId,
      tickId: q.tickId,
      price: q.price,
      spreadBps: q.spreadBps,
      rate: formatDecimal(rate, RATE_SCALE),
      counterparty: systemOwners.house,
      quotedAtMs: q.quotedAtMs,
      expiresAtMs: q.expiresAtMs,
    };
  }

  private recordView(row: Omit<ExchangeRow, "id"> & { id: bigint }): ExchangeRecordView {
    return {
      ...this.quoteView(row),
      paymentPostingSeq: String(row.paymentPostingSeq),
      deliveryPostingSeq: String(row.deliveryPostingSeq),
      executedAtMs: row.executedAtMs,
    };
  }
}

/**
 * The accept's command id: one per session owner, mode and quote, so a retry is a duplicate,
 * while someone else's try at the same quote id (refused) does not take the owner's id.
 * Hashed to stay within the kernel's 128 characters.
 */
function acceptCommandId(session: WalletSession, quoteId: string): string {
  const digest = createHash("sha256")
    .update(`${session.ownerId}|${session.mode}|${quoteId}`)
    .digest("base64url");
  return `exchange_accept:${digest}`;
}

function quotedIn(events: readonly Event[]): KernelQuote | undefined {
  for (const event of events) if (event.type === "exchange_quoted") return event.quote;
  return undefined;
}
