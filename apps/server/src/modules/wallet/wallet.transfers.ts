import type { TransferView } from "@candor/contract";
import { formatAmount, getAssets, parseAmount, type Amount, type Wallet } from "@candor/kernel";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, openAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { TransferRow, WalletRecordsRepository } from "./wallet.repository.ts";
import type { WalletEngine, WalletSession } from "./wallet.service.ts";

/**
 * The auth module's trade-password check (app.ts passes `auth.tradePassword`; same shape).
 * Throws `AppError("trade_password_not_set")` or `AppError("trade_password_invalid")`.
 */
export interface WalletTradePassword {
  verify(userId: bigint, tradePassword: string): Promise<void>;
}

/** What the wallet needs to know about a transfer's recipient; the auth service provides it. */
export interface RecipientDirectory {
  /** The masked name and whether the user is demo-only; undefined for an unknown id. */
  transferRecipient(userId: bigint): Promise<{ maskedName: string; demoOnly: boolean } | undefined>;
}

export interface WalletTransfersOptions {
  engine: WalletEngine;
  records: Pick<
    WalletRecordsRepository,
    "addTransfer" | "transferByCommandId" | "transfers" | "sentToUsersSince"
  >;
  recipients: RecipientDirectory;
  tradePassword: WalletTradePassword;
  /** Counts one trade-password attempt of a user; false when the user is over the limit. */
  allowTradePasswordAttempt: (userId: bigint) => boolean;
  now: () => number;
  /**
   * Most a user may send to other users per asset over any 24 hours, as decimal strings of
   * whole units. An asset not listed cannot be sent to another user.
   */
  userTransferDailyLimits: () => Readonly<Record<string, string>>;
}

/** Transfer limits unless configured: generous for a person, small for a thief. */
export const defaultUserTransferDailyLimits: Readonly<Record<string, string>> = {
  USDT: "50000",
  BTC: "2",
  ETH: "30",
};

const dayMs = 24 * 60 * 60_000;

/**
 * Transfers between a user's own wallets (any mode, instant) and to another user (real money
 * only: demo money never leaves its demo accounts), with a record for both sides.
 */
export class WalletTransfers {
  /** One user-to-user transfer per sender at a time, so the 24-hour limit is checked in order. */
  private readonly senderLocks = new Map<string, Promise<unknown>>();

  constructor(private readonly options: WalletTransfersOptions) {}

  async betweenWallets(
    session: WalletSession,
    input: {
      requestId: string;
      asset: string;
      amount: string;
      sourceWallet: Wallet;
      targetWallet: Wallet;
    },
  ): Promise<TransferView> {
    if (input.sourceWallet === input.targetWallet) throw new AppError("same_wallet");
    const asset = this.asset(input.asset);
    const amount = this.amount(input.amount, asset.scale);
    const commandId = `transfer_wallet:${session.ownerId}:${session.mode}:${input.requestId}`;
    await ensureAccounts(this.options.engine, session.ownerId, session.mode);
    const applied = await submit(this.options.engine, {
      type: "transfer_wallet",
      id: commandId,
      ownerId: session.ownerId,
      mode: session.mode,
      assetId: asset.assetId,
      amount,
      sourceWallet: input.sourceWallet,
      targetWallet: input.targetWallet,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    await this.options.records.addTransfer({
      commandId,
      kind: "wallet",
      ownerId: session.ownerId,
      mode: session.mode,
      assetId: asset.assetId,
      amount,
      sourceWallet: input.sourceWallet,
      targetWallet: input.targetWallet,
      recipientId: null,
      recipientName: null,
      senderName: null,
      postingSeq: applied.result.value.postingSeq,
      atMs: applied.command.atMs,
    });
    return this.recorded(commandId, session);
  }

  /** The recipient's masked name, for the sender to check before confirming. */
  async recipient(session: WalletSession, userId: string) {
    if (session.mode !== "real") throw new AppError("demo_not_allowed");
    if (userId === session.ownerId) throw new AppError("recipient_is_self");
    const found = await this.options.recipients.transferRecipient(BigInt(userId));
    if (!found || found.demoOnly) throw new AppError("recipient_not_found");
    return { userId, maskedName: found.maskedName };
  }

  async toUser(
    session: WalletSession & { userId: bigint },
    input: {
      requestId: string;
      recipientId: string;
      asset: string;
      amount: string;
      tradePassword: string;
      confirmIrreversible: boolean;
    },
  ): Promise<TransferView> {
    if (session.mode !== "real") throw new AppError("demo_not_allowed");
    if (!input.confirmIrreversible) throw new AppError("confirmation_required");
    const recipient = await this.recipient(session, input.recipientId);
    const asset = this.asset(input.asset);
    const amount = this.amount(input.amount, asset.scale);
    const commandId = `transfer_user:${session.ownerId}:${input.requestId}`;
    const done = await this.options.records.transferByCommandId(commandId);
    if (done) return this.recorded(commandId, session);
    if (!this.options.allowTradePasswordAttempt(session.userId)) {
      throw new AppError("rate_limited");
    }
    await this.options.tradePassword.verify(session.userId, input.tradePassword);
    return this.serialized(session.ownerId, async () => {
      const limit = this.dailyLimit(asset.assetId, asset.scale);
      const sent = await this.options.records.sentToUsersSince(
        session.ownerId,
        asset.assetId,
        this.options.now() - dayMs,
      );
      if (sent + amount > limit) throw new AppError("transfer_limit_exceeded");
      const opened = await openAccounts(this.options.engine, recipient.userId, "real");
      if (!opened.ok) throw new AppError("recipient_not_found");
      const applied = await submit(this.options.engine, {
        type: "transfer_user",
        id: commandId,
        ownerId: session.ownerId,
        mode: "real",
        assetId: asset.assetId,
        amount,
        targetOwnerId: recipient.userId,
      });
      if (!applied.result.ok) {
        const code = applied.result.code;
        throw new AppError(code === "same_account" ? "recipient_is_self" : errorCodeOf(code));
      }
      const sender = await this.options.recipients.transferRecipient(session.userId);
      await this.options.records.addTransfer({
        commandId,
        kind: "user",
        ownerId: session.ownerId,
        mode: "real",
        assetId: asset.assetId,
        amount,
        sourceWallet: "fund",
        targetWallet: "fund",
        recipientId: recipient.userId,
        recipientName: recipient.maskedName,
        senderName: sender?.maskedName ?? null,
        postingSeq: applied.result.value.postingSeq,
        atMs: applied.command.atMs,
      });
      return this.recorded(commandId, session);
    });
  }

  /** Each listed asset's 24-hour limit and what is left of it. */
  async limits(session: WalletSession) {
    const since = this.options.now() - dayMs;
    const limits = this.options.userTransferDailyLimits();
    const items = [];
    for (const asset of this.options.engine.query((s) => getAssets(s))) {
      if (limits[asset.assetId] === undefined) continue;
      const limit = this.dailyLimit(asset.assetId, asset.scale);
      const sent =
        session.mode === "real"
          ? await this.options.records.sentToUsersSince(session.ownerId, asset.assetId, since)
          : 0n;
      const left = limit > sent ? limit - sent : 0n;
      items.push({
        asset: asset.assetId,
        limit: formatAmount(limit as Amount, asset.scale),
        left: formatAmount((session.mode === "real" ? left : 0n) as Amount, asset.scale),
      });
    }
    return { items };
  }

  async list(session: WalletSession, page: { cursor?: string; limit: number }) {
    const rows = await this.options.records.transfers({
      ownerId: session.ownerId,
      mode: session.mode,
      beforeId: page.cursor === undefined ? undefined : BigInt(page.cursor),
      limit: page.limit + 1,
    });
    const shown = rows.slice(0, page.limit);
    return {
      items: shown.map((row) => this.view(row, session.ownerId)),
      nextCursor: rows.length > page.limit ? String(shown[shown.length - 1]!.id) : null,
    };
  }

  private async recorded(commandId: string, session: WalletSession): Promise<TransferView> {
    const row = await this.options.records.transferByCommandId(commandId);
    if (!row) throw new AppError("internal_error");
    return this.view(row, session.ownerId);
  }

  private view(row: TransferRow, self: string): TransferView {
    const scale = this.scaleOf(row.assetId);
    const direction = row.kind === "wallet" ? "self" : row.ownerId === self ? "out" : "in";
    return {
      transferId: String(row.id),
      kind: row.kind,
      direction,
      mode: row.mode,
      asset: row.assetId,
      amount: formatAmount(row.amount as Amount, scale),
      sourceWallet: row.sourceWallet as TransferView["sourceWallet"],
      targetWallet: row.targetWallet as TransferView["targetWallet"],
      counterpartyId:
        row.kind === "wallet" ? null : direction === "out" ? row.recipientId : row.ownerId,
      counterpartyName:
        row.kind === "wallet" ? null : direction === "out" ? row.recipientName : row.senderName,
      postingSeq: String(row.postingSeq),
      atMs: row.atMs,
    };
  }

  private asset(assetId: string) {
    const asset = this.options.engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId);
    if (!asset) throw new AppError("asset_not_found");
    return asset;
  }

  private scaleOf(assetId: string): number {
    return (
      this.options.engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId)?.scale ?? 0
    );
  }

  private amount(text: string, scale: number): bigint {
    const amount = parseAmount(text, scale);
    if (!amount.ok) throw new AppError(errorCodeOf(amount.code));
    if (amount.value <= 0n) throw new AppError("amount_must_be_positive");
    return amount.value;
  }

  private dailyLimit(assetId: string, scale: number): bigint {
    const text = this.options.userTransferDailyLimits()[assetId];
    if (text === undefined) return 0n;
    const parsed = parseAmount(text, scale);
    return parsed.ok ? parsed.value : 0n;
  }

  private async serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.senderLocks.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.catch(() => undefined);
    this.senderLocks.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.senderLocks.get(key) === settled) this.senderLocks.delete(key);
    }
  }
}
