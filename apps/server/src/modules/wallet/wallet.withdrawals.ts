import type { WithdrawalView, WithdrawNetwork } from "@candor/contract";
import { formatAmount, getAssets, getWithdrawal, parseAmount, type Amount } from "@candor/kernel";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { AddressBookSession } from "./wallet.addresses.ts";
import { cardLabel } from "./wallet.bank-cards.ts";
import type {
  BankCardRepository,
  WithdrawAddressRepository,
  WithdrawalRepository,
  WithdrawalRow,
  WithdrawalStepRow,
} from "./wallet.repository.ts";
import type { WalletEngine } from "./wallet.service.ts";
import type { WalletTradePassword } from "./wallet.transfers.ts";

/** Minimum and fee of one asset on one network, decimal strings of whole units. */
export interface WithdrawalTerms {
  minimum: string;
  fee: string;
}

/** What can be withdrawn where, at what cost, and when two operators must approve. */
export interface WithdrawalConfig {
  /** Asset → network → terms; a pair not listed cannot be withdrawn. */
  terms: Readonly<Record<string, Partial<Record<WithdrawNetwork, WithdrawalTerms>>>>;
  /** Asset → amount above which two different operators must approve (whole units). */
  twoApprovalsAbove: Readonly<Record<string, string>>;
  /** Asset → terms of withdrawals to a bound bank card (from the fiat wallet); unlisted: none. */
  bankTerms?: Readonly<Record<string, WithdrawalTerms>>;
}

/** Unless configured: USDT on the three chains deposits arrive on (issue 16). */
export const defaultWithdrawalConfig: WithdrawalConfig = {
  terms: {
    USDT: {
      ethereum: { minimum: "20", fee: "5" },
      bsc: { minimum: "10", fee: "1" },
      cronos: { minimum: "10", fee: "1" },
    },
  },
  twoApprovalsAbove: { USDT: "10000" },
  bankTerms: { USDT: { minimum: "10", fee: "1" } },
};

export interface WalletWithdrawalsOptions {
  engine: WalletEngine;
  repository: WithdrawalRepository;
  addresses: Pick<WithdrawAddressRepository, "byId">;
  /** The user's bound bank cards (bank-card withdrawals). */
  bankCards?: Pick<BankCardRepository, "byId">;
  tradePassword: WalletTradePassword;
  /** The transfers' trade-password budget: false when the user is over it. */
  allowTradePasswordAttempt: (userId: bigint) => boolean;
  now: () => number;
  /** The terms in force (the limits store's, which operators may change). */
  config: () => WithdrawalConfig;
}

/** The user a withdrawal belongs to, as the wallet routes see them. */
export type WithdrawalSession = AddressBookSession & { ownerId: string };

/** A 'requested' record this old without a kernel hold was never held (see `settle`). */
const settleAfterMs = 60_000;

/**
 * Withdrawals (spec tibi, tibiList): requested by the user to a saved address after its wait,
 * amount + fee held by the kernel at once; approved (by two different operators above the
 * configured amount), marked sent with the transaction hash, completed (the kernel pays the
 * amount out and the fee to `system:fees`), or rejected/cancelled (the kernel releases the hold).
 *
 * The record is written first as 'requested', keyed by the kernel command id, then the hold
 * is submitted; `settle` moves a record a crash left behind to what the kernel says. Every
 * change of one withdrawal runs one at a time in this process, so a cancel and a "sent" cannot
 * cross (one server process writes the journal).
 */
export class WalletWithdrawals {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly options: WalletWithdrawalsOptions) {}

  /** The table shown before confirming. */
  terms() {
    const config = this.options.config();
    const items = [];
    for (const [asset, networks] of Object.entries(config.terms)) {
      for (const [network, terms] of Object.entries(networks)) {
        if (!terms) continue;
        items.push({
          asset,
          network: network as WithdrawNetwork,
          minimum: terms.minimum,
          fee: terms.fee,
          twoApprovalsAbove: config.twoApprovalsAbove[asset] ?? null,
        });
      }
    }
    const bank = Object.entries(config.bankTerms ?? {}).map(([asset, terms]) => ({
      asset,
      minimum: terms.minimum,
      fee: terms.fee,
      twoApprovalsAbove: config.twoApprovalsAbove[asset] ?? null,
    }));
    return { items, bank };
  }

  async request(
    session: WithdrawalSession,
    input: {
      requestId: string;
      addressId: string;
      asset: string;
      amount: string;
      tradePassword: string;
    },
  ): Promise<WithdrawalView> {
    requireReal(session);
    const commandId = `withdrawal:${session.ownerId}:${input.requestId}`;
    const recorded = await this.options.repository.byCommandId(commandId);
    const done = recorded && (await this.settle(recorded));
    if (done) return this.view(done);
    const asset = this.asset(input.asset);
    const amount = this.parse(input.amount, asset.scale);
    if (amount <= 0n) throw new AppError("amount_must_be_positive");
    const address = await this.options.addresses.byId(session.userId, BigInt(input.addressId));
    if (!address) throw new AppError("withdraw_address_not_found");
    const now = this.options.now();
    if (address.usableFromMs > now) {
      throw new AppError("withdraw_address_locked", undefined, {
        params: { usableFrom: utcTime(address.usableFromMs) },
      });
    }
    const terms = this.options.config().terms[asset.assetId]?.[address.network];
    if (!terms) throw new AppError("withdraw_not_supported");
    return this.hold(session, {
      commandId,
      asset,
      amount,
      terms,
      tradePassword: input.tradePassword,
      destination: {
        network: address.network,
        addressId: address.id,
        address: address.address,
        wallet: "fund",
        payee: null,
      },
    });
  }

  /** A withdrawal to a bound bank card, held on the fiat wallet (`withdrawal_hold_wallet`). */
  async requestBank(
    session: WithdrawalSession,
    input: {
      requestId: string;
      cardId: string;
      asset: string;
      amount: string;
      tradePassword: string;
    },
  ): Promise<WithdrawalView> {
    requireReal(session);
    const commandId = `withdrawal:${session.ownerId}:${input.requestId}`;
    const recorded = await this.options.repository.byCommandId(commandId);
    const done = recorded && (await this.settle(recorded));
    if (done) return this.view(done);
    const asset = this.asset(input.asset);
    const amount = this.parse(input.amount, asset.scale);
    if (amount <= 0n) throw new AppError("amount_must_be_positive");
    const card = await this.options.bankCards?.byId(session.userId, BigInt(input.cardId));
    if (!card) throw new AppError("bank_card_not_found");
    const terms = this.options.config().bankTerms?.[asset.assetId];
    if (!terms) throw new AppError("withdraw_not_supported");
    return this.hold(session, {
      commandId,
      asset,
      amount,
      terms,
      tradePassword: input.tradePassword,
      destination: {
        network: "bank",
        addressId: card.id,
        address: cardLabel(card),
        wallet: "fiat",
        payee: {
          cardholder: card.cardholder,
          bankName: card.bankName,
          branch: card.branch,
          cardNumber: card.cardNumber,
        },
      },
    });
  }

  /** Minimum, trade password, record, then the kernel's hold of amount + fee. */
  private async hold(
    session: WithdrawalSession,
    input: {
      commandId: string;
      asset: { assetId: string; scale: number };
      amount: bigint;
      terms: WithdrawalTerms;
      tradePassword: string;
      destination: Pick<WithdrawalRow, "network" | "addressId" | "address" | "wallet" | "payee">;
    },
  ): Promise<WithdrawalView> {
    const { asset, amount, commandId } = input;
    if (amount < this.parse(input.terms.minimum, asset.scale)) {
      throw new AppError("withdraw_below_minimum");
    }
    const fee = this.parse(input.terms.fee, asset.scale);
    if (!this.options.allowTradePasswordAttempt(session.userId)) {
      throw new AppError("rate_limited");
    }
    await this.options.tradePassword.verify(session.userId, input.tradePassword);
    const above = this.options.config().twoApprovalsAbove[asset.assetId];
    const approvalsRequired =
      above !== undefined && amount > this.parse(above, asset.scale) ? 2 : 1;
    const now = this.options.now();
    const id = await this.options.repository.insertRequested({
      commandId,
      userId: session.userId,
      assetId: asset.assetId,
      ...input.destination,
      amount,
      fee,
      approvalsRequired,
      requestedAtMs: now,
      updatedAtMs: now,
    });
    if (id === undefined) {
      // The same request id is being handled (or was): answer what is recorded.
      const row = await this.options.repository.byCommandId(commandId);
      const settled = row && (await this.settle(row));
      if (!settled) throw new AppError("service_unavailable");
      return this.view(settled);
    }
    const base = {
      id: commandId,
      ownerId: session.ownerId,
      mode: "real" as const,
      assetId: asset.assetId,
      amount,
      fee,
      withdrawalId: commandId,
    };
    // Crypto withdrawals keep their original command, so their journal reads as before.
    const applied = await submit(
      this.options.engine,
      input.destination.wallet === "fund"
        ? { type: "withdrawal_hold_fee", ...base }
        : { type: "withdrawal_hold_wallet", ...base, wallet: input.destination.wallet },
    );
    if (!applied.result.ok) {
      await this.options.repository.removeRequested(id);
      throw new AppError(errorCodeOf(applied.result.code));
    }
    await this.options.repository.transition(id, ["requested"], "pending", {
      operatorId: null,
      detail: null,
      atMs: applied.command.atMs,
    });
    return this.recorded(id);
  }

  async list(session: WithdrawalSession, page: { cursor?: string; limit: number }) {
    requireReal(session);
    const rows = await this.options.repository.ofUser(
      session.userId,
      page.cursor === undefined ? undefined : BigInt(page.cursor),
      page.limit + 1,
    );
    const shown = rows.slice(0, page.limit);
    return {
      items: await this.views(shown),
      nextCursor: rows.length > page.limit ? String(shown[shown.length - 1]!.id) : null,
    };
  }

  async detail(session: WithdrawalSession, withdrawalId: string): Promise<WithdrawalView> {
    requireReal(session);
    return this.view(await this.own(session, withdrawalId));
  }

  /** The user cancels before it is sent: the kernel releases amount and fee. */
  async cancel(session: WithdrawalSession, withdrawalId: string): Promise<WithdrawalView> {
    requireReal(session);
    const row = await this.own(session, withdrawalId);
    return this.release(row, "cancelled", null, null);
  }

  // Operator steps. `operatorId` is the operator the request authenticated as.

  async pending(status: WithdrawalRow["status"], limit: number) {
    const rows = await this.options.repository.inStatus(status, limit);
    return { items: await this.operatorViews(rows) };
  }

  /** One withdrawal as the operator sees it. */
  async operatorDetail(withdrawalId: string) {
    const row = await this.found(withdrawalId);
    return this.operatorView(row.id);
  }

  async approve(withdrawalId: string, operatorId: string) {
    const row = await this.found(withdrawalId);
    return this.serialized(row.commandId, async () => {
      const approvals = await this.options.repository.approve(
        row.id,
        operatorId,
        this.options.now(),
      );
      if (approvals === undefined) throw new AppError("withdrawal_same_operator");
      if (approvals < 0) throw new AppError("withdrawal_state_invalid");
      return this.operatorView(row.id);
    });
  }

  async markSent(withdrawalId: string, operatorId: string, txHash: string) {
    const row = await this.found(withdrawalId);
    // A bank-card withdrawal is paid with a bank reference (`markPaid`), not a chain hash.
    if (row.network === "bank") throw new AppError("withdrawal_state_invalid");
    return this.serialized(row.commandId, async () => {
      const moved = await this.options.repository.transition(
        row.id,
        ["approved"],
        "sent",
        { operatorId, detail: txHash, atMs: this.options.now() },
        { txHash },
      );
      if (!moved) throw new AppError("withdrawal_state_invalid");
      return this.operatorView(row.id);
    });
  }

  /**
   * A bank-card withdrawal was paid: approved → sent with the bank's reference (and the
   * operator's reason in the step). `complete` then pays the held amount out of the fiat wallet.
   */
  async markPaid(withdrawalId: string, operatorId: string, bankReference: string, reason: string) {
    const row = await this.found(withdrawalId);
    if (row.network !== "bank") throw new AppError("withdrawal_state_invalid");
    return this.serialized(row.commandId, async () => {
      const moved = await this.options.repository.transition(
        row.id,
        ["approved"],
        "sent",
        { operatorId, detail: `${bankReference} (${reason})`, atMs: this.options.now() },
        { txHash: bankReference },
      );
      if (!moved) throw new AppError("withdrawal_state_invalid");
      return this.operatorView(row.id);
    });
  }

  /** The payout is confirmed: the kernel pays the held amount out and the fee to fees. */
  async complete(withdrawalId: string, operatorId: string | null) {
    const row = await this.found(withdrawalId);
    return this.serialized(row.commandId, async () => {
      const current = await this.options.repository.byId(row.id);
      if (current?.status !== "sent" || current.txHash === null) {
        throw new AppError("withdrawal_state_invalid");
      }
      // The payout's posting names every operator who approved it, then the one who completed
      // it (`7+9`, or `7+9+12`), so the user's statement shows both approvers (issue 17).
      const approvers = (await this.options.repository.steps([row.id]))
        .filter((step) => step.status === "approved" && step.operatorId !== null)
        .map((step) => step.operatorId!);
      const named = [...new Set([...approvers, ...(operatorId === null ? [] : [operatorId])])];
      const applied = await submit(this.options.engine, {
        type: "withdrawal_complete",
        id: `withdrawal_complete:${row.commandId}`,
        withdrawalId: row.commandId,
        reference: current.txHash,
        operatorId: named.length === 0 ? null : named.join("+"),
      });
      if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
      await this.options.repository.transition(
        row.id,
        ["sent"],
        "completed",
        { operatorId, detail: current.txHash, atMs: applied.command.atMs },
        { postingSeq: applied.result.value.postingSeq },
      );
      return this.operatorView(row.id);
    });
  }

  async reject(withdrawalId: string, operatorId: string, reason: string) {
    const row = await this.found(withdrawalId);
    await this.release(row, "rejected", operatorId, reason);
    return this.operatorView(row.id);
  }

  /**
   * Settles 'requested' records a crash left between the record and the kernel's answer:
   * held by the kernel → pending; not held (and old enough not to be in flight) → removed.
   */
  async settleAll(): Promise<void> {
    const rows = await this.options.repository.requestedBefore(this.options.now() + 1);
    for (const row of rows) await this.settle(row, true);
  }

  /** The record as the kernel says it is; undefined when it was never held (removed). */
  private async settle(row: WithdrawalRow, atStart = false): Promise<WithdrawalRow | undefined> {
    if (row.status !== "requested") return row;
    const held = this.options.engine.query((s) => getWithdrawal(s, row.commandId));
    if (held) {
      await this.options.repository.transition(row.id, ["requested"], "pending", {
        operatorId: null,
        detail: null,
        atMs: this.options.now(),
      });
    } else if (atStart || row.requestedAtMs < this.options.now() - settleAfterMs) {
      await this.options.repository.removeRequested(row.id);
      return undefined;
    }
    return (await this.options.repository.byId(row.id)) ?? row;
  }

  private async release(
    row: WithdrawalRow,
    to: "cancelled" | "rejected",
    operatorId: string | null,
    reason: string | null,
  ): Promise<WithdrawalView> {
    return this.serialized(row.commandId, async () => {
      const current = await this.options.repository.byId(row.id);
      if (current?.status !== "pending" && current?.status !== "approved") {
        throw new AppError("withdrawal_state_invalid");
      }
      const applied = await submit(this.options.engine, {
        type: "withdrawal_cancel",
        id: `withdrawal_${to === "cancelled" ? "cancel" : "reject"}:${row.commandId}`,
        withdrawalId: row.commandId,
        operatorId,
      });
      if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
      await this.options.repository.transition(
        row.id,
        ["pending", "approved"],
        to,
        { operatorId, detail: reason, atMs: applied.command.atMs },
        reason === null ? {} : { rejectReason: reason },
      );
      return this.recorded(row.id);
    });
  }

  private async own(session: WithdrawalSession, withdrawalId: string): Promise<WithdrawalRow> {
    const row = await this.options.repository.byId(BigInt(withdrawalId));
    if (!row || row.userId !== session.userId || row.status === "requested") {
      throw new AppError("withdrawal_not_found");
    }
    return row;
  }

  private async found(withdrawalId: string): Promise<WithdrawalRow> {
    const row = await this.options.repository.byId(BigInt(withdrawalId));
    if (!row || row.status === "requested") throw new AppError("withdrawal_not_found");
    return row;
  }

  private async recorded(id: bigint): Promise<WithdrawalView> {
    const row = await this.options.repository.byId(id);
    if (!row) throw new AppError("internal_error");
    return this.view(row);
  }

  private async operatorView(id: bigint) {
    const row = await this.options.repository.byId(id);
    if (!row) throw new AppError("internal_error");
    return (await this.operatorViews([row]))[0]!;
  }

  private async operatorViews(rows: WithdrawalRow[]) {
    const views = await this.views(rows);
    return views.map((view, i) => ({
      ...view,
      userId: String(rows[i]!.userId),
      payee: rows[i]!.payee,
    }));
  }

  private async view(row: WithdrawalRow): Promise<WithdrawalView> {
    return (await this.views([row]))[0]!;
  }

  private async views(rows: WithdrawalRow[]): Promise<WithdrawalView[]> {
    const steps = await this.options.repository.steps(rows.map((r) => r.id));
    return rows.map((row) => {
      const own = steps.filter((s) => s.withdrawalId === row.id);
      const scale = this.scaleOf(row.assetId);
      const format = (v: bigint) => formatAmount(v as Amount, scale);
      return {
        withdrawalId: String(row.id),
        asset: row.assetId,
        network: row.network,
        addressId: String(row.addressId),
        address: row.address,
        wallet: row.wallet,
        amount: format(row.amount),
        fee: format(row.fee),
        total: format(row.amount + row.fee),
        status: row.status === "requested" ? "pending" : row.status,
        approvalsRequired: row.approvalsRequired,
        approvals: own.filter((s) => s.status === "approved").length,
        txHash: row.txHash,
        rejectReason: row.rejectReason,
        postingSeq: row.postingSeq === null ? null : String(row.postingSeq),
        requestedAtMs: row.requestedAtMs,
        updatedAtMs: row.updatedAtMs,
        steps: own.map(stepView),
      };
    });
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

  private parse(text: string, scale: number): bigint {
    const amount = parseAmount(text, scale);
    if (!amount.ok) throw new AppError(errorCodeOf(amount.code));
    return amount.value;
  }

  private async serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.catch(() => undefined);
    this.locks.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    }
  }
}

function stepView(step: WithdrawalStepRow): WithdrawalView["steps"][number] {
  return {
    status: step.status,
    operatorId: step.operatorId,
    detail: step.detail,
    atMs: step.atMs,
  };
}

function requireReal(session: AddressBookSession): void {
  if (session.demoOnly || session.mode === "demo") {
    throw new AppError("demo_withdraw_not_allowed");
  }
}

/** A time as the error message shows it: `2026-11-27 13:00 UTC`. */
function utcTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}
