import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import { projectorName } from "../../read-models/projector.ts";

/** One fill of the read model, as the public tape needs it (owners not yet anonymised). */
export interface TapeFillRow {
  sequence: bigint;
  fill_id: bigint;
  market_id: string;
  mode: "real" | "demo";
  taker_side: string;
  price_ticks: bigint;
  quantity_lots: bigint;
  base_amount: string;
  quote_amount: string;
  maker_owner_id: string;
  taker_owner_id: string;
  tick_id: string | null;
  at_ms: bigint;
}

/** One recorded price tick of the read model. */
export interface TapeTickRow {
  sequence: bigint;
  instrument_id: string;
  tick_id: string;
  price: string;
  tick_at_ms: bigint;
}

/** The only file of the tape module that speaks SQL: reads of the read models. */
export class TapeRepository {
  constructor(private readonly database: Database) {}

  /** The last journal sequence the read models hold completely (0 before the first). */
  async completeTo(): Promise<bigint> {
    const cursor = await sql<{ sequence: bigint }>`
      SELECT sequence FROM read_model_cursor WHERE name = ${projectorName}`.execute(
      this.database.db,
    );
    return cursor.rows[0] ? BigInt(cursor.rows[0].sequence) : 0n;
  }

  /** Fills of one mode in a sequence range, by fill id, at most `limit`. */
  async fills(from: bigint, to: bigint, mode: "real" | "demo", limit: number) {
    const fills = await sql<TapeFillRow>`
      SELECT sequence, fill_id, market_id, mode, taker_side, price_ticks, quantity_lots,
        base_amount::text AS base_amount, quote_amount::text AS quote_amount,
        maker_owner_id, taker_owner_id, tick_id, at_ms
      FROM rm_fills
      WHERE sequence BETWEEN ${String(from)} AND ${String(to)} AND mode = ${mode}
      ORDER BY fill_id LIMIT ${limit}`.execute(this.database.db);
    return fills.rows;
  }

  /** Price ticks in a sequence range, by sequence and instrument, at most `limit`. */
  async ticks(from: bigint, to: bigint, limit: number) {
    const ticks = await sql<TapeTickRow>`
      SELECT sequence, instrument_id, tick_id, price, tick_at_ms FROM rm_ticks
      WHERE sequence BETWEEN ${String(from)} AND ${String(to)}
      ORDER BY sequence, instrument_id LIMIT ${limit}`.execute(this.database.db);
    return ticks.rows;
  }

  /** One tick by instrument and tick id. */
  async tick(instrumentId: string, tickId: string) {
    const rows = await sql<TapeTickRow>`
      SELECT sequence, instrument_id, tick_id, price, tick_at_ms FROM rm_ticks
      WHERE instrument_id = ${instrumentId} AND tick_id = ${tickId}`.execute(this.database.db);
    return rows.rows[0];
  }

  /** Up to `limit` ticks of an instrument just before (or after) a sequence, nearest first. */
  async neighbours(
    instrumentId: string,
    sequence: bigint,
    side: "before" | "after",
    limit: number,
  ) {
    const rows =
      side === "before"
        ? await sql<TapeTickRow>`
            SELECT sequence, instrument_id, tick_id, price, tick_at_ms FROM rm_ticks
            WHERE instrument_id = ${instrumentId} AND sequence < ${String(sequence)}
            ORDER BY sequence DESC LIMIT ${limit}`.execute(this.database.db)
        : await sql<TapeTickRow>`
            SELECT sequence, instrument_id, tick_id, price, tick_at_ms FROM rm_ticks
            WHERE instrument_id = ${instrumentId} AND sequence > ${String(sequence)}
            ORDER BY sequence LIMIT ${limit}`.execute(this.database.db);
    return rows.rows;
  }
}
