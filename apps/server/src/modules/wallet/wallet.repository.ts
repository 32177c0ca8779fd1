import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import { projectorName } from "../../read-models/projector.ts";

/** One statement line with the owner of the other side of its posting. */
export interface StatementRow {
  postingSeq: number;
  wallet: string;
  assetId: string;
  amount: bigint;
  fromHeld: boolean;
  reason: string;
  counterOwnerId: string | null;
  orderId: number | null;
  fillId: number | null;
  tickId: string | null;
  operatorId: string | null;
  reference: string | null;
  sequence: bigint;
  atMs: number;
}

/** The only file of the wallet module that speaks SQL: reads of the statement read model. */
export class WalletRepository {
  constructor(private readonly database: Database) {}

  /** Statement lines of one owner's wallet (fund by default), newest first, before `beforeSeq`. */
  async statement(filter: {
    ownerId: string;
    mode: string;
    wallet?: string;
    assetId?: string;
    beforeSeq?: number;
    limit: number;
  }): Promise<StatementRow[]> {
    const where = [
      sql`l.owner_id = ${filter.ownerId}`,
      sql`l.mode = ${filter.mode}`,
      sql`l.wallet = ${filter.wallet ?? "fund"}`,
    ];
    if (filter.assetId) where.push(sql`l.asset_id = ${filter.assetId}`);
    if (filter.beforeSeq !== undefined) where.push(sql`l.posting_seq < ${filter.beforeSeq}`);
    const rows = await sql<Record<string, unknown>>`
      SELECT ${lineColumns} FROM rm_statement_lines l ${counterJoin}
      WHERE ${sql.join(where, sql` AND `)}
      ORDER BY l.posting_seq DESC LIMIT ${filter.limit}`.execute(this.database.db);
    return rows.rows.map(toStatementRow);
  }

  /**
   * Every statement line of one owner and mode (all wallets) made at or before journal
   * sequence `upTo`, oldest first (the two sides of a move between the owner's own wallets by
   * wallet, then asset, in byte order): the statement export.
   */
  async wholeStatement(ownerId: string, mode: string, upTo: bigint): Promise<StatementRow[]> {
    const rows = await sql<Record<string, unknown>>`
      SELECT ${lineColumns} FROM rm_statement_lines l ${counterJoin}
      WHERE l.owner_id = ${ownerId} AND l.mode = ${mode} AND l.sequence <= ${upTo}
      ORDER BY l.posting_seq, l.wallet COLLATE "C", l.asset_id COLLATE "C"`.execute(
      this.database.db,
    );
    return rows.rows.map(toStatementRow);
  }

  /** The last journal sequence the read models hold. */
  async readModelCursor(): Promise<bigint> {
    const rows = await sql<{ sequence: bigint }>`SELECT sequence FROM read_model_cursor
      WHERE name = ${projectorName}`.execute(this.database.db);
    return BigInt(rows.rows[0]?.sequence ?? 0n);
  }
}

const lineColumns = sql`l.posting_seq, l.wallet, l.asset_id, l.amount::text AS amount,
  l.from_held, l.reason, o.owner_id AS counter_owner_id, l.order_id, l.fill_id, l.tick_id,
  l.operator_id, l.reference, l.sequence, l.at_ms`;
const counterJoin = sql`LEFT JOIN rm_statement_lines o
  ON o.posting_seq = l.posting_seq AND o.account <> l.account`;

function toStatementRow(r: Record<string, unknown>): StatementRow {
  return {
    postingSeq: Number(r.posting_seq),
    wallet: r.wallet as string,
    assetId: r.asset_id as string,
    amount: BigInt(r.amount as string),
    fromHeld: r.from_held as boolean,
    reason: r.reason as string,
    counterOwnerId: (r.counter_owner_id as string | null) ?? null,
    orderId: r.order_id === null ? null : Number(r.order_id),
    fillId: r.fill_id === null ? null : Number(r.fill_id),
    tickId: (r.tick_id as string | null) ?? null,
    operatorId: (r.operator_id as string | null) ?? null,
    reference: (r.reference as string | null) ?? null,
    sequence: BigInt(r.sequence as bigint),
    atMs: Number(r.at_ms),
  };
}

/** A transfer record as stored. */
export interface TransferRow {
  id: bigint;
  commandId: string;
  kind: "wallet" | "user";
  ownerId: string;
  mode: "real" | "demo";
  assetId: string;
  amount: bigint;
  sourceWallet: string;
  targetWallet: string;
  recipientId: string | null;
  recipientName: string | null;
  senderName: string | null;
  postingSeq: number;
  atMs: number;
}

/** An executed quick exchange as stored. */
export interface ExchangeRow {
  id: bigint;
  quoteId: string;
  ownerId: string;
  mode: "real" | "demo";
  sourceAsset: string;
  sourceAmount: bigint;
  targetAsset: string;
  targetAmount: bigint;
  instrumentId: string;
  tickId: string;
  price: string;
  spreadBps: number;
  paymentPostingSeq: number;
  deliveryPostingSeq: number;
  quotedAtMs: number;
  expiresAtMs: number;
  executedAtMs: number;
}

function transferRow(r: Record<string, unknown>): TransferRow {
  return {
    id: BigInt(r.id as string),
    commandId: r.command_id as string,
    kind: r.kind as TransferRow["kind"],
    ownerId: r.owner_id as string,
    mode: r.mode as TransferRow["mode"],
    assetId: r.asset_id as string,
    amount: BigInt(r.amount as string),
    sourceWallet: r.source_wallet as string,
    targetWallet: r.target_wallet as string,
    recipientId: (r.recipient_id as string | null) ?? null,
    recipientName: (r.recipient_name as string | null) ?? null,
    senderName: (r.sender_name as string | null) ?? null,
    postingSeq: Number(r.posting_seq),
    atMs: Number(r.at_ms),
  };
}

function exchangeRow(r: Record<string, unknown>): ExchangeRow {
  return {
    id: BigInt(r.id as string),
    quoteId: r.quote_id as string,
    ownerId: r.owner_id as string,
    mode: r.mode as ExchangeRow["mode"],
    sourceAsset: r.source_asset as string,
    sourceAmount: BigInt(r.source_amount as string),
    targetAsset: r.target_asset as string,
    targetAmount: BigInt(r.target_amount as string),
    instrumentId: r.instrument_id as string,
    tickId: r.tick_id as string,
    price: r.price as string,
    spreadBps: Number(r.spread_bps),
    paymentPostingSeq: Number(r.payment_posting_seq),
    deliveryPostingSeq: Number(r.delivery_posting_seq),
    quotedAtMs: Number(r.quoted_at_ms),
    expiresAtMs: Number(r.expires_at_ms),
    executedAtMs: Number(r.executed_at_ms),
  };
}

const transferColumns = sql`id::text AS id, command_id, kind, owner_id, mode, asset_id,
  amount::text AS amount, source_wallet, target_wallet, recipient_id, recipient_name,
  sender_name, posting_seq, at_ms`;
const exchangeColumns = sql`id::text AS id, quote_id, owner_id, mode, source_asset,
  source_amount::text AS source_amount, target_asset, target_amount::text AS target_amount,
  instrument_id, tick_id, price, spread_bps, payment_posting_seq, delivery_posting_seq,
  quoted_at_ms, expires_at_ms, executed_at_ms`;

/** Transfer and exchange records: the wallet module's own tables (migration 0011). */
export class WalletRecordsRepository {
  constructor(private readonly database: Database) {}

  /** Stores a transfer once; a second insert of the same command id changes nothing. */
  async addTransfer(row: Omit<TransferRow, "id">): Promise<void> {
    await sql`INSERT INTO wallet_transfers (command_id, kind, owner_id, mode, asset_id, amount,
        source_wallet, target_wallet, recipient_id, recipient_name, sender_name, posting_seq,
        at_ms)
      VALUES (${row.commandId}, ${row.kind}, ${row.ownerId}, ${row.mode}, ${row.assetId},
        ${row.amount.toString()}, ${row.sourceWallet}, ${row.targetWallet}, ${row.recipientId},
        ${row.recipientName}, ${row.senderName}, ${row.postingSeq}, ${row.atMs})
      ON CONFLICT (command_id) DO NOTHING`.execute(this.database.db);
  }

  async transferByCommandId(commandId: string): Promise<TransferRow | undefined> {
    const rows = await sql<Record<string, unknown>>`SELECT ${transferColumns}
      FROM wallet_transfers WHERE command_id = ${commandId}`.execute(this.database.db);
    return rows.rows[0] === undefined ? undefined : transferRow(rows.rows[0]);
  }

  /** Transfers an owner sent or received in a mode, newest first, before the id `beforeId`. */
  async transfers(filter: {
    ownerId: string;
    mode: string;
    beforeId?: bigint;
    limit: number;
  }): Promise<TransferRow[]> {
    const before = filter.beforeId === undefined ? sql`` : sql`AND id < ${filter.beforeId}`;
    const rows = await sql<Record<string, unknown>>`SELECT ${transferColumns}
      FROM wallet_transfers
      WHERE mode = ${filter.mode} AND (owner_id = ${filter.ownerId} OR recipient_id = ${filter.ownerId})
        ${before}
      ORDER BY id DESC LIMIT ${filter.limit}`.execute(this.database.db);
    return rows.rows.map(transferRow);
  }

  /** Smallest units of one asset an owner sent to other users since `sinceMs`. */
  async sentToUsersSince(ownerId: string, assetId: string, sinceMs: number): Promise<bigint> {
    const rows = await sql<{ total: string | null }>`SELECT sum(amount)::text AS total
      FROM wallet_transfers
      WHERE owner_id = ${ownerId} AND mode = 'real' AND kind = 'user' AND asset_id = ${assetId}
        AND at_ms >= ${sinceMs}`.execute(this.database.db);
    return BigInt(rows.rows[0]?.total ?? "0");
  }

  async addExchange(row: Omit<ExchangeRow, "id">): Promise<void> {
    await sql`INSERT INTO wallet_exchanges (quote_id, owner_id, mode, source_asset, source_amount,
        target_asset, target_amount, instrument_id, tick_id, price, spread_bps,
        payment_posting_seq, delivery_posting_seq, quoted_at_ms, expires_at_ms, executed_at_ms)
      VALUES (${row.quoteId}, ${row.ownerId}, ${row.mode}, ${row.sourceAsset},
        ${row.sourceAmount.toString()}, ${row.targetAsset}, ${row.targetAmount.toString()},
        ${row.instrumentId}, ${row.tickId}, ${row.price}, ${row.spreadBps},
        ${row.paymentPostingSeq}, ${row.deliveryPostingSeq}, ${row.quotedAtMs},
        ${row.expiresAtMs}, ${row.executedAtMs})
      ON CONFLICT (quote_id) DO NOTHING`.execute(this.database.db);
  }

  async exchangeByQuoteId(quoteId: string): Promise<ExchangeRow | undefined> {
    const rows = await sql<Record<string, unknown>>`SELECT ${exchangeColumns}
      FROM wallet_exchanges WHERE quote_id = ${quoteId}`.execute(this.database.db);
    return rows.rows[0] === undefined ? undefined : exchangeRow(rows.rows[0]);
  }

  async exchanges(filter: {
    ownerId: string;
    mode: string;
    beforeId?: bigint;
    limit: number;
  }): Promise<ExchangeRow[]> {
    const before = filter.beforeId === undefined ? sql`` : sql`AND id < ${filter.beforeId}`;
    const rows = await sql<Record<string, unknown>>`SELECT ${exchangeColumns}
      FROM wallet_exchanges
      WHERE owner_id = ${filter.ownerId} AND mode = ${filter.mode} ${before}
      ORDER BY id DESC LIMIT ${filter.limit}`.execute(this.database.db);
    return rows.rows.map(exchangeRow);
  }
}

/** A saved withdrawal address. */
export interface WithdrawAddressRow {
  id: bigint;
  userId: bigint;
  network: "ethereum" | "bsc" | "cronos";
  address: string;
  remark: string;
  usableFromMs: number;
  createdAtMs: number;
}

function withdrawAddressRow(r: Record<string, unknown>): WithdrawAddressRow {
  return {
    id: BigInt(r.id as string),
    userId: BigInt(r.user_id as string),
    network: r.network as WithdrawAddressRow["network"],
    address: r.address as string,
    remark: r.remark as string,
    usableFromMs: Number(r.usable_from_ms),
    createdAtMs: Number(r.created_at_ms),
  };
}

const addressColumns = sql`id::text AS id, user_id::text AS user_id, network, address, remark,
  usable_from_ms, created_at_ms`;

/** The withdrawal address book (migration 0012). */
export class WithdrawAddressRepository {
  constructor(private readonly database: Database) {}

  async list(userId: bigint): Promise<WithdrawAddressRow[]> {
    const rows = await sql<Record<string, unknown>>`SELECT ${addressColumns}
      FROM wallet_withdraw_addresses WHERE user_id = ${userId} ORDER BY id`.execute(
      this.database.db,
    );
    return rows.rows.map(withdrawAddressRow);
  }

  async byId(userId: bigint, id: bigint): Promise<WithdrawAddressRow | undefined> {
    const rows = await sql<Record<string, unknown>>`SELECT ${addressColumns}
      FROM wallet_withdraw_addresses WHERE user_id = ${userId} AND id = ${id}`.execute(
      this.database.db,
    );
    return rows.rows[0] === undefined ? undefined : withdrawAddressRow(rows.rows[0]);
  }

  async count(userId: bigint): Promise<number> {
    const rows = await sql<{ n: string }>`SELECT count(*)::text AS n
      FROM wallet_withdraw_addresses WHERE user_id = ${userId}`.execute(this.database.db);
    return Number(rows.rows[0]?.n ?? 0);
  }

  /** The new row's id, or undefined when the user already saved this address on this network. */
  async insert(row: Omit<WithdrawAddressRow, "id">): Promise<bigint | undefined> {
    const rows = await sql<{ id: string }>`INSERT INTO wallet_withdraw_addresses
        (user_id, network, address, remark, usable_from_ms, created_at_ms)
      VALUES (${row.userId}, ${row.network}, ${row.address}, ${row.remark}, ${row.usableFromMs},
        ${row.createdAtMs})
      ON CONFLICT (user_id, network, address) DO NOTHING
      RETURNING id::text AS id`.execute(this.database.db);
    return rows.rows[0] === undefined ? undefined : BigInt(rows.rows[0].id);
  }

  /** False when the change would duplicate another saved address. */
  async update(
    userId: bigint,
    id: bigint,
    change: Pick<WithdrawAddressRow, "network" | "address" | "remark" | "usableFromMs">,
  ): Promise<boolean> {
    const clash = await sql<{ id: string }>`SELECT id::text AS id FROM wallet_withdraw_addresses
      WHERE user_id = ${userId} AND network = ${change.network} AND address = ${change.address}
        AND id <> ${id}`.execute(this.database.db);
    if (clash.rows.length > 0) return false;
    await sql`UPDATE wallet_withdraw_addresses SET network = ${change.network},
        address = ${change.address}, remark = ${change.remark},
        usable_from_ms = ${change.usableFromMs}
      WHERE user_id = ${userId} AND id = ${id}`.execute(this.database.db);
    return true;
  }

  async remove(userId: bigint, id: bigint): Promise<boolean> {
    const rows = await sql<{ id: string }>`DELETE FROM wallet_withdraw_addresses
      WHERE user_id = ${userId} AND id = ${id} RETURNING id::text AS id`.execute(this.database.db);
    return rows.rows.length > 0;
  }
}

/** What a bank card carries (spec §3: cardholder name, bank name, branch, card number). */
export interface BankCardDetails {
  cardholder: string;
  bankName: string;
  branch: string;
  /** Letters and digits only, upper case (spaces and hyphens removed at input). */
  cardNumber: string;
}

export interface BankCardRow extends BankCardDetails {
  id: bigint;
  userId: bigint;
  createdAtMs: number;
}

const bankCardColumns = sql`id::text AS id, user_id::text AS user_id, cardholder, bank_name,
  branch, card_number, created_at_ms`;

function bankCardRow(r: Record<string, unknown>): BankCardRow {
  return {
    id: BigInt(r.id as string),
    userId: BigInt(r.user_id as string),
    cardholder: r.cardholder as string,
    bankName: r.bank_name as string,
    branch: r.branch as string,
    cardNumber: r.card_number as string,
    createdAtMs: Number(r.created_at_ms),
  };
}

/** The user's bound bank cards (migration 0027). */
export class BankCardRepository {
  constructor(private readonly database: Database) {}

  async list(userId: bigint): Promise<BankCardRow[]> {
    const rows = await sql<Record<string, unknown>>`SELECT ${bankCardColumns}
      FROM wallet_bank_cards WHERE user_id = ${userId} ORDER BY id`.execute(this.database.db);
    return rows.rows.map(bankCardRow);
  }

  async byId(userId: bigint, id: bigint): Promise<BankCardRow | undefined> {
    const rows = await sql<Record<string, unknown>>`SELECT ${bankCardColumns}
      FROM wallet_bank_cards WHERE user_id = ${userId} AND id = ${id}`.execute(this.database.db);
    return rows.rows[0] === undefined ? undefined : bankCardRow(rows.rows[0]);
  }

  async count(userId: bigint): Promise<number> {
    const rows = await sql<{ n: string }>`SELECT count(*)::text AS n
      FROM wallet_bank_cards WHERE user_id = ${userId}`.execute(this.database.db);
    return Number(rows.rows[0]?.n ?? 0);
  }

  /** The new card's id, or undefined when the user already bound this number. */
  async insert(row: Omit<BankCardRow, "id">): Promise<bigint | undefined> {
    const rows = await sql<{ id: string }>`INSERT INTO wallet_bank_cards
        (user_id, cardholder, bank_name, branch, card_number, created_at_ms)
      VALUES (${row.userId}, ${row.cardholder}, ${row.bankName}, ${row.branch},
        ${row.cardNumber}, ${row.createdAtMs})
      ON CONFLICT (user_id, card_number) DO NOTHING
      RETURNING id::text AS id`.execute(this.database.db);
    return rows.rows[0] === undefined ? undefined : BigInt(rows.rows[0].id);
  }

  async remove(userId: bigint, id: bigint): Promise<boolean> {
    const rows = await sql<{ id: string }>`DELETE FROM wallet_bank_cards
      WHERE user_id = ${userId} AND id = ${id} RETURNING id::text AS id`.execute(this.database.db);
    return rows.rows.length > 0;
  }
}

/** A withdrawal record as stored (migration 0015, 0027). */
export interface WithdrawalRow {
  id: bigint;
  commandId: string;
  userId: bigint;
  assetId: string;
  /** A chain, or "bank" for a bank-card withdrawal (migration 0027). */
  network: WithdrawAddressRow["network"] | "bank";
  /** The saved address's id, or the bank card's. */
  addressId: bigint;
  /** The address, or the card's masked number. */
  address: string;
  /** The wallet the amount is held on: "fund" (crypto) or "fiat" (bank card). */
  wallet: "fund" | "fiat";
  /** A bank-card withdrawal's payee, copied from the card at request; null for addresses. */
  payee: BankCardDetails | null;
  amount: bigint;
  fee: bigint;
  status: "requested" | "pending" | "approved" | "sent" | "completed" | "rejected" | "cancelled";
  approvalsRequired: number;
  txHash: string | null;
  rejectReason: string | null;
  postingSeq: number | null;
  requestedAtMs: number;
  updatedAtMs: number;
}

/** One step of a withdrawal's history. */
export interface WithdrawalStepRow {
  withdrawalId: bigint;
  status: WithdrawalRow["status"];
  operatorId: string | null;
  detail: string | null;
  atMs: number;
}

const withdrawalColumns = sql`id::text AS id, command_id, user_id::text AS user_id, asset_id,
  network, address_id::text AS address_id, address, amount::text AS amount, fee::text AS fee,
  status, approvals_required, tx_hash, reject_reason, posting_seq, requested_at_ms,
  updated_at_ms, wallet, payee_cardholder, payee_bank_name, payee_branch, payee_card_number`;

function withdrawalRow(r: Record<string, unknown>): WithdrawalRow {
  return {
    id: BigInt(r.id as string),
    commandId: r.command_id as string,
    userId: BigInt(r.user_id as string),
    assetId: r.asset_id as string,
    network: r.network as WithdrawalRow["network"],
    addressId: BigInt(r.address_id as string),
    address: r.address as string,
    wallet: r.wallet === "fiat" ? "fiat" : "fund",
    payee:
      r.payee_card_number === null || r.payee_card_number === undefined
        ? null
        : {
            cardholder: r.payee_cardholder as string,
            bankName: r.payee_bank_name as string,
            branch: r.payee_branch as string,
            cardNumber: r.payee_card_number as string,
          },
    amount: BigInt(r.amount as string),
    fee: BigInt(r.fee as string),
    status: r.status as WithdrawalRow["status"],
    approvalsRequired: Number(r.approvals_required),
    txHash: (r.tx_hash as string | null) ?? null,
    rejectReason: (r.reject_reason as string | null) ?? null,
    postingSeq: r.posting_seq === null ? null : Number(r.posting_seq),
    requestedAtMs: Number(r.requested_at_ms),
    updatedAtMs: Number(r.updated_at_ms),
  };
}

/** Withdrawal records and their steps (migration 0015). */
export class WithdrawalRepository {
  constructor(private readonly database: Database) {}

  /** Writes the record as 'requested'; undefined when the command id already has one. */
  async insertRequested(
    row: Omit<WithdrawalRow, "id" | "status" | "txHash" | "rejectReason" | "postingSeq">,
  ): Promise<bigint | undefined> {
    const rows = await sql<{ id: string }>`INSERT INTO wallet_withdrawals (command_id, user_id,
        asset_id, network, address_id, address, amount, fee, status, approvals_required,
        requested_at_ms, updated_at_ms, wallet, payee_cardholder, payee_bank_name, payee_branch,
        payee_card_number)
      VALUES (${row.commandId}, ${row.userId}, ${row.assetId}, ${row.network}, ${row.addressId},
        ${row.address}, ${row.amount.toString()}, ${row.fee.toString()}, 'requested',
        ${row.approvalsRequired}, ${row.requestedAtMs}, ${row.updatedAtMs}, ${row.wallet},
        ${row.payee?.cardholder ?? null}, ${row.payee?.bankName ?? null},
        ${row.payee?.branch ?? null}, ${row.payee?.cardNumber ?? null})
      ON CONFLICT (command_id) DO NOTHING RETURNING id::text AS id`.execute(this.database.db);
    if (rows.rows[0] === undefined) return undefined;
    const id = BigInt(rows.rows[0].id);
    await this.addStep({
      withdrawalId: id,
      status: "requested",
      operatorId: null,
      detail: null,
      atMs: row.requestedAtMs,
    });
    return id;
  }

  /** A 'requested' record the kernel never held: nothing happened, so nothing is kept. */
  async removeRequested(id: bigint): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      const found = await sql<{ id: string }>`SELECT id::text AS id FROM wallet_withdrawals
        WHERE id = ${id} AND status = 'requested' FOR UPDATE`.execute(trx);
      if (found.rows.length === 0) return;
      await sql`DELETE FROM wallet_withdrawal_steps WHERE withdrawal_id = ${id}`.execute(trx);
      await sql`DELETE FROM wallet_withdrawals WHERE id = ${id}`.execute(trx);
    });
  }

  async byCommandId(commandId: string): Promise<WithdrawalRow | undefined> {
    const rows = await sql<Record<string, unknown>>`SELECT ${withdrawalColumns}
      FROM wallet_withdrawals WHERE command_id = ${commandId}`.execute(this.database.db);
    return rows.rows[0] === undefined ? undefined : withdrawalRow(rows.rows[0]);
  }

  async byId(id: bigint): Promise<WithdrawalRow | undefined> {
    const rows = await sql<Record<string, unknown>>`SELECT ${withdrawalColumns}
      FROM wallet_withdrawals WHERE id = ${id}`.execute(this.database.db);
    return rows.rows[0] === undefined ? undefined : withdrawalRow(rows.rows[0]);
  }

  /** A user's withdrawals, newest first, before `beforeId`. */
  async ofUser(userId: bigint, beforeId: bigint | undefined, limit: number) {
    const before = beforeId === undefined ? sql`` : sql`AND id < ${beforeId}`;
    const rows = await sql<Record<string, unknown>>`SELECT ${withdrawalColumns}
      FROM wallet_withdrawals WHERE user_id = ${userId} AND status <> 'requested' ${before}
      ORDER BY id DESC LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map(withdrawalRow);
  }

  /** Withdrawals in one state, oldest first. */
  async inStatus(status: WithdrawalRow["status"], limit: number): Promise<WithdrawalRow[]> {
    const rows = await sql<Record<string, unknown>>`SELECT ${withdrawalColumns}
      FROM wallet_withdrawals WHERE status = ${status} ORDER BY id LIMIT ${limit}`.execute(
      this.database.db,
    );
    return rows.rows.map(withdrawalRow);
  }

  /**
   * Moves a record from one of `from` to `to` with a step, atomically; false when it was not in
   * one of those states any more (someone else moved it first).
   */
  async transition(
    id: bigint,
    from: readonly WithdrawalRow["status"][],
    to: WithdrawalRow["status"],
    step: { operatorId: string | null; detail: string | null; atMs: number },
    set: { txHash?: string; rejectReason?: string; postingSeq?: number } = {},
  ): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const updated = await sql<{ id: string }>`UPDATE wallet_withdrawals SET status = ${to},
          tx_hash = coalesce(${set.txHash ?? null}, tx_hash),
          reject_reason = coalesce(${set.rejectReason ?? null}, reject_reason),
          posting_seq = coalesce(${set.postingSeq ?? null}::bigint, posting_seq),
          updated_at_ms = ${step.atMs}
        WHERE id = ${id} AND status IN (${sql.join(from.map((s) => sql`${s}`))})
        RETURNING id::text AS id`.execute(trx);
      if (updated.rows.length === 0) return false;
      await sql`INSERT INTO wallet_withdrawal_steps (withdrawal_id, status, operator_id, detail,
          at_ms) VALUES (${id}, ${to}, ${step.operatorId}, ${step.detail}, ${step.atMs})`.execute(
        trx,
      );
      return true;
    });
  }

  /**
   * Records an approval by one operator (a second by the same operator is refused by the
   * unique index): the number of approvals afterwards, or undefined for a repeat.
   */
  async approve(id: bigint, operatorId: string, atMs: number): Promise<number | undefined> {
    return this.database.db.transaction().execute(async (trx) => {
      const locked = await sql<{ status: string; approvals_required: number }>`SELECT status,
          approvals_required FROM wallet_withdrawals WHERE id = ${id} FOR UPDATE`.execute(trx);
      const row = locked.rows[0];
      if (row === undefined || row.status !== "pending") return -1;
      const inserted = await sql<{ id: string }>`INSERT INTO wallet_withdrawal_steps
          (withdrawal_id, status, operator_id, detail, at_ms)
        VALUES (${id}, 'approved', ${operatorId}, NULL, ${atMs})
        ON CONFLICT DO NOTHING RETURNING id::text AS id`.execute(trx);
      if (inserted.rows.length === 0) return undefined;
      const counted = await sql<{ n: string }>`SELECT count(*)::text AS n
        FROM wallet_withdrawal_steps WHERE withdrawal_id = ${id} AND status = 'approved'`.execute(
        trx,
      );
      const approvals = Number(counted.rows[0]?.n ?? 0);
      if (approvals >= Number(row.approvals_required)) {
        await sql`UPDATE wallet_withdrawals SET status = 'approved', updated_at_ms = ${atMs}
          WHERE id = ${id}`.execute(trx);
      } else {
        await sql`UPDATE wallet_withdrawals SET updated_at_ms = ${atMs}
          WHERE id = ${id}`.execute(trx);
      }
      return approvals;
    });
  }

  async addStep(step: WithdrawalStepRow): Promise<void> {
    await sql`INSERT INTO wallet_withdrawal_steps (withdrawal_id, status, operator_id, detail,
        at_ms) VALUES (${step.withdrawalId}, ${step.status}, ${step.operatorId}, ${step.detail},
        ${step.atMs})`.execute(this.database.db);
  }

  async steps(ids: readonly bigint[]): Promise<WithdrawalStepRow[]> {
    if (ids.length === 0) return [];
    const rows = await sql<Record<string, unknown>>`SELECT withdrawal_id::text AS withdrawal_id,
        status, operator_id, detail, at_ms FROM wallet_withdrawal_steps
      WHERE withdrawal_id IN (${sql.join(ids.map((id) => sql`${id}`))}) ORDER BY id`.execute(
      this.database.db,
    );
    return rows.rows.map((r) => ({
      withdrawalId: BigInt(r.withdrawal_id as string),
      status: r.status as WithdrawalRow["status"],
      operatorId: (r.operator_id as string | null) ?? null,
      detail: (r.detail as string | null) ?? null,
      atMs: Number(r.at_ms),
    }));
  }

  /** 'requested' records older than `beforeMs`: the ones a crash may have left behind. */
  async requestedBefore(beforeMs: number): Promise<WithdrawalRow[]> {
    const rows = await sql<Record<string, unknown>>`SELECT ${withdrawalColumns}
      FROM wallet_withdrawals WHERE status = 'requested' AND requested_at_ms < ${beforeMs}
      ORDER BY id`.execute(this.database.db);
    return rows.rows.map(withdrawalRow);
  }
}
