import type { Statement } from "../db/database.ts";
import { valuesStatements } from "./statements.ts";

/*
 * Perpetuals in the read models (migration 0018): orders (rm_perp_orders) and each owner's
 * fills, forced events and funding payments (rm_perp_records), from the kernel's perp events
 * and, for the orders a user placed, the command and its result. Structural shapes only, like
 * the rest of the projector.
 */

interface PerpCommandShape {
  type: string;
  id: string;
  atMs: number;
  ownerId?: string;
  mode?: string;
  marketId?: string;
  side?: string;
  orderType?: string;
  timeInForce?: string;
  priceTicks?: number | null;
  quantityLots?: number;
  reduceOnly?: boolean;
}

interface PerpResultShape {
  ok: boolean;
  value?: { orderId?: number; orderStatus?: string; filledLots?: number; restingLots?: number };
}

interface PerpEventShape {
  type: string;
  [key: string]: unknown;
}

interface OrderRow {
  orderId: number;
  clientOrderId: string;
  ownerId: string;
  mode: string;
  marketId: string;
  side: string;
  orderType: string;
  timeInForce: string;
  priceTicks: number | null;
  quantityLots: number;
  filledLots: number;
  reduceOnly: boolean;
  status: string;
  createdAtMs: number;
  sequence: bigint;
}

const json = (value: unknown) =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));

const orderCommands = new Set([
  "place_perp_order",
  "place_perp_order_stp",
  "close_perp_position",
  "reverse_perp_position",
]);
const placeCommands = new Set(["place_perp_order", "place_perp_order_stp"]);

/** Collects one batch's perpetual rows; `statements` writes them in the projector's transaction. */
export class PerpRecords {
  private readonly newOrders = new Map<number, OrderRow>();
  private readonly done = new Map<number, { status: string; filledLots: number; seq: bigint }>();
  private readonly records: unknown[][] = [];

  add(
    sequence: bigint,
    events: readonly { type: string }[],
    command?: PerpCommandShape,
    result?: PerpResultShape,
  ): void {
    const atMs = command?.atMs ?? 0;
    const commandId = command?.id ?? "";
    // The order the command placed, from its result (its fills and `done` follow below).
    const placed =
      command && orderCommands.has(command.type) && result?.ok ? result.value : undefined;
    let placedRow: OrderRow | undefined;
    if (placed?.orderId !== undefined && command) {
      const isPlace = placeCommands.has(command.type);
      placedRow = {
        orderId: placed.orderId,
        clientOrderId: commandId,
        ownerId: command.ownerId ?? "",
        mode: command.mode ?? "",
        marketId: command.marketId ?? "",
        side: isPlace ? (command.side ?? "buy") : "buy",
        orderType: isPlace ? (command.orderType ?? "market") : "market",
        timeInForce: isPlace ? (command.timeInForce ?? "ioc") : "ioc",
        priceTicks: isPlace ? (command.priceTicks ?? null) : null,
        quantityLots: isPlace
          ? (command.quantityLots ?? 0)
          : (placed.filledLots ?? 0) + (placed.restingLots ?? 0),
        filledLots: placed.filledLots ?? 0,
        reduceOnly: isPlace
          ? (command.reduceOnly ?? false)
          : command.type === "close_perp_position",
        status: placed.orderStatus ?? "open",
        createdAtMs: atMs,
        sequence,
      };
      this.newOrders.set(placed.orderId, placedRow);
    }
    let index = 0;
    for (const event of events as readonly PerpEventShape[]) {
      index += 1;
      const e = event as Record<string, unknown> & { type: string };
      const mode = e.mode as string;
      const marketId = e.marketId as string;
      // Serialised on the first record only: most events (every spot one) make none.
      let tickIds: string | undefined;
      const record = (ownerId: string, kind: string, ref: string, data: unknown) =>
        this.records.push([
          ownerId,
          mode,
          marketId,
          kind,
          ref,
          String(sequence),
          atMs,
          (tickIds ??= json(e.tickIds ?? [])),
          json(data),
        ]);
      switch (e.type) {
        case "perp_fill": {
          const takerOrderId = e.takerOrderId as number;
          const takerSide = e.takerSide as string;
          const makerSide = takerSide === "buy" ? "sell" : "buy";
          const lots = e.quantityLots as number;
          if (placedRow && placedRow.orderId === takerOrderId) {
            if (!placeCommands.has(command?.type ?? "")) placedRow.side = takerSide;
          } else if (!this.newOrders.has(takerOrderId)) {
            // An order the kernel placed itself (close all, a trigger, a liquidation).
            this.newOrders.set(takerOrderId, {
              orderId: takerOrderId,
              clientOrderId: commandId,
              ownerId: e.takerOwnerId as string,
              mode,
              marketId,
              side: takerSide,
              orderType: "market",
              timeInForce: "ioc",
              priceTicks: null,
              quantityLots: 0,
              filledLots: 0,
              reduceOnly: true,
              status: "open",
              createdAtMs: atMs,
              sequence,
            });
          }
          const kernelPlaced = this.newOrders.get(takerOrderId);
          if (kernelPlaced && kernelPlaced !== placedRow && kernelPlaced.priceTicks === null) {
            kernelPlaced.quantityLots += lots;
            kernelPlaced.filledLots += lots;
          }
          const fill = {
            fillId: e.fillId,
            priceTicks: e.priceTicks,
            quantityLots: lots,
            liquidation: e.liquidation,
          };
          record(e.makerOwnerId as string, "fill", `${String(e.fillId)}:maker`, {
            ...fill,
            orderId: e.makerOrderId,
            side: makerSide,
            role: "maker",
            realised: e.realisedMaker,
            fee: e.feeMaker,
          });
          record(e.takerOwnerId as string, "fill", `${String(e.fillId)}:taker`, {
            ...fill,
            orderId: takerOrderId,
            side: takerSide,
            role: "taker",
            realised: e.realisedTaker,
            fee: e.feeTaker,
          });
          break;
        }
        case "perp_order_done":
          this.done.set(e.orderId as number, {
            status: e.status as string,
            filledLots: e.filledLots as number,
            seq: sequence,
          });
          break;
        case "perp_liquidation":
          record(e.ownerId as string, "forced", String(index), {
            kind: "liquidation",
            markTicks: e.markTicks,
            priceTicks: e.limitTicks,
            lots: e.lots,
            amount: null,
            rank: null,
          });
          break;
        case "perp_insurance_takeover":
          record(e.ownerId as string, "forced", String(index), {
            kind: "insurance_takeover",
            markTicks: null,
            priceTicks: null,
            lots: e.lots,
            amount: e.quoteAmount,
            rank: null,
          });
          break;
        case "perp_auto_deleverage": {
          const data = {
            kind: "auto_deleverage",
            markTicks: null,
            priceTicks: null,
            lots: e.lots,
            amount: e.quoteAmount,
            rank: e.rank,
          };
          record(e.ownerId as string, "forced", `${index}`, data);
          record(e.counterpartyId as string, "forced", `${index}:counterparty`, data);
          break;
        }
        case "perp_negative_balance_cover":
          record(e.ownerId as string, "forced", String(index), {
            kind: "negative_balance_cover",
            markTicks: null,
            priceTicks: null,
            lots: null,
            amount: e.amount,
            rank: null,
          });
          break;
        case "perp_trigger_fired":
          record(e.ownerId as string, "forced", String(index), {
            kind: e.kind,
            markTicks: e.markTicks,
            priceTicks: e.triggerTicks,
            lots: null,
            amount: null,
            rank: null,
          });
          break;
        case "perp_conditional_done":
          // A stop or take-profit order that ended: what it placed, why that was refused, or
          // who cancelled it before it fired.
          record(e.ownerId as string, "forced", String(index), {
            kind:
              e.status === "cancelled"
                ? "conditional_cancelled"
                : e.status === "rejected"
                  ? "conditional_rejected"
                  : e.kind === "stop"
                    ? "stop_order"
                    : "take_profit_order",
            markTicks: e.markTicks,
            priceTicks: BigInt(e.triggerTicks as number),
            lots: e.quantityLots,
            amount: null,
            rank: null,
            rejectCode: e.rejectCode,
            reason: e.reason,
          });
          break;
        case "perp_funding_settled": {
          const payments = e.payments as { ownerId: string; sizeLots: bigint; amount: bigint }[];
          for (const p of payments) {
            record(p.ownerId, "funding", String(index), {
              rateE8: e.rateE8,
              markTicks: e.markTicks,
              sizeLots: p.sizeLots,
              amount: p.amount,
            });
          }
          break;
        }
      }
    }
  }

  get empty(): boolean {
    return this.newOrders.size === 0 && this.done.size === 0 && this.records.length === 0;
  }

  /** The batch's perpetual rows as statements, for the projector's one transaction. */
  statements(): Statement[] {
    // Orders finished in the batch that are also new in it: finish them before inserting.
    const updates: unknown[][] = [];
    for (const [orderId, d] of this.done) {
      const row = this.newOrders.get(orderId);
      if (row) {
        row.status = d.status;
        row.filledLots = Math.max(row.filledLots, d.filledLots);
      } else {
        updates.push([orderId, d.status, d.filledLots, String(d.seq)]);
      }
    }
    const rows = [...this.newOrders.values()].map((o) => [
      o.orderId,
      o.clientOrderId,
      o.ownerId,
      o.mode,
      o.marketId,
      o.side,
      o.orderType,
      o.timeInForce,
      o.priceTicks,
      o.quantityLots,
      o.filledLots,
      o.reduceOnly,
      o.status,
      o.createdAtMs,
      String(o.sequence),
      String(o.sequence),
    ]);
    return [
      ...valuesStatements(
        "INSERT INTO rm_perp_orders (order_id, client_order_id, owner_id, mode, market_id, side, order_type, time_in_force, price_ticks, quantity_lots, filled_lots, reduce_only, status, created_at_ms, sequence, updated_sequence) VALUES",
        "ON CONFLICT (order_id) DO NOTHING",
        rows,
      ),
      ...valuesStatements(
        "UPDATE rm_perp_orders o SET status = v.status, filled_lots = v.filled_lots, updated_sequence = v.sequence FROM (VALUES",
        ") AS v(order_id, status, filled_lots, sequence) WHERE o.order_id = v.order_id",
        updates,
        ["int8", "text", "int8", "int8"],
      ),
      ...valuesStatements(
        "INSERT INTO rm_perp_records (owner_id, mode, market_id, kind, ref, sequence, at_ms, tick_ids, data) VALUES",
        "ON CONFLICT (sequence, kind, owner_id, ref) DO NOTHING",
        this.records,
      ),
    ];
  }
}
