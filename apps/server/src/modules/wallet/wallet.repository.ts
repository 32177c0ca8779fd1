import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** One statement line with the owner of the other side of its posting. */
export interface StatementRow {
  postingSeq: number;
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

  /** Statement lines of one owner's fund wallet, newest first, before `beforeSeq`. */
  async statement(filter: {
    ownerId: string;
    mode: string;
    assetId?: string;
    beforeSeq?: number;
    limit: number;
  }): Promise<StatementRow[]> {
    const where = [
      sql`l.owner_id = ${filter.ownerId}`,
      sql`l.mode = ${filter.mode}`,
      sql`l.wallet = 'fund'`,
    ];
    if (filter.assetId) where.push(sql`l.asset_id = ${filter.assetId}`);
    if (filter.beforeSeq !== undefined) where.push(sql`l.posting_seq < ${filter.beforeSeq}`);
    const rows = await sql<Record<string, unknown>>`
      SELECT l.posting_seq, l.asset_id, l.amount::text AS amount, l.from_held, l.reason,
        o.owner_id AS counter_owner_id, l.order_id, l.fill_id, l.tick_id, l.operator_id,
        l.reference, l.sequence, l.at_ms
      FROM rm_statement_lines l
      LEFT JOIN rm_statement_lines o ON o.posting_seq = l.posting_seq AND o.account <> l.account
      WHERE ${sql.join(where, sql` AND `)}
      ORDER BY l.posting_seq DESC LIMIT ${filter.limit}`.execute(this.database.db);
    return rows.rows.map((r) => ({
      postingSeq: Number(r.posting_seq),
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
    }));
  }
}
