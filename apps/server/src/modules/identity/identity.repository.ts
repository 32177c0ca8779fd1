import { sql } from "kysely";
import type {
  IdentityDocumentType,
  IdentityRejectReason,
  IdentityState,
  IdentityTier,
} from "@candor/contract";
import type { Database } from "../../db/database.ts";

/** One row of `identity_submissions`. */
export interface IdentityRow {
  id: string;
  userId: bigint;
  tier: IdentityTier;
  country: string | null;
  realName: string | null;
  documentType: IdentityDocumentType | null;
  documentNumber: string | null;
  frontUploadId: string | null;
  backUploadId: string | null;
  selfieUploadId: string | null;
  state: Exclude<IdentityState, "unverified">;
  /** `<reason>` or `other:<free text>`. */
  rejectReason: string | null;
  operatorId: string | null;
  createdAtMs: number;
  decidedAtMs: number | null;
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

function toRow(row: Record<string, unknown>): IdentityRow {
  return {
    id: String(row.id),
    userId: BigInt(String(row.user_id)),
    tier: row.tier as IdentityTier,
    country: text(row.country),
    realName: text(row.real_name),
    documentType: text(row.id_type) as IdentityDocumentType | null,
    documentNumber: text(row.id_number),
    frontUploadId: text(row.front_upload_id),
    backUploadId: text(row.back_upload_id),
    selfieUploadId: text(row.selfie_upload_id),
    state: row.state as IdentityRow["state"],
    rejectReason: text(row.reject_reason),
    operatorId: text(row.operator_id),
    createdAtMs: Number(row.created_at_ms),
    decidedAtMs: row.decided_at_ms === null ? null : Number(row.decided_at_ms),
  };
}

/** The only file of the identity module that speaks SQL (migration 0023). */
export class IdentityRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** A user's submissions, newest first. */
  async ofUser(userId: bigint, limit = 50): Promise<IdentityRow[]> {
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM identity_submissions WHERE user_id = ${userId}
      ORDER BY id DESC LIMIT ${limit}`.execute(this.db);
    return rows.rows.map(toRow);
  }

  async find(id: string): Promise<IdentityRow | undefined> {
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM identity_submissions WHERE id = ${id}`.execute(this.db);
    return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
  }

  /** Submissions in a state, oldest first (the review queue); every state when none is given. */
  async inState(state: IdentityRow["state"] | undefined, limit: number): Promise<IdentityRow[]> {
    const rows = state
      ? await sql<Record<string, unknown>>`
          SELECT * FROM identity_submissions WHERE state = ${state}
          ORDER BY id LIMIT ${limit}`.execute(this.db)
      : await sql<Record<string, unknown>>`
          SELECT * FROM identity_submissions ORDER BY id DESC LIMIT ${limit}`.execute(this.db);
    return rows.rows.map(toRow);
  }

  /**
   * Records a submission under review; undefined when one of this tier is already under review
   * (the partial unique index decides, so two parallel submits cannot both land).
   */
  async insert(input: {
    userId: bigint;
    tier: IdentityTier;
    country?: string;
    realName?: string;
    documentType?: IdentityDocumentType;
    documentNumber?: string;
    frontUploadId?: string;
    backUploadId?: string;
    selfieUploadId?: string;
    atMs: number;
  }): Promise<IdentityRow | undefined> {
    const rows = await sql<Record<string, unknown>>`
      INSERT INTO identity_submissions (user_id, tier, country, real_name, id_type, id_number,
        front_upload_id, back_upload_id, selfie_upload_id, state, created_at_ms)
      VALUES (${input.userId}, ${input.tier}, ${input.country ?? null},
        ${input.realName ?? null}, ${input.documentType ?? null}, ${input.documentNumber ?? null},
        ${input.frontUploadId ?? null}, ${input.backUploadId ?? null},
        ${input.selfieUploadId ?? null}, 'under_review', ${input.atMs})
      ON CONFLICT DO NOTHING
      RETURNING *`.execute(this.db);
    return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
  }

  /** Decides a submission under review, once; undefined when it is not under review. */
  async decide(
    id: string,
    decision: { state: "passed" | "not_approved"; reason: string | null; operatorId: string },
    atMs: number,
  ): Promise<IdentityRow | undefined> {
    const rows = await sql<Record<string, unknown>>`
      UPDATE identity_submissions
      SET state = ${decision.state}, reject_reason = ${decision.reason},
        operator_id = ${decision.operatorId}, decided_at_ms = ${atMs}
      WHERE id = ${id} AND state = 'under_review'
      RETURNING *`.execute(this.db);
    return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
  }

  /**
   * Forgets the document images of one of `userId`'s decided submissions (the decision stays);
   * the row as it was before, or undefined when it is not theirs or not decided.
   */
  async clearDocuments(id: string, userId: bigint): Promise<IdentityRow | undefined> {
    const rows = await sql<Record<string, unknown>>`
      UPDATE identity_submissions AS s
      SET front_upload_id = NULL, back_upload_id = NULL, selfie_upload_id = NULL
      FROM identity_submissions AS before
      WHERE s.id = ${id} AND before.id = s.id AND s.user_id = ${userId}
        AND s.state IN ('passed', 'not_approved')
      RETURNING before.*`.execute(this.db);
    return rows.rows[0] ? toRow(rows.rows[0]) : undefined;
  }

  /** Which of these uploads another of the user's submissions still shows (a resubmission). */
  async uploadsInUse(userId: bigint, uploadIds: string[]): Promise<Set<string>> {
    if (uploadIds.length === 0) return new Set();
    const rows = await sql<Record<string, unknown>>`
      SELECT front_upload_id, back_upload_id, selfie_upload_id FROM identity_submissions
      WHERE user_id = ${userId}`.execute(this.db);
    const inUse = new Set<string>();
    for (const row of rows.rows) {
      for (const value of [row.front_upload_id, row.back_upload_id, row.selfie_upload_id]) {
        if (typeof value === "string" && uploadIds.includes(value)) inUse.add(value);
      }
    }
    return inUse;
  }

  /** Keeps `users.verification` (shown on the profile) in step with the submissions. */
  async setUserVerification(userId: bigint, state: IdentityState): Promise<void> {
    await sql`UPDATE users SET verification = ${state} WHERE id = ${userId}`.execute(this.db);
  }

  /** The highest tier a user has passed, or null. */
  async passedTier(userId: bigint): Promise<IdentityTier | null> {
    const rows = await sql<{ tier: string }>`
      SELECT tier FROM identity_submissions WHERE user_id = ${userId} AND state = 'passed'`.execute(
      this.db,
    );
    const tiers = rows.rows.map((row) => row.tier);
    return tiers.includes("advanced") ? "advanced" : tiers.includes("basic") ? "basic" : null;
  }
}

export type { IdentityRejectReason };
