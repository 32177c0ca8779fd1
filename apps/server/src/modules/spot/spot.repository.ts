import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import { fillRecordFromRow, fillSelect, type FillRecord } from "../../read-models/fill-record.ts";
import { projectorName } from "../../read-models/projector.ts";

/** One order row of the read model (finished and open orders alike). */
export interface OrderRow {
  orderId: number;
  clientOrderId: string;
  ownerId: string;
  mode: "real" | "demo";
  marketId: string;
  side: "buy" | "sell";
  orderType: "limit" | "market";
  timeInForce: "gtc" | "ioc" | "fok" | "post_only";
  priceTicks: number;
  quantityLots: number;
  filledLots: number;
  remainingLots: number;
  status: "open" | "filled" | "cancelled" | "expired" | "rejected";
  createdAtMs: number;
}

const orderColumns = sql`order_id, client_order_id, owner_id, mode, market_id, side, order_type,
  time_in_force, price_ticks, quantity_lots, filled_lots, remaining_lots, status, created_at_ms`;

type RawOrder = Record<
  "order_id" | "price_ticks" | "quantity_lots" | "filled_lots" | "remaining_lots" | "created_at_ms",
  bigint
> &
  Record<
    | "client_order_id"
    | "owner_id"
    | "mode"
    | "market_id"
    | "side"
    | "order_type"
    | "time_in_force"
    | "status",
    string
  >;

function toOrder(r: RawOrder): OrderRow {
  return {
    orderId: Number(r.order_id),
    clientOrderId: r.client_order_id,
    ownerId: r.owner_id,
    mode: r.mode as OrderRow["mode"],
    marketId: r.market_id,
    side: r.side as OrderRow["side"],
    orderType: r.order_type as OrderRow["orderType"],
    timeInForce: r.time_in_force as OrderRow["timeInForce"],
    priceTicks: Number(r.price_ticks),
    quantityLots: Number(r.quantity_lots),
    filledLots: Number(r.filled_lots),
    remainingLots: Number(r.remaining_lots),
    status: r.status as OrderRow["status"],
    createdAtMs: Number(r.created_at_ms),
  };
}

/** The only file of the spot module that speaks SQL: reads of the order and fill read models. */
export class SpotRepository {
  constructor(private readonly database: Database) {}

  async orderByClientOrderId(clientOrderId: string): Promise<OrderRow | undefined> {
    const rows = await sql<RawOrder>`SELECT ${orderColumns} FROM rm_orders
      WHERE client_order_id = ${clientOrderId}`.execute(this.database.db);
    return rows.rows[0] ? toOrder(rows.rows[0]) : undefined;
  }

  /** The last journal sequence the read models hold. */
  async readModelCursor(): Promise<bigint> {
    const rows = await sql<{ sequence: bigint }>`SELECT sequence FROM read_model_cursor
      WHERE name = ${projectorName}`.execute(this.database.db);
    return BigInt(rows.rows[0]?.sequence ?? 0n);
  }

  /** Client order ids of orders after `afterOrderId`, by order id (a page of the index load). */
  async clientOrderIdsAfter(
    afterOrderId: number,
    limit: number,
  ): Promise<{ orderId: number; clientOrderId: string }[]> {
    const rows = await sql<{ order_id: bigint; client_order_id: string }>`
      SELECT order_id, client_order_id FROM rm_orders WHERE order_id > ${afterOrderId}
      ORDER BY order_id LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map((r) => ({
      orderId: Number(r.order_id),
      clientOrderId: r.client_order_id,
    }));
  }

  async order(orderId: number): Promise<OrderRow | undefined> {
    const rows = await sql<RawOrder>`SELECT ${orderColumns} FROM rm_orders
      WHERE order_id = ${orderId}`.execute(this.database.db);
    return rows.rows[0] ? toOrder(rows.rows[0]) : undefined;
  }

  /** Orders of one owner and mode, newest first, before `beforeOrderId`. */
  async orders(filter: {
    ownerId: string;
    mode: string;
    marketIds?: string[];
    side?: string;
    statuses: string[];
    beforeOrderId?: number;
    limit: number;
  }): Promise<OrderRow[]> {
    const where = [
      sql`owner_id = ${filter.ownerId}`,
      sql`mode = ${filter.mode}`,
      sql`status IN (${sql.join(filter.statuses)})`,
    ];
    if (filter.marketIds) where.push(sql`market_id IN (${sql.join(filter.marketIds)})`);
    if (filter.side) where.push(sql`side = ${filter.side}`);
    if (filter.beforeOrderId !== undefined) where.push(sql`order_id < ${filter.beforeOrderId}`);
    const rows = await sql<RawOrder>`SELECT ${orderColumns} FROM rm_orders
      WHERE ${sql.join(where, sql` AND `)}
      ORDER BY owner_id, mode, order_id DESC LIMIT ${filter.limit}`.execute(this.database.db);
    return rows.rows.map(toOrder);
  }

  /** Every fill of the given orders, oldest first. */
  async fillsOfOrders(orderIds: readonly number[]): Promise<FillRecord[]> {
    if (orderIds.length === 0) return [];
    const ids = sql.join(orderIds.map((id) => sql`${id}::int8`));
    const rows = await sql<Record<string, unknown>>`SELECT ${fillSelect} FROM rm_fills
      WHERE maker_order_id IN (${ids}) OR taker_order_id IN (${ids})
      ORDER BY fill_id`.execute(this.database.db);
    return rows.rows.map(fillRecordFromRow);
  }

  /**
   * Users' open orders (system owners left out), each with the quote it traded so far (smallest
   * units), and the journal sequence the read models hold them at: one consistent snapshot.
   */
  async openUserOrders(): Promise<{
    sequence: bigint;
    orders: { order: OrderRow; filledQuote: bigint }[];
  }> {
    return this.database.db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        const cursor = await sql<{ sequence: bigint }>`SELECT sequence FROM read_model_cursor
          WHERE name = ${projectorName}`.execute(trx);
        const orders = await sql<RawOrder>`SELECT ${orderColumns} FROM rm_orders
          WHERE status = 'open' AND owner_id NOT LIKE 'system:%' ORDER BY order_id`.execute(trx);
        const traders = sql`o.status = 'open' AND o.owner_id NOT LIKE 'system:%'
          AND o.filled_lots > 0`;
        // Two equality joins (each side of the fill), so each can hash-join one scan of rm_fills.
        const traded = await sql<{ order_id: bigint; filled_quote: string }>`
          SELECT order_id, SUM(quote_amount)::text AS filled_quote FROM (
            SELECT o.order_id, f.quote_amount FROM rm_orders o
              JOIN rm_fills f ON f.maker_order_id = o.order_id WHERE ${traders}
            UNION ALL
            SELECT o.order_id, f.quote_amount FROM rm_orders o
              JOIN rm_fills f ON f.taker_order_id = o.order_id WHERE ${traders}
          ) t GROUP BY order_id`.execute(trx);
        const filledQuote = new Map(
          traded.rows.map((r) => [Number(r.order_id), BigInt(r.filled_quote)] as const),
        );
        return {
          sequence: BigInt(cursor.rows[0]?.sequence ?? 0n),
          orders: orders.rows.map((r) => ({
            order: toOrder(r),
            filledQuote: filledQuote.get(Number(r.order_id)) ?? 0n,
          })),
        };
      });
  }
}
