import { tapeEndpoint, tapeSequencesMax, type TapePage } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import { defineRoute } from "../../http/define-route.ts";
import { projectorName } from "../../read-models/projector.ts";

const fillRowsMax = 5_000;

/** A system owner keeps its label on the tape; every user is just "user". */
const label = (ownerId: string) => (ownerId.startsWith("system:") ? ownerId : "user");

/** GET /api/v1/tape: the public tape from the read models, by journal sequence. */
export const tapeRoutes: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  defineRoute(app, tapeEndpoint, { perIp: { max: 120, windowMs: 60_000 } }, async ({ query }) => {
    const { db } = database;
    const cursor = await sql<{ sequence: bigint }>`
      SELECT sequence FROM read_model_cursor WHERE name = ${projectorName}`.execute(db);
    const completeTo = cursor.rows[0] ? BigInt(cursor.rows[0].sequence) : 0n;
    const from = BigInt(query.from);
    let to = query.to ? BigInt(query.to) : from + BigInt(tapeSequencesMax) - 1n;
    if (to > completeTo) to = completeTo;
    const page: TapePage = {
      from: from.toString(),
      to: (to < from ? from - 1n : to).toString(),
      completeTo: completeTo.toString(),
      ticks: [],
      fills: [],
    };
    if (to < from) return page;
    const fills = await sql<{
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
    }>`
      SELECT sequence, fill_id, market_id, mode, taker_side, price_ticks, quantity_lots,
        base_amount::text AS base_amount, quote_amount::text AS quote_amount,
        maker_owner_id, taker_owner_id, tick_id, at_ms
      FROM rm_fills
      WHERE sequence BETWEEN ${String(from)} AND ${String(to)} AND mode = ${query.mode ?? "real"}
      ORDER BY fill_id LIMIT ${fillRowsMax + 1}`.execute(db);
    let fillRows = fills.rows;
    if (fillRows.length > fillRowsMax) {
      // Too many fills for one page: end the page before the last sequence it reached.
      const last = BigInt(fillRows[fillRowsMax]!.sequence);
      if (last > from) {
        to = last - 1n;
        fillRows = fillRows.filter((row) => BigInt(row.sequence) <= to);
      }
      page.to = to.toString();
    }
    const ticks = await sql<{
      sequence: bigint;
      instrument_id: string;
      tick_id: string;
      price: string;
      tick_at_ms: bigint;
    }>`
      SELECT sequence, instrument_id, tick_id, price, tick_at_ms FROM rm_ticks
      WHERE sequence BETWEEN ${String(from)} AND ${String(to)}
      ORDER BY sequence, instrument_id LIMIT ${tapeSequencesMax}`.execute(db);
    page.ticks = ticks.rows.map((row) => ({
      sequence: String(row.sequence),
      instrumentId: row.instrument_id,
      tickId: row.tick_id,
      price: row.price,
      tickAtMs: Number(row.tick_at_ms),
    }));
    page.fills = fillRows.map((row) => ({
      sequence: String(row.sequence),
      fillId: String(row.fill_id),
      marketId: row.market_id,
      mode: row.mode,
      takerSide: row.taker_side,
      priceTicks: String(row.price_ticks),
      quantityLots: String(row.quantity_lots),
      baseAmount: row.base_amount,
      quoteAmount: row.quote_amount,
      maker: label(row.maker_owner_id),
      taker: label(row.taker_owner_id),
      tickId: row.tick_id,
      atMs: Number(row.at_ms),
    }));
    return page;
  });
};
