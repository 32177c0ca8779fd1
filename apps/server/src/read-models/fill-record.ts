import { sql } from "kysely";

/**
 * The kernel's fill event as the read models read it: a structural subset of `@candor/kernel`'s
 * `FillEvent`, so this file does not change when the kernel adds fields.
 */
export interface FillEventShape {
  fillId: number;
  marketId: string;
  mode: "real" | "demo";
  makerOrderId: number;
  takerOrderId: number;
  makerOwnerId: string;
  takerOwnerId: string;
  /** The taker's side. */
  takerSide: "buy" | "sell";
  priceTicks: number;
  quantityLots: number;
  /** Base smallest units traded. */
  baseAmount: bigint;
  /** Quote smallest units traded. */
  quoteAmount: bigint;
  /** Smallest units of `feeMakerAssetId` (what the maker received), rounded up. */
  feeMaker: bigint;
  feeMakerAssetId: string;
  feeTaker: bigint;
  feeTakerAssetId: string;
  /** Latest tape tick of the instrument at the fill, or null before the first tick. */
  tickId: string | null;
  atMs: number;
}

/**
 * One fill, the one record every reader of fills uses: the kernel's fill and the journal
 * sequence of the command that made it. The projector writes it as an `rm_fills` row; answers,
 * streams, the order detail and the tape read it back.
 */
export interface FillRecord extends FillEventShape {
  /** Journal sequence of the command that made the fill. */
  sequence: bigint;
}

/** A fill event of the command at journal `sequence` as a record. */
export function fillRecordOf(event: FillEventShape, sequence: bigint): FillRecord {
  return {
    fillId: event.fillId,
    sequence,
    marketId: event.marketId,
    mode: event.mode,
    makerOrderId: event.makerOrderId,
    takerOrderId: event.takerOrderId,
    makerOwnerId: event.makerOwnerId,
    takerOwnerId: event.takerOwnerId,
    takerSide: event.takerSide,
    priceTicks: event.priceTicks,
    quantityLots: event.quantityLots,
    baseAmount: event.baseAmount,
    quoteAmount: event.quoteAmount,
    feeMaker: event.feeMaker,
    feeMakerAssetId: event.feeMakerAssetId,
    feeTaker: event.feeTaker,
    feeTakerAssetId: event.feeTakerAssetId,
    tickId: event.tickId,
    atMs: event.atMs,
  };
}

/** The columns of `rm_fills`, in the order of `fillValues`. */
export const fillColumns =
  "fill_id, sequence, market_id, mode, maker_order_id, taker_order_id, maker_owner_id, taker_owner_id, taker_side, price_ticks, quantity_lots, base_amount, quote_amount, fee_maker, fee_maker_asset_id, fee_taker, fee_taker_asset_id, tick_id, at_ms";

/** One `VALUES` row of `rm_fills` (columns as `fillColumns`); amounts go in as text. */
export function fillValues(f: FillRecord): unknown[] {
  return [
    f.fillId,
    String(f.sequence),
    f.marketId,
    f.mode,
    f.makerOrderId,
    f.takerOrderId,
    f.makerOwnerId,
    f.takerOwnerId,
    f.takerSide,
    f.priceTicks,
    f.quantityLots,
    String(f.baseAmount),
    String(f.quoteAmount),
    String(f.feeMaker),
    f.feeMakerAssetId,
    String(f.feeTaker),
    f.feeTakerAssetId,
    f.tickId,
    f.atMs,
  ];
}

/**
 * The select list of `rm_fills` that `fillRecordFromRow` reads (amounts as text: numeric(40,0)
 * has no exact JavaScript number).
 */
export const fillSelect = sql`fill_id, sequence, market_id, mode, maker_order_id, taker_order_id,
  maker_owner_id, taker_owner_id, taker_side, price_ticks, quantity_lots,
  base_amount::text AS base_amount, quote_amount::text AS quote_amount,
  fee_maker::text AS fee_maker, fee_maker_asset_id, fee_taker::text AS fee_taker,
  fee_taker_asset_id, tick_id, at_ms`;

/** A row selected with `fillSelect` as a record. */
export function fillRecordFromRow(r: Record<string, unknown>): FillRecord {
  return {
    fillId: Number(r.fill_id),
    sequence: BigInt(r.sequence as bigint | string),
    marketId: r.market_id as string,
    mode: r.mode as FillRecord["mode"],
    makerOrderId: Number(r.maker_order_id),
    takerOrderId: Number(r.taker_order_id),
    makerOwnerId: r.maker_owner_id as string,
    takerOwnerId: r.taker_owner_id as string,
    takerSide: r.taker_side as FillRecord["takerSide"],
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
  };
}
