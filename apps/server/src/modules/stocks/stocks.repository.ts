import { sql } from "kysely";
import type {
  Mode,
  StockFillView as KernelFill,
  StockOrderView as KernelOrder,
} from "@candor/kernel";
import type { Database } from "../../db/database.ts";

type Raw = Record<string, string | number | null>;

const orderColumns = sql`order_id::text AS order_id, client_order_id, owner_id, mode, instrument_id,
  asset_id, side, kind, tif, origin, quantity::text AS quantity, limit_price, prepaid::text AS prepaid,
  placed_at_ms::text AS placed_at_ms, status, closed_at_ms::text AS closed_at_ms`;
const fillColumns = sql`order_id::text AS order_id, owner_id, mode, instrument_id, asset_id, side,
  origin, quantity::text AS quantity, price, notional::text AS notional, commission::text AS commission,
  stamp_duty::text AS stamp_duty, net::text AS net, released::text AS released, tick_id, tick_price,
  filled_at_ms::text AS filled_at_ms`;

function orderOf(r: Raw): KernelOrder {
  return {
    orderId: Number(r.order_id),
    clientOrderId: r.client_order_id as string,
    ownerId: r.owner_id as string,
    mode: r.mode as Mode,
    instrumentId: r.instrument_id as string,
    assetId: r.asset_id as string,
    side: r.side as KernelOrder["side"],
    kind: r.kind as KernelOrder["kind"],
    tif: r.tif as KernelOrder["tif"],
    origin: r.origin as KernelOrder["origin"],
    quantity: BigInt(r.quantity as string),
    limitPrice: (r.limit_price as string | null) ?? null,
    prepaid: BigInt(r.prepaid as string),
    houseReserved: 0n,
    placedAtMs: Number(r.placed_at_ms),
    expiresAfterSession: null,
    status: r.status as KernelOrder["status"],
    closedAtMs: r.closed_at_ms === null ? null : Number(r.closed_at_ms),
  };
}

function fillOf(r: Raw): KernelFill {
  return {
    orderId: Number(r.order_id),
    ownerId: r.owner_id as string,
    mode: r.mode as Mode,
    instrumentId: r.instrument_id as string,
    assetId: r.asset_id as string,
    side: r.side as KernelFill["side"],
    origin: r.origin as KernelFill["origin"],
    quantity: BigInt(r.quantity as string),
    price: r.price as string,
    notional: BigInt(r.notional as string),
    commission: BigInt(r.commission as string),
    stampDuty: BigInt(r.stamp_duty as string),
    net: BigInt(r.net as string),
    released: BigInt(r.released as string),
    tickId: r.tick_id as string,
    tickPrice: r.tick_price as string,
    filledAtMs: Number(r.filled_at_ms),
  };
}

/** The stock orders' and fills' read models (projected from the kernel's events). */
export class StocksRepository {
  constructor(private readonly database: Database) {}

  async order(orderId: number): Promise<KernelOrder | undefined> {
    const rows = await sql<Raw>`SELECT ${orderColumns} FROM rm_stock_orders
      WHERE order_id = ${orderId}`.execute(this.database.db);
    return rows.rows[0] ? orderOf(rows.rows[0]) : undefined;
  }

  async orderByClientId(clientOrderId: string): Promise<KernelOrder | undefined> {
    const rows = await sql<Raw>`SELECT ${orderColumns} FROM rm_stock_orders
      WHERE client_order_id = ${clientOrderId}`.execute(this.database.db);
    return rows.rows[0] ? orderOf(rows.rows[0]) : undefined;
  }

  /** Closed orders (filled, cancelled, expired), newest first. */
  async history(
    ownerId: string,
    mode: Mode,
    instrumentId: string | undefined,
    limit: number,
  ): Promise<KernelOrder[]> {
    const rows = await sql<Raw>`SELECT ${orderColumns} FROM rm_stock_orders
      WHERE owner_id = ${ownerId} AND mode = ${mode} AND status <> 'pending'
        AND (${instrumentId ?? null}::text IS NULL OR instrument_id = ${instrumentId ?? null})
      ORDER BY order_id DESC LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map(orderOf);
  }

  async fill(orderId: number): Promise<KernelFill | undefined> {
    const rows = await sql<Raw>`SELECT ${fillColumns} FROM rm_stock_fills
      WHERE order_id = ${orderId}`.execute(this.database.db);
    return rows.rows[0] ? fillOf(rows.rows[0]) : undefined;
  }

  async fills(
    ownerId: string,
    mode: Mode,
    instrumentId: string | undefined,
    limit: number,
  ): Promise<KernelFill[]> {
    const rows = await sql<Raw>`SELECT ${fillColumns} FROM rm_stock_fills
      WHERE owner_id = ${ownerId} AND mode = ${mode}
        AND (${instrumentId ?? null}::text IS NULL OR instrument_id = ${instrumentId ?? null})
      ORDER BY order_id DESC LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map(fillOf);
  }

  /** Low and high from the candles since `fromMs` (integer price units), or null. */
  async range(
    instrumentId: string,
    interval: "1h" | "1d",
    fromMs: number,
  ): Promise<{ low: bigint; high: bigint } | null> {
    const rows = await sql<{ low: string | null; high: string | null }>`
      SELECT min(low)::text AS low, max(high)::text AS high FROM market_candles
      WHERE instrument_id = ${instrumentId} AND interval = ${interval} AND open_ms >= ${fromMs}`.execute(
      this.database.db,
    );
    const r = rows.rows[0];
    return r?.low && r.high ? { low: BigInt(r.low), high: BigInt(r.high) } : null;
  }
}
