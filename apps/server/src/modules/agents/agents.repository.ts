import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** A team member as the agent sees it: enough to mask the account, nothing more. */
export interface MemberRow {
  id: string;
  email: string | null;
  phone: string | null;
  wallet_address: string | null;
  created_at: Date;
}

/** Fees and rebates of one asset and product (smallest units, as numeric text). */
export interface EarningsRow {
  asset_id: string;
  product: "spot" | "perp" | "stocks";
  fees_total: string;
  fees_today: string;
  fees_month: string;
  rebates_total: string;
  rebates_today: string;
  rebates_month: string;
}

/** The only file of the agents module that speaks SQL. */
export class AgentsRepository {
  constructor(private readonly database: Database) {}

  /** The newest `limit` users `agentId` invited. */
  async members(agentId: bigint, limit: number): Promise<MemberRow[]> {
    const rows = await this.database.db
      .selectFrom("users")
      .select(["id", "email", "phone", "wallet_address", "created_at"])
      .where("inviter_id", "=", agentId)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, id: String(row.id) }));
  }

  /** The team's fees and the agent's rebates in `mode`: all time, since `dayMs`, since `monthMs`. */
  async earnings(
    agentId: bigint,
    mode: string,
    dayMs: number,
    monthMs: number,
  ): Promise<EarningsRow[]> {
    const { rows } = await sql<EarningsRow>`
      SELECT asset_id, product,
        SUM(fee)::text AS fees_total,
        COALESCE(SUM(fee) FILTER (WHERE at_ms >= ${dayMs}), 0)::text AS fees_today,
        COALESCE(SUM(fee) FILTER (WHERE at_ms >= ${monthMs}), 0)::text AS fees_month,
        SUM(rebate)::text AS rebates_total,
        COALESCE(SUM(rebate) FILTER (WHERE at_ms >= ${dayMs}), 0)::text AS rebates_today,
        COALESCE(SUM(rebate) FILTER (WHERE at_ms >= ${monthMs}), 0)::text AS rebates_month
      FROM rm_agent_fees
      WHERE agent_id = ${String(agentId)} AND mode = ${mode}
      GROUP BY asset_id, product ORDER BY asset_id, product`.execute(this.database.db);
    return rows;
  }
}
