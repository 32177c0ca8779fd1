import type { SwitchableProduct } from "@candor/contract";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import type { CountryProductBlocks } from "../../http/country-product-gate.ts";

const SEED = "country_product_blocks";

/** The per-country product switches' SQL (migration 0030): the only file here that speaks SQL. */
export class CountryProductsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Writes the COUNTRY_PRODUCT_BLOCKS setting into the table once, on the first start after the
   * migration; later starts leave the table as operators left it.
   */
  async seedOnce(blocks: CountryProductBlocks, nowMs: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const marked = await sql`INSERT INTO product_config_seeds (name, seeded_at_ms)
        VALUES (${SEED}, ${nowMs}) ON CONFLICT (name) DO NOTHING RETURNING name`.execute(trx);
      if (marked.rows.length === 0) return;
      for (const [product, countries] of Object.entries(blocks)) {
        for (const country of countries ?? []) {
          await sql`INSERT INTO country_product_blocks (country, product)
            VALUES (${country}, ${product}) ON CONFLICT DO NOTHING`.execute(trx);
        }
      }
    });
  }

  /** Every switch, as the guard reads it: product → countries. */
  async all(): Promise<CountryProductBlocks> {
    const result = await sql<{ country: string; product: SwitchableProduct }>`
      SELECT country, product FROM country_product_blocks ORDER BY country, product`.execute(
      this.db,
    );
    const blocks: Partial<Record<SwitchableProduct, string[]>> = {};
    for (const row of result.rows) (blocks[row.product] ??= []).push(row.country);
    return blocks;
  }

  /** Replaces the products switched off for one country. */
  async replace(country: string, blocked: readonly SwitchableProduct[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await sql`DELETE FROM country_product_blocks WHERE country = ${country}`.execute(trx);
      for (const product of blocked) {
        await sql`INSERT INTO country_product_blocks (country, product)
          VALUES (${country}, ${product})`.execute(trx);
      }
    });
  }
}
