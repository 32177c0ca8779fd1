import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

/** One perpetual order as rm_perp_orders holds it (ticks and lots). */
export interface PerpOrderRow {
  orderId: number;
  clientOrderId: string;
  marketId: string;
  mode: "real" | "demo";
  side: "buy" | "sell";
  orderType: "limit" | "market";
  timeInForce: "gtc" | "ioc" | "fok" | "post_only";
  priceTicks: number | null;
  quantityLots: number;
  filledLots: number;
  reduceOnly: boolean;
  status: "open" | "filled" | "cancelled" | "expired";
  createdAtMs: number;
}

/** One fill, forced event or funding payment of an owner (rm_perp_records). */
export interface PerpRecordRow {
  id: bigint;
  marketId: string;
  atMs: number;
  tickIds: string[];
  data: Record<string, unknown>;
}

export interface PerpPage {
  marketId?: string;
  beforeId?: bigint;
  limit: number;
}

type Raw = Record<string, string | number | boolean | null>;

/** Reads of the perpetual read models (migration 0018) and the disclosure's ledger sums. */
export class PerpRepository {
  constructor(private readonly database: Database) {}

  async orders(ownerId: string, mode: string, page: PerpPage): Promise<PerpOrderRow[]> {
    const rows = await sql<Raw>`
      SELECT order_id::text AS order_id, client_order_id, market_id, mode, side, order_type,
        time_in_force, price_ticks::text AS price_ticks, quantity_lots::text AS quantity_lots,
        filled_lots::text AS filled_lots, reduce_only, status, created_at_ms::text AS created_at_ms
      FROM rm_perp_orders
      WHERE owner_id = ${ownerId} AND mode = ${mode}
        ${page.marketId === undefined ? sql`` : sql`AND market_id = ${page.marketId}`}
        ${page.beforeId === undefined ? sql`` : sql`AND order_id < ${String(page.beforeId)}`}
      ORDER BY order_id DESC LIMIT ${page.limit}`.execute(this.database.db);
    return rows.rows.map((r) => ({
      orderId: Number(r.order_id),
      clientOrderId: r.client_order_id as string,
      marketId: r.market_id as string,
      mode: r.mode as "real" | "demo",
      side: r.side as "buy" | "sell",
      orderType: r.order_type as "limit" | "market",
      timeInForce: r.time_in_force as PerpOrderRow["timeInForce"],
      priceTicks: r.price_ticks === null ? null : Number(r.price_ticks),
      quantityLots: Number(r.quantity_lots),
      filledLots: Number(r.filled_lots),
      reduceOnly: r.reduce_only === true || r.reduce_only === "t",
      status: r.status as PerpOrderRow["status"],
      createdAtMs: Number(r.created_at_ms),
    }));
  }

  async records(
    ownerId: string,
    mode: string,
    kind: "fill" | "forced" | "funding",
    page: PerpPage,
  ): Promise<PerpRecordRow[]> {
    const rows = await sql<Raw>`
      SELECT id::text AS id, market_id, at_ms::text AS at_ms, tick_ids, data
      FROM rm_perp_records
      WHERE owner_id = ${ownerId} AND mode = ${mode} AND kind = ${kind}
        ${page.marketId === undefined ? sql`` : sql`AND market_id = ${page.marketId}`}
        ${page.beforeId === undefined ? sql`` : sql`AND id < ${String(page.beforeId)}`}
      ORDER BY id DESC LIMIT ${page.limit}`.execute(this.database.db);
    return rows.rows.map((r) => ({
      id: BigInt(r.id as string),
      marketId: r.market_id as string,
      atMs: Number(r.at_ms),
      tickIds: JSON.parse(r.tick_ids as string) as string[],
      data: JSON.parse(r.data as string) as Record<string, unknown>,
    }));
  }

  /**
   * The latest trades of a perpetual book (the taker's fill rows, newest first): one row per
   * trade, with the mark's tick ids.
   */
  async recentTrades(marketId: string, mode: string, limit: number): Promise<PerpRecordRow[]> {
    const rows = await sql<Raw>`
      SELECT id::text AS id, market_id, at_ms::text AS at_ms, tick_ids, data
      FROM rm_perp_records
      WHERE market_id = ${marketId} AND mode = ${mode} AND kind = 'fill'
        AND ref LIKE '%:taker'
      ORDER BY id DESC LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map((r) => ({
      id: BigInt(r.id as string),
      marketId: r.market_id as string,
      atMs: Number(r.at_ms),
      tickIds: JSON.parse(r.tick_ids as string) as string[],
      data: JSON.parse(r.data as string) as Record<string, unknown>,
    }));
  }

  /**
   * Each user account's net perpetual result in real money since `fromMs`: realised PnL, fees,
   * liquidation fees, funding and negative-balance cover on its contract wallet (system owners
   * left out). Returns how many accounts had any and how many of them lost money.
   */
  async realNetByAccount(fromMs: number): Promise<{ accounts: number; lost: number }> {
    const rows = await sql<{ accounts: string; lost: string }>`
      SELECT count(*)::text AS accounts, count(*) FILTER (WHERE net < 0)::text AS lost FROM (
        SELECT owner_id, asset_id, sum(amount) AS net FROM rm_statement_lines
        WHERE mode = 'real' AND reason LIKE 'perp_%' AND at_ms >= ${fromMs}
          AND owner_id NOT LIKE 'system:%' AND wallet = 'contract'
        GROUP BY owner_id, asset_id) AS per_account`.execute(this.database.db);
    const row = rows.rows[0];
    return { accounts: Number(row?.accounts ?? 0), lost: Number(row?.lost ?? 0) };
  }
}
