import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** A manual adjustment request (migration 0025). */
export interface AdjustmentRow {
  id: string;
  requestKey: string;
  ownerId: string;
  assetId: string;
  amount: string;
  reference: string;
  reason: string;
  status: "pending" | "credited" | "rejected";
  requestedBy: string;
  requestedAtMs: number;
  decidedBy: string | null;
  decidedReason: string | null;
  decidedAtMs: number | null;
  postingSeq: number | null;
}

function toRow(r: Record<string, unknown>): AdjustmentRow {
  const ms = (value: unknown) =>
    value === null ? null : new Date(value as string | Date).getTime();
  return {
    id: String(r.id),
    requestKey: String(r.request_key),
    ownerId: String(r.owner_id),
    assetId: String(r.asset_id),
    amount: String(r.amount),
    reference: String(r.reference),
    reason: String(r.reason),
    status: r.status as AdjustmentRow["status"],
    requestedBy: String(r.requested_by),
    requestedAtMs: ms(r.requested_at)!,
    decidedBy: r.decided_by === null ? null : String(r.decided_by),
    decidedReason: r.decided_reason === null ? null : String(r.decided_reason),
    decidedAtMs: ms(r.decided_at),
    postingSeq: r.posting_seq === null ? null : Number(r.posting_seq),
  };
}

/** The only SQL of manual adjustments. */
export class AdjustmentsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Records a pending request; the existing one when its key was used before. */
  async request(input: {
    requestKey: string;
    ownerId: string;
    assetId: string;
    amount: string;
    reference: string;
    reason: string;
    requestedBy: string;
    atMs: number;
  }): Promise<{ row: AdjustmentRow; duplicate: boolean }> {
    const inserted = await sql<Record<string, unknown>>`INSERT INTO operator_adjustments
        (request_key, owner_id, asset_id, amount, reference, reason, requested_by, requested_at,
         status)
      VALUES (${input.requestKey}, ${input.ownerId}, ${input.assetId}, ${input.amount},
              ${input.reference}, ${input.reason}, ${input.requestedBy}, ${new Date(input.atMs)},
              'pending')
      ON CONFLICT (request_key) DO NOTHING RETURNING *`.execute(this.db);
    if (inserted.rows[0]) return { row: toRow(inserted.rows[0]), duplicate: false };
    const existing = await sql<Record<string, unknown>>`SELECT * FROM operator_adjustments
      WHERE request_key = ${input.requestKey}`.execute(this.db);
    return { row: toRow(existing.rows[0]!), duplicate: true };
  }

  async byId(id: string): Promise<AdjustmentRow | undefined> {
    const result = await sql<Record<string, unknown>>`SELECT * FROM operator_adjustments
      WHERE id = ${id}::bigint`.execute(this.db);
    return result.rows[0] ? toRow(result.rows[0]) : undefined;
  }

  async inStatus(status: AdjustmentRow["status"], limit: number): Promise<AdjustmentRow[]> {
    const result = await sql<Record<string, unknown>>`SELECT * FROM operator_adjustments
      WHERE status = ${status} ORDER BY id LIMIT ${limit}`.execute(this.db);
    return result.rows.map(toRow);
  }

  /** Every request about one user, newest first (the user's own history). */
  async ofOwner(ownerId: string, limit: number): Promise<AdjustmentRow[]> {
    const result = await sql<Record<string, unknown>>`SELECT * FROM operator_adjustments
      WHERE owner_id = ${ownerId}::bigint ORDER BY id DESC LIMIT ${limit}`.execute(this.db);
    return result.rows.map(toRow);
  }

  /**
   * Moves a pending request to `status` decided by `operatorId`; false when it was not pending
   * any more (another operator decided first).
   */
  async decide(
    id: string,
    status: "credited" | "rejected",
    decision: { operatorId: string; reason: string; atMs: number },
  ): Promise<boolean> {
    const updated = await sql`UPDATE operator_adjustments SET status = ${status},
        decided_by = ${decision.operatorId}, decided_reason = ${decision.reason},
        decided_at = ${new Date(decision.atMs)}
      WHERE id = ${id}::bigint AND status = 'pending' RETURNING id`.execute(this.db);
    return updated.rows.length > 0;
  }

  /** Puts a claimed request back to pending (the kernel refused the credit). */
  async reopen(id: string): Promise<void> {
    await sql`UPDATE operator_adjustments SET status = 'pending', decided_by = NULL,
        decided_reason = NULL, decided_at = NULL WHERE id = ${id}::bigint`.execute(this.db);
  }

  async credited(id: string, postingSeq: number | null, sequence: string): Promise<void> {
    await sql`UPDATE operator_adjustments SET posting_seq = ${postingSeq}, sequence = ${sequence}
      WHERE id = ${id}::bigint`.execute(this.db);
  }
}
