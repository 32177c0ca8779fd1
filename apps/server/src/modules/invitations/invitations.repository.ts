import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** An invited user as the records show it: enough to mask the account, nothing more. */
export interface InviteeRow {
  kind: string;
  email: string | null;
  phone: string | null;
  wallet_address: string | null;
  created_at: Date;
}

/** Rebate totals of one asset (smallest units, as numeric text). */
export interface RebateTotalRow {
  asset_id: string;
  total: string;
  today: string;
  month: string;
}

/** One rebate paid, with the invitee's account to mask. */
export interface RebateRow {
  invitee_id: string;
  product: "spot" | "perp" | "stocks";
  asset_id: string;
  fee: string;
  rebate: string;
  at_ms: string;
  email: string | null;
  phone: string | null;
  wallet_address: string | null;
}

/** The only file of the invitations module that speaks SQL. */
export class InvitationsRepository {
  constructor(private readonly database: Database) {}

  async inviteCode(userId: bigint): Promise<string> {
    const row = await this.database.db
      .selectFrom("users")
      .select("invite_code")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return row.invite_code;
  }

  async inviteeCount(inviterId: bigint): Promise<number> {
    const row = await this.database.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("inviter_id", "=", inviterId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The newest `limit` users `inviterId` invited. */
  async invitees(inviterId: bigint, limit: number): Promise<InviteeRow[]> {
    return this.database.db
      .selectFrom("users")
      .select(["kind", "email", "phone", "wallet_address", "created_at"])
      .where("inviter_id", "=", inviterId)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
  }

  /** Rebates paid to `inviterId` in `mode`, per asset: all time, since `dayMs`, since `monthMs`. */
  async rebateTotals(
    inviterId: bigint,
    mode: string,
    dayMs: number,
    monthMs: number,
  ): Promise<RebateTotalRow[]> {
    const { rows } = await sql<RebateTotalRow>`
      SELECT asset_id, SUM(rebate)::text AS total,
        COALESCE(SUM(rebate) FILTER (WHERE at_ms >= ${dayMs}), 0)::text AS today,
        COALESCE(SUM(rebate) FILTER (WHERE at_ms >= ${monthMs}), 0)::text AS month
      FROM rm_referral_rebates
      WHERE inviter_id = ${String(inviterId)} AND mode = ${mode}
      GROUP BY asset_id ORDER BY asset_id`.execute(this.database.db);
    return rows;
  }

  /** The newest `limit` rebates paid to `inviterId` in `mode`. */
  async rebates(inviterId: bigint, mode: string, limit: number): Promise<RebateRow[]> {
    const { rows } = await sql<RebateRow>`
      SELECT r.invitee_id, r.product, r.asset_id, r.fee::text AS fee, r.rebate::text AS rebate,
        r.at_ms::text AS at_ms, u.email, u.phone, u.wallet_address
      FROM rm_referral_rebates r
      LEFT JOIN users u ON u.id::text = r.invitee_id
      WHERE r.inviter_id = ${String(inviterId)} AND r.mode = ${mode}
      ORDER BY r.posting_seq DESC LIMIT ${limit}`.execute(this.database.db);
    return rows;
  }
}
