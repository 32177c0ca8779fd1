import type { Candle, CandleInterval, FeedSource } from "@candor/market";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** Rows per INSERT: multi-row inserts are ~20× faster than single rows on PGlite. */
const rowsPerInsert = 1_000;

/**
 * Where the simulated history lies (migration 0035): candles ending at or before `liveStartMs`
 * are computed from the seeded simulator over [fromMs, liveStartMs); later ones are stored.
 */
export interface HistoryAnchor {
  fromMs: number;
  liveStartMs: number;
}

/** Candle storage. The only file of the market module that speaks SQL. */
export interface CandleRepository {
  /** The stored history anchor, if any start has written one. */
  historyAnchor(): Promise<HistoryAnchor | undefined>;
  /** Writes the anchor unless one exists (another node may have won); returns the stored one. */
  saveHistoryAnchor(anchor: HistoryAnchor): Promise<HistoryAnchor>;
  /**
   * Inserts or replaces candles (same instrument, interval and open time), in chunks; stops
   * between chunks once `stopped()` says so (shutdown: candles are derived data).
   */
  upsert(candles: readonly Candle[], source: FeedSource, stopped?: () => boolean): Promise<void>;
  /** Candles of one instrument and interval with fromMs ≤ openMs < toMs, oldest first, the newest `limit`. */
  range(
    instrumentId: string,
    interval: CandleInterval,
    fromMs: number,
    toMs: number,
    limit: number,
  ): Promise<Candle[]>;
  /** The newest candle of each instrument and interval, for resuming after a restart. */
  latest(): Promise<Candle[]>;
  /** Every 1m candle opened at or after `fromMs` (refills the 24 h ticker window after a restart). */
  since(fromMs: number): Promise<Candle[]>;
}

type Row = {
  instrument_id: string;
  interval: string;
  open_ms: bigint;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  trades: number;
};

function toCandle(row: Row): Candle {
  return {
    instrumentId: row.instrument_id,
    interval: row.interval as CandleInterval,
    openMs: Number(row.open_ms),
    open: BigInt(row.open),
    high: BigInt(row.high),
    low: BigInt(row.low),
    close: BigInt(row.close),
    volume: BigInt(row.volume),
    trades: Number(row.trades),
  };
}

export function sqlCandleRepository(database: Database): CandleRepository {
  const db = database.db;
  const historyAnchor = async (): Promise<HistoryAnchor | undefined> => {
    const row = await db.selectFrom("market_history").selectAll().executeTakeFirst();
    return row && { fromMs: Number(row.from_ms), liveStartMs: Number(row.live_start_ms) };
  };
  return {
    historyAnchor,
    async saveHistoryAnchor(anchor) {
      await db
        .insertInto("market_history")
        .values({
          id: 1,
          from_ms: BigInt(anchor.fromMs),
          live_start_ms: BigInt(anchor.liveStartMs),
        })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
      return (await historyAnchor())!;
    },
    async upsert(candles, source, stopped) {
      for (let i = 0; i < candles.length; i += rowsPerInsert) {
        if (stopped?.()) return;
        const chunk = candles.slice(i, i + rowsPerInsert);
        await db
          .insertInto("market_candles")
          .values(
            chunk.map((c) => ({
              instrument_id: c.instrumentId,
              interval: c.interval,
              open_ms: BigInt(c.openMs),
              open: c.open,
              high: c.high,
              low: c.low,
              close: c.close,
              volume: c.volume,
              trades: c.trades,
              source,
            })),
          )
          .onConflict((oc) =>
            oc.columns(["instrument_id", "interval", "open_ms"]).doUpdateSet((eb) => ({
              open: eb.ref("excluded.open"),
              high: eb.ref("excluded.high"),
              low: eb.ref("excluded.low"),
              close: eb.ref("excluded.close"),
              volume: eb.ref("excluded.volume"),
              trades: eb.ref("excluded.trades"),
              source: eb.ref("excluded.source"),
            })),
          )
          .execute();
      }
    },
    async range(instrumentId, interval, fromMs, toMs, limit) {
      const rows = await db
        .selectFrom("market_candles")
        .selectAll()
        .where("instrument_id", "=", instrumentId)
        .where("interval", "=", interval)
        .where("open_ms", ">=", BigInt(fromMs))
        .where("open_ms", "<", BigInt(toMs))
        .orderBy("open_ms", "desc")
        .limit(limit)
        .execute();
      return rows.reverse().map(toCandle);
    },
    async latest() {
      const rows = await sql<Row>`
        SELECT DISTINCT ON (instrument_id, interval) *
        FROM market_candles
        ORDER BY instrument_id, interval, open_ms DESC`.execute(db);
      return rows.rows.map(toCandle);
    },
    async since(fromMs) {
      const rows = await db
        .selectFrom("market_candles")
        .selectAll()
        .where("interval", "=", "1m")
        .where("open_ms", ">=", BigInt(fromMs))
        .orderBy("open_ms")
        .execute();
      return rows.map(toCandle);
    },
  };
}
