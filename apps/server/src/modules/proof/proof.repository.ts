import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** One published root as stored. */
export interface PublicationRow {
  sequence: bigint;
  publishedAt: Date;
  rootJson: string;
}

/** The only file of the proof module that speaks SQL. */
export class ProofRepository {
  constructor(private readonly database: Database) {}

  /** The salt secret, created on first use (concurrent first uses agree on one). */
  async secret(fresh: string): Promise<string> {
    await this.database.db
      .insertInto("proof_secret")
      .values({ id: 1, secret: fresh })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    const row = await this.database.db
      .selectFrom("proof_secret")
      .select("secret")
      .where("id", "=", 1)
      .executeTakeFirstOrThrow();
    return row.secret;
  }

  /** Records a publication; publishing the same sequence twice keeps the first. */
  async insert(row: PublicationRow & { rootHash: string }): Promise<void> {
    await this.database.db
      .insertInto("proof_publications")
      .values({
        sequence: row.sequence,
        published_at: row.publishedAt,
        root_hash: row.rootHash,
        root_json: row.rootJson,
      })
      .onConflict((oc) => oc.column("sequence").doNothing())
      .execute();
  }

  /** The newest publications, newest first. */
  async latest(limit: number): Promise<PublicationRow[]> {
    const rows = await this.database.db
      .selectFrom("proof_publications")
      .select(["sequence", "published_at", "root_json"])
      .orderBy("sequence", "desc")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      sequence: BigInt(row.sequence),
      publishedAt: row.published_at,
      rootJson: row.root_json,
    }));
  }

  /**
   * Each real-money user's net change per asset from spot trading (fills and their fees) since
   * `sinceMs`, from the statement read model.
   */
  async spotTradingChanges(
    sinceMs: number,
  ): Promise<{ ownerId: string; assetId: string; amount: bigint }[]> {
    const rows = await sql<{ owner_id: string; asset_id: string; amount: string }>`
      SELECT owner_id, asset_id, sum(amount)::text AS amount FROM rm_statement_lines
      WHERE mode = 'real' AND reason IN ('trade', 'fee_maker', 'fee_taker')
        AND at_ms >= ${sinceMs} AND owner_id NOT LIKE 'system:%'
      GROUP BY owner_id, asset_id`.execute(this.database.db);
    return rows.rows.map((r) => ({
      ownerId: r.owner_id,
      assetId: r.asset_id,
      amount: BigInt(r.amount),
    }));
  }

  /**
   * Each real-money system account's balance per asset at each of the given times (sum of its
   * postings up to then), from the statement read model.
   */
  async systemBalancesAt(
    atMs: readonly number[],
  ): Promise<{ ownerId: string; assetId: string; amounts: bigint[] }[]> {
    const columns = atMs.map(
      (at, i) =>
        sql`coalesce(sum(amount) FILTER (WHERE at_ms <= ${at}), 0)::text AS ${sql.ref(`b${i}`)}`,
    );
    const rows = await sql<Record<string, string>>`
      SELECT owner_id, asset_id, ${sql.join(columns)} FROM rm_statement_lines
      WHERE mode = 'real' AND owner_id LIKE 'system:%'
      GROUP BY owner_id, asset_id ORDER BY owner_id, asset_id`.execute(this.database.db);
    return rows.rows.map((r) => ({
      ownerId: r.owner_id!,
      assetId: r.asset_id!,
      amounts: atMs.map((_, i) => BigInt(r[`b${i}`]!)),
    }));
  }
}
