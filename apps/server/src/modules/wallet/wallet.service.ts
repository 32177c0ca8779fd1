import { randomBytes } from "node:crypto";
import type { SpotBalanceView, StatementExportView, StatementLineView } from "@candor/contract";
import { chainStatement } from "@candor/proof";
import {
  formatAmount,
  getAssets,
  getBalances,
  getLastTick,
  getMarkets,
  parseAmount,
  type Amount,
  type Mode,
  type Wallet,
} from "@candor/kernel";
import type { CandorCommand, Submitted } from "../../engine/kernel-port.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit, type EngineSubmitQuery } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { WalletRepository } from "./wallet.repository.ts";
import { walletAccounts } from "./wallet.valuation.ts";
import { fundBalances, statementLineView } from "./wallet.views.ts";

/** What the wallet needs from the engine: submit commands, read state and its sequence. */
export type WalletEngine = EngineSubmitQuery & { readonly sequence: bigint };
/** What can be withdrawn where and at what cost (the limits store keeps the one in force). */
export type { WithdrawalConfig } from "./wallet.withdrawals.ts";

/** The session the request runs in: the user's kernel owner id and mode. */
export interface WalletSession {
  ownerId: string;
  mode: Mode;
}

export interface WalletServiceOptions {
  engine: WalletEngine;
  repository: WalletRepository;
  /** Largest demo grant per request, in whole units of the value asset (default 100,000). */
  demoGrantValueMax?: bigint;
  /** The asset demo grants are valued in (default USDT). */
  demoValueAsset?: string;
}

/**
 * The user's money: fund wallet balances (from the kernel's memory), the statement (from the
 * read models) and demo funds (grants and resets, demo mode only). Transfers and deposits
 * belong here too when they come.
 */
export class WalletService {
  private readonly engine: WalletEngine;
  private readonly repository: WalletRepository;

  constructor(private readonly options: WalletServiceOptions) {
    this.engine = options.engine;
    this.repository = options.repository;
  }

  /**
   * The fund wallet of the session's mode. Demo accounts open with their demo money the first
   * time they are looked at.
   */
  async balances(session: WalletSession): Promise<{ mode: Mode; items: SpotBalanceView[] }> {
    if (session.mode === "demo") await ensureAccounts(this.engine, session.ownerId, "demo");
    return { mode: session.mode, items: this.fund(session) };
  }

  /** The fund, contract and fiat wallets valued in the valuation asset at tape prices. */
  async accounts(session: WalletSession) {
    if (session.mode === "demo") await ensureAccounts(this.engine, session.ownerId, "demo");
    const valuationAsset = this.options.demoValueAsset ?? "USDT";
    return {
      mode: session.mode,
      valuationAsset,
      ...this.engine.query((state) =>
        walletAccounts(state, session.ownerId, session.mode, valuationAsset),
      ),
    };
  }

  async statement(
    session: WalletSession,
    filter: { asset?: string; cursor?: string; limit: number; wallet?: Wallet },
  ): Promise<{ items: StatementLineView[]; nextCursor: string | null }> {
    const scales = new Map(
      this.engine.query((s) => getAssets(s)).map((a) => [a.assetId, a.scale] as const),
    );
    const rows = await this.repository.statement({
      ownerId: session.ownerId,
      mode: session.mode,
      wallet: filter.wallet ?? "fund",
      assetId: filter.asset,
      beforeSeq: filter.cursor === undefined ? undefined : Number(filter.cursor),
      limit: filter.limit + 1,
    });
    const page = rows.slice(0, filter.limit);
    return {
      items: page.map((r) => statementLineView(r, scales.get(r.assetId) ?? 0, session.ownerId)),
      nextCursor: rows.length > filter.limit ? String(page[page.length - 1]!.postingSeq) : null,
    };
  }

  /**
   * The whole statement of the session's mode up to the engine's sequence now, oldest first,
   * chained by hash, with the kernel's balances at that sequence: the lines must add up to them
   * (the user checks it with `verifyStatement`). Waits for the read models to reach the
   * sequence; if they do not within `catchUpMs`, answers 503 so the client retries.
   */
  async exportStatement(session: WalletSession, catchUpMs = 5_000): Promise<StatementExportView> {
    const { sequence, balances, assets } = this.engine.query((state) => ({
      sequence: this.engine.sequence,
      balances: getBalances(state, session.ownerId, session.mode),
      assets: getAssets(state),
    }));
    const deadline = Date.now() + catchUpMs;
    while ((await this.repository.readModelCursor()) < sequence) {
      if (Date.now() > deadline) throw new AppError("service_unavailable");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const rows = await this.repository.wholeStatement(session.ownerId, session.mode, sequence);
    const scales = new Map(assets.map((a) => [a.assetId, a.scale]));
    const scaleOf = (assetId: string) => scales.get(assetId) ?? 0;
    const { lines, head } = chainStatement(
      session.ownerId,
      session.mode,
      rows.map((row) => {
        const { amount: _, ...view } = statementLineView(
          row,
          scaleOf(row.assetId),
          session.ownerId,
        );
        return { ...view, wallet: row.wallet as Wallet, units: row.amount };
      }),
      scaleOf,
    );
    const used = new Set([...rows.map((r) => r.assetId), ...balances.map((b) => b.assetId)]);
    return {
      version: 1,
      userId: session.ownerId,
      mode: session.mode,
      sequence: String(sequence),
      generatedAtMs: Date.now(),
      assets: assets
        .filter((a) => used.has(a.assetId))
        .map((a) => ({ asset: a.assetId, scale: a.scale })),
      balances: balances.map((b) => ({
        wallet: b.wallet,
        asset: b.assetId,
        amount: formatAmount((b.available + b.held) as Amount, scaleOf(b.assetId)),
      })),
      lines: lines as StatementExportView["lines"],
      head,
    };
  }

  /** Adds demo money from the demo faucet (demo mode only), capped per request. */
  async grantDemo(
    session: WalletSession,
    input: { requestId: string; asset: string; amount: string },
  ): Promise<SpotBalanceView[]> {
    if (session.mode !== "demo") throw new AppError("demo_mode_required");
    const asset = this.engine.query((s) => getAssets(s)).find((a) => a.assetId === input.asset);
    if (!asset) throw new AppError("asset_not_found");
    const amount = parseAmount(input.amount, asset.scale);
    if (!amount.ok) throw new AppError(errorCodeOf(amount.code));
    if (amount.value > this.demoGrantMax(asset.assetId, asset.scale)) {
      throw new AppError("amount_above_maximum");
    }
    await ensureAccounts(this.engine, session.ownerId, session.mode);
    await this.submit({
      type: "grant_demo",
      id: `demo_grant:${session.ownerId}:${input.requestId}`,
      ownerId: session.ownerId,
      mode: "demo",
      assetId: asset.assetId,
      amount: amount.value,
    });
    return this.fund(session);
  }

  /** Cancels the demo orders and starts again with the initial demo balance (demo mode only). */
  async resetDemo(
    session: WalletSession,
  ): Promise<{ cancelledCount: number; items: SpotBalanceView[] }> {
    if (session.mode !== "demo") throw new AppError("demo_mode_required");
    await ensureAccounts(this.engine, session.ownerId, session.mode);
    const applied = await this.submit({
      type: "reset_demo",
      id: `demo_reset:${session.ownerId}:${randomBytes(9).toString("base64url")}`,
      ownerId: session.ownerId,
      mode: "demo",
    });
    return {
      cancelledCount: applied.result.ok ? (applied.result.value.cancelledCount ?? 0) : 0,
      items: this.fund(session),
    };
  }

  private fund(session: WalletSession): SpotBalanceView[] {
    return this.engine.query((state) => fundBalances(state, session.ownerId, session.mode));
  }

  /** Submits a command; a kernel rejection is thrown as its API error. */
  private async submit<C extends CandorCommand>(command: C): Promise<Submitted<C>> {
    const applied = await submit(this.engine, command);
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return applied;
  }

  /**
   * The largest demo grant of an asset in one request: the value asset up to the configured
   * amount; other assets up to the same value at their market's last price (none without one).
   */
  private demoGrantMax(assetId: string, scale: number): bigint {
    const valueAsset = this.options.demoValueAsset ?? "USDT";
    const valueMax = this.options.demoGrantValueMax ?? 100_000n;
    if (assetId === valueAsset) return valueMax * 10n ** BigInt(scale);
    return this.engine.query((state) => {
      for (const m of getMarkets(state)) {
        if (m.baseAssetId !== assetId || m.quoteAssetId !== valueAsset) continue;
        const tick = getLastTick(state, m.instrumentId);
        const price = tick ? parseAmount(tick.price, m.quoteScale) : undefined;
        if (!price?.ok || price.value <= 0n) continue;
        // amount × price / 10^baseScale ≤ valueMax × 10^quoteScale, rounded down.
        return (valueMax * 10n ** BigInt(m.quoteScale) * 10n ** BigInt(scale)) / price.value;
      }
      return 0n;
    });
  }
}
