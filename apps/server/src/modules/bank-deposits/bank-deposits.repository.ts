import { sql } from "kysely";
import type { BankDepositState } from "@candor/contract";
import type { Database } from "../../db/database.ts";

/** One row of `bank_deposits`. */
export interface BankDepositRow {
  id: string;
  ownerId: string;
  assetId: string;
  /** Smallest units. */
  amount: bigint;
  proofUploadId: string;
  state: BankDepositState;
  rejectReason: string | null;
  postingSeq: number | null;
  operatorId: string | null;
  createdAtMs: number;
  decidedAtMs: number | null;
}

function toRow(row: Record<string, unknown>): BankDepositRow {
  return {
    id: String(row.id),
    ownerId: String(row.owner_id),
    assetId: String(row.asset_id),
    amount: BigInt(String(row.amount)),
    proofUploadId: String(row.proof_upload_id),
    state: row.state as BankDepositState,
    rejectReason: row.reject_reason === null ? null : String(row.reject_reason),
    postingSeq: row.posting_seq === null ? null : Number(row.posting_seq),
    operatorId: row.operator_id === null ? null : String(row.operator_id),
    createdAtMs: Number(row.created_at_ms),
    decidedAtMs: row.decided_at_ms === null ? null : Number(row.decided_at_ms),
  };
}

/** The only file of the bank-deposits module that speaks SQL. */
export class BankDepositsRepository {
  constructor(private readonly database: Database) {}

  /** Inserts a pending request; undefined when its proof already backs another request. */
  async insert(input: {
    ownerId: string;
    assetId: string;
    amount: bigint;
    proofUploadId: string;
    atMs: number;
  }): Promise<BankDepositRow | undefined> {
    const rows = await sql<Record<string, unknown>>`
      INSERT INTO bank_deposits (owner_id, asset_id, amount, proof_upload_id, state, created_at_ms)
      VALUES (${input.ownerId}, ${input.assetId}, ${input.amount.toString()},
        ${input.proofUploadId}, 'pending', ${input.atMs})
      ON CONFLICT (proof_upload_id) DO NOTHING
      RETURNING *`.execute(this.database.db);
    return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
  }

  async find(id: string): Promise<BankDepositRow | undefined> {
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM bank_deposits WHERE id = ${id}`.execute(this.database.db);
    return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
  }

  async ofOwner(ownerId: string, limit: number): Promise<BankDepositRow[]> {
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM bank_deposits WHERE owner_id = ${ownerId}
      ORDER BY id DESC LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map(toRow);
  }

  async inState(state: BankDepositState, limit: number): Promise<BankDepositRow[]> {
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM bank_deposits WHERE state = ${state}
      ORDER BY id ASC LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map(toRow);
  }

  /** pending → crediting; false when the request was not pending. */
  async startCredit(id: string, operatorId: string): Promise<boolean> {
    const rows = await sql`
      UPDATE bank_deposits SET state = 'crediting', operator_id = ${operatorId}
      WHERE id = ${id} AND state = 'pending' RETURNING id`.execute(this.database.db);
    return rows.rows.length === 1;
  }

  /** crediting → credited with the ledger's posting. */
  async finishCredit(id: string, postingSeq: number | null, atMs: number): Promise<void> {
    await sql`
      UPDATE bank_deposits SET state = 'credited', posting_seq = ${postingSeq},
        decided_at_ms = ${atMs}
      WHERE id = ${id} AND state = 'crediting'`.execute(this.database.db);
  }

  /** pending → rejected; undefined when the request was not pending. */
  async reject(
    id: string,
    reason: string,
    operatorId: string,
    atMs: number,
  ): Promise<BankDepositRow | undefined> {
    const rows = await sql<Record<string, unknown>>`
      UPDATE bank_deposits SET state = 'rejected', reject_reason = ${reason},
        operator_id = ${operatorId}, decided_at_ms = ${atMs}
      WHERE id = ${id} AND state = 'pending' RETURNING *`.execute(this.database.db);
    return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
  }
}
