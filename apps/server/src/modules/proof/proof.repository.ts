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
}
