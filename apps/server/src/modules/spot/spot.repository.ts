import { sql } from "kysely";
import type { Database } from "../../db/database.ts";

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

/** One fill row of the read model. */
export interface FillRow {
  fillId: number;
  sequence: bigint;
  marketId: string;
  makerOrderId: number;
  takerOrderId: number;
  makerOwnerId: string;
  takerOwnerId: string;
  takerSide: "buy" | "sell";
  priceTicks: number;
  quantityLots: number;
  baseAmount: bigint;
  quoteAmount: bigint;
  feeMaker: bigint;
  feeMakerAssetId: string;
  feeTaker: bigint;
  feeTakerAssetId: string;
  tickId: string | null;
  atMs: number;
}

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

/** The only file of the spot module that speaks SQL: reads of the read models (migration 0005). */
export class SpotRepository {
  constructor(private readonly database: Database) {}

  async orderByClientOrderId(clientOrderId: string): Promise<OrderRow | undefined> {
    const rows = await sql<RawOrder>`SELECT ${orderColumns} FROM rm_orders
      WHERE client_order_id = ${clientOrderId}`.execute(this.database.db);
    return rows.rows[0] ? toOrder(rows.rows[0]) : undefined;
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
  async fillsOfOrders(orderIds: readonly number[]): Promise<FillRow[]> {
    if (orderIds.length === 0) return [];
    const ids = sql.join(orderIds.map((id) => sql`${id}::int8`));
    const rows = await sql<Record<string, unknown>>`
      SELECT fill_id, sequence, market_id, maker_order_id, taker_order_id, maker_owner_id,
        taker_owner_id, taker_side, price_ticks, quantity_lots, base_amount::text AS base_amount,
        quote_amount::text AS quote_amount, fee_maker::text AS fee_maker, fee_maker_asset_id,
        fee_taker::text AS fee_taker, fee_taker_asset_id, tick_id, at_ms
      FROM rm_fills WHERE maker_order_id IN (${ids}) OR taker_order_id IN (${ids})
      ORDER BY fill_id`.execute(this.database.db);
    return rows.rows.map((r) => ({
      fillId: Number(r.fill_id),
      sequence: BigInt(r.sequence as bigint),
      marketId: r.market_id as string,
      makerOrderId: Number(r.maker_order_id),
      takerOrderId: Number(r.taker_order_id),
      makerOwnerId: r.maker_owner_id as string,
      takerOwnerId: r.taker_owner_id as string,
      takerSide: r.taker_side as "buy" | "sell",
      priceTicks: Number(r.price_ticks),
      quantityLots: Number(r.quantity_lots),
      baseAmount: BigInt(r.base_amount as string),
      quoteAmount: BigInt(r.quote_amount as string),
      feeMaker: BigInt(r.fee_maker as string),
      feeMakerAssetId: r.fee_maker_asset_id as string,
      feeTaker: BigInt(r.fee_taker as string),
      feeTakerAssetId: r.fee_taker_asset_id as string,
      tickId: (r.tick_id as string | null) ?? null,
      atMs: Number(r.at_ms),
    }));
  }

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
