import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { silentLogger, type JournalLogger } from "../journal/journal.ts";
import { PerpRecords } from "./perp-records.ts";
import { fillColumns, fillRecordOf, fillValues, type FillEventShape } from "./fill-record.ts";
import { valuesStatements } from "./statements.ts";

/*
 * The kernel's event shapes this projector reads (a structural subset of `@candor/kernel`'s
 * `Event`, so the projector does not change when the kernel adds events or fields).
 */
interface OrderViewShape {
  orderId: number;
  clientOrderId: string;
  ownerId: string;
  mode: string;
  marketId: string;
  side: string;
  orderType: string;
  timeInForce: string;
  priceTicks: number;
  quantityLots: number;
  filledLots: number;
  remainingLots: number;
  status: string;
  createdAtMs: number;
}
interface PostingShape {
  seq: number;
  debitAccount: string;
  creditAccount: string;
  assetId: string;
  amount: bigint;
  debitHeld: boolean;
  reason: string;
  commandId: string;
  atMs: number;
  orderId: number | null;
  fillId: number | null;
  tickId: string | null;
  operatorId: string | null;
  reference: string | null;
}
interface SavingsSubscriptionShape {
  subscriptionId: string;
  ownerId: string;
  mode: string;
  planId: string;
  status: string;
  endedAtMs: number;
}

interface StockOrderShape {
  orderId: number;
  clientOrderId: string;
  ownerId: string;
  mode: string;
  instrumentId: string;
  assetId: string;
  side: string;
  kind: string;
  tif: string;
  origin: string;
  quantity: bigint;
  limitPrice: string | null;
  prepaid: bigint;
  placedAtMs: number;
  status: string;
  closedAtMs: number | null;
}
interface StockFillShape {
  orderId: number;
  ownerId: string;
  mode: string;
  instrumentId: string;
  assetId: string;
  side: string;
  origin: string;
  quantity: bigint;
  price: string;
  notional: bigint;
  commission: bigint;
  stampDuty: bigint;
  net: bigint;
  released: bigint;
  tickId: string;
  tickPrice: string;
  filledAtMs: number;
}
interface SecondsContractShape {
  contractId: string;
  ownerId: string;
  mode: string;
  instrumentId: string;
  periodMs: number;
  assetId: string;
  direction: string;
  stake: bigint;
  payoutBps: number;
  payoutMax: bigint;
  boughtAtMs: number;
  expiresAtMs: number;
  openTickId: string;
  openPrice: string;
  status: string;
  settleTickId: string | null;
  settlePrice: string | null;
  settleTickAtMs: number | null;
  settledAtMs: number | null;
  outcome: string | null;
  returned: bigint | null;
}
interface TickShape {
  tickId: string;
  instrumentId: string;
  price: string;
  tickAtMs: number;
  recordedAtMs: number;
}

/** Any kernel event; the projector looks only at the types it knows. */
export interface ProjectableEvent {
  type: string;
}

/** One applied command with its events, as the engine publishes it. */
/** A `referral_rebate` event as the projector reads it. */
interface RebateShape {
  postingSeq: number;
  inviterId: string;
  inviteeId: string;
  mode: string;
  product: string;
  assetId: string;
  fee: bigint;
  rebate: bigint;
  atMs: number;
}

/** An `agent_fee` event as the projector reads it. */
interface AgentFeeShape {
  feeId: number;
  agentId: string;
  memberId: string;
  mode: string;
  product: string;
  assetId: string;
  fee: bigint;
  referralRebate: bigint;
  rebate: bigint;
  level: number;
  atMs: number;
}

export interface ProjectableCommand {
  sequence: bigint;
  events: readonly ProjectableEvent[];
  /** The command and its result (perpetual orders are read from them; see perp-records.ts). */
  command?: { type: string; id: string; atMs: number };
  result?: unknown;
}

/** A spot conditional order as conditional_accepted carries it (see the kernel's spot types). */
interface ConditionalViewShape {
  orderId: number;
  clientOrderId: string;
  ownerId: string;
  mode: string;
  marketId: string;
  side: string;
  kind: string;
  orderType: string;
  timeInForce: string;
  triggerTicks: number;
  priceTicks: number | null;
  quantityLots: number | null;
  quoteAmount: bigint | null;
  selfTradeMode: string;
  ocoOrderId: number | null;
  createdAtMs: number;
}

interface ConditionalPatch {
  sequence: bigint;
  base?: ConditionalViewShape;
  status?: string;
  reason?: string | null;
  tickId?: string;
  tickPrice?: string;
  resultOrderId?: number | null;
  rejectCode?: string | null;
  doneAtMs?: number;
}

interface OrderPatch {
  sequence: bigint;
  base?: OrderViewShape;
  priceTicks?: number;
  remainingAbsolute?: number;
  remainingDelta: number;
  filledAbsolute?: number;
  filledDelta: number;
  status?: string;
}

export const projectorName = "kernel_events";

/**
 * Turns the kernel's events into rows (orders, fills, statement lines, ticks) in batches: each
 * flush is one transaction of multi-row statements that also moves the cursor, so after a
 * restart the projector resumes exactly after the last sequence it wrote.
 */
export class ReadModelProjector {
  private buffer: ProjectableCommand[] = [];
  private bufferedEvents = 0;
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private cursorSequence = 0n;
  /** Set after a failed write; nothing more is projected until a restart. */
  failed = false;
  private readonly logger: JournalLogger;

  constructor(
    private readonly database: Database,
    private readonly options: {
      batchEventsMax?: number;
      flushDelayMs?: number;
      logger?: JournalLogger;
    } = {},
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  /** Reads the cursor: the last sequence already written. */
  async load(): Promise<bigint> {
    const rows = await sql<{ sequence: bigint }>`
      SELECT sequence FROM read_model_cursor WHERE name = ${projectorName}`.execute(
      this.database.db,
    );
    this.cursorSequence = rows.rows[0] ? BigInt(rows.rows[0].sequence) : 0n;
    return this.cursorSequence;
  }

  get cursor() {
    return this.cursorSequence;
  }

  /** Queues one applied command (skipped when already written). */
  handle(applied: ProjectableCommand) {
    if (this.failed) return;
    const last = this.buffer[this.buffer.length - 1]?.sequence ?? this.cursorSequence;
    if (applied.sequence <= last) return;
    this.buffer.push(applied);
    this.bufferedEvents += applied.events.length + 1;
    if (this.bufferedEvents >= (this.options.batchEventsMax ?? 2_000)) {
      void this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.flushDelayMs ?? 50);
    }
  }

  /** Writes everything queued so far; resolves when it is committed. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.buffer;
    this.buffer = [];
    this.bufferedEvents = 0;
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0 || this.failed) return;
      try {
        await this.write(batch);
        this.cursorSequence = batch[batch.length - 1]!.sequence;
      } catch (error) {
        // Read models are derived data: stop projecting (never leave a silent gap), log, and
        // let the next start or `npm run rebuild-read-models` catch up from the cursor.
        this.failed = true;
        this.logger.error({ error: String(error) }, "read models: projection failed, stopped");
      }
    });
    return this.flushing;
  }

  private async write(batch: ProjectableCommand[]) {
    const fills: unknown[][] = [];
    const lines: unknown[][] = [];
    const ticks: unknown[][] = [];
    const orders = new Map<number, OrderPatch>();
    // The latest view of each seconds contract in the batch (both events carry all of it).
    const contracts = new Map<string, { sequence: bigint; contract: SecondsContractShape }>();
    const savingsEnded: unknown[][] = [];
    // The latest view of each stock order in the batch, and the stock fills.
    const stockOrders = new Map<number, { sequence: bigint; order: StockOrderShape }>();
    const stockFills: unknown[][] = [];
    const rebates: unknown[][] = [];
    const agentFees: unknown[][] = [];
    const patch = (orderId: number, sequence: bigint) => {
      let entry = orders.get(orderId);
      if (!entry) {
        entry = { sequence, remainingDelta: 0, filledDelta: 0 };
        orders.set(orderId, entry);
      }
      entry.sequence = sequence;
      return entry;
    };
    const conditionals = new Map<number, ConditionalPatch>();
    const conditional = (orderId: number, sequence: bigint) => {
      let entry = conditionals.get(orderId);
      if (!entry) {
        entry = { sequence };
        conditionals.set(orderId, entry);
      }
      entry.sequence = sequence;
      return entry;
    };
    const perp = new PerpRecords();
    for (const { sequence, events, command, result } of batch) {
      perp.add(sequence, events, command, result as Parameters<PerpRecords["add"]>[3]);
      const seq = String(sequence);
      for (const event of events) {
        switch (event.type) {
          case "order_accepted": {
            const order = (event as unknown as { order: OrderViewShape }).order;
            const entry = patch(order.orderId, sequence);
            entry.base = order;
            entry.status = order.status;
            entry.remainingAbsolute = order.remainingLots;
            entry.remainingDelta = 0;
            entry.filledAbsolute = order.filledLots;
            entry.filledDelta = 0;
            break;
          }
          case "order_rested":
          case "order_replaced": {
            const e = event as unknown as {
              orderId: number;
              priceTicks: number;
              remainingLots: number;
            };
            const entry = patch(e.orderId, sequence);
            entry.priceTicks = e.priceTicks;
            entry.remainingAbsolute = e.remainingLots;
            entry.remainingDelta = 0;
            entry.status = "open";
            break;
          }
          case "order_amended": {
            const e = event as unknown as { orderId: number; remainingLots: number };
            const entry = patch(e.orderId, sequence);
            entry.remainingAbsolute = e.remainingLots;
            entry.remainingDelta = 0;
            break;
          }
          case "conditional_accepted": {
            const order = (event as unknown as { order: ConditionalViewShape }).order;
            const entry = conditional(order.orderId, sequence);
            entry.base = order;
            entry.status = "pending";
            break;
          }
          case "conditional_triggered": {
            const e = event as unknown as { orderId: number; tickId: string; tickPrice: string };
            const entry = conditional(e.orderId, sequence);
            entry.tickId = e.tickId;
            entry.tickPrice = e.tickPrice;
            break;
          }
          case "conditional_done": {
            const e = event as unknown as {
              orderId: number;
              status: string;
              reason: string | null;
              resultOrderId: number | null;
              rejectCode: string | null;
            };
            const entry = conditional(e.orderId, sequence);
            entry.status = e.status;
            entry.reason = e.reason;
            entry.resultOrderId = e.resultOrderId;
            entry.rejectCode = e.rejectCode;
            entry.doneAtMs = command?.atMs ?? 0;
            break;
          }
          case "order_cancelled": {
            const e = event as unknown as { orderId: number; remainingLots: number };
            const entry = patch(e.orderId, sequence);
            entry.status = "cancelled";
            entry.remainingAbsolute = e.remainingLots;
            entry.remainingDelta = 0;
            break;
          }
          case "order_done": {
            const e = event as unknown as { orderId: number; status: string; filledLots: number };
            const entry = patch(e.orderId, sequence);
            entry.status = e.status;
            entry.filledAbsolute = e.filledLots;
            entry.filledDelta = 0;
            break;
          }
          case "fill": {
            const f = event as unknown as FillEventShape;
            for (const orderId of [f.makerOrderId, f.takerOrderId]) {
              const entry = patch(orderId, sequence);
              entry.filledDelta += f.quantityLots;
              entry.remainingDelta -= f.quantityLots;
            }
            fills.push(fillValues(fillRecordOf(f, sequence)));
            break;
          }
          case "posting": {
            const p = (event as unknown as { posting: PostingShape }).posting;
            for (const [account, amount, fromHeld] of [
              [p.debitAccount, -p.amount, p.debitHeld],
              [p.creditAccount, p.amount, false],
            ] as const) {
              const [ownerId = "", mode = "", wallet = "", assetId = ""] = account.split("|");
              lines.push([
                p.seq,
                account,
                ownerId,
                mode,
                wallet,
                assetId,
                String(amount),
                fromHeld,
                p.reason,
                p.commandId,
                seq,
                p.atMs,
                p.orderId,
                p.fillId,
                p.tickId,
                p.operatorId,
                p.reference,
              ]);
            }
            break;
          }
          case "seconds_purchased":
          case "seconds_settled": {
            const contract = (event as unknown as { contract: SecondsContractShape }).contract;
            contracts.set(contract.contractId, { sequence, contract });
            break;
          }
          case "savings_subscription_ended": {
            const sub = (event as unknown as { subscription: SavingsSubscriptionShape })
              .subscription;
            const data = JSON.stringify(sub, (_key, value: unknown) =>
              typeof value === "bigint" ? value.toString() : value,
            );
            savingsEnded.push([
              sub.subscriptionId,
              sub.ownerId,
              sub.mode,
              sub.planId,
              sub.status,
              sub.endedAtMs,
              data,
              seq,
            ]);
            break;
          }
          case "stock_order_placed":
          case "stock_order_closed":
          case "stock_order_filled": {
            const e = event as unknown as { order: StockOrderShape; fill?: StockFillShape };
            stockOrders.set(e.order.orderId, { sequence, order: e.order });
            const f = e.fill;
            if (f) {
              stockFills.push([
                f.orderId,
                f.ownerId,
                f.mode,
                f.instrumentId,
                f.assetId,
                f.side,
                f.origin,
                String(f.quantity),
                f.price,
                String(f.notional),
                String(f.commission),
                String(f.stampDuty),
                String(f.net),
                String(f.released),
                f.tickId,
                f.tickPrice,
                f.filledAtMs,
                seq,
              ]);
            }
            break;
          }
          case "referral_rebate": {
            const r = event as unknown as RebateShape;
            rebates.push([
              r.postingSeq,
              r.inviterId,
              r.inviteeId,
              r.mode,
              r.product,
              r.assetId,
              String(r.fee),
              String(r.rebate),
              r.atMs,
              seq,
            ]);
            break;
          }
          case "agent_fee": {
            const r = event as unknown as AgentFeeShape;
            agentFees.push([
              r.feeId,
              r.agentId,
              r.memberId,
              r.mode,
              r.product,
              r.assetId,
              String(r.fee),
              String(r.referralRebate),
              String(r.rebate),
              r.level,
              r.atMs,
              seq,
            ]);
            break;
          }
          case "tick_recorded": {
            const t = (event as unknown as { tick: TickShape }).tick;
            ticks.push([t.instrumentId, t.tickId, t.price, t.tickAtMs, t.recordedAtMs, seq]);
            break;
          }
        }
      }
    }
    const newOrders: unknown[][] = [];
    const orderUpdates: unknown[][] = [];
    for (const [orderId, p] of orders) {
      const seq = String(p.sequence);
      if (p.base) {
        const b = p.base;
        newOrders.push([
          orderId,
          b.clientOrderId,
          b.ownerId,
          b.mode,
          b.marketId,
          b.side,
          b.orderType,
          b.timeInForce,
          p.priceTicks ?? b.priceTicks,
          b.quantityLots,
          (p.filledAbsolute ?? 0) + p.filledDelta,
          (p.remainingAbsolute ?? 0) + p.remainingDelta,
          p.status ?? b.status,
          b.createdAtMs,
          seq,
          seq,
        ]);
      } else {
        orderUpdates.push([
          orderId,
          p.priceTicks ?? null,
          p.filledAbsolute ?? null,
          p.filledDelta,
          p.remainingAbsolute ?? null,
          p.remainingDelta,
          p.status ?? null,
          seq,
        ]);
      }
    }
    const newConditionals: unknown[][] = [];
    const conditionalUpdates: unknown[][] = [];
    for (const [orderId, p] of conditionals) {
      const seq = String(p.sequence);
      if (p.base) {
        const b = p.base;
        const quote = b.quoteAmount === null ? null : String(b.quoteAmount);
        newConditionals.push([
          orderId,
          b.clientOrderId,
          b.ownerId,
          b.mode,
          b.marketId,
          b.side,
          b.kind,
          b.orderType,
          b.timeInForce,
          b.triggerTicks,
          b.priceTicks,
          b.quantityLots,
          quote,
          b.selfTradeMode,
          b.ocoOrderId,
          p.status ?? "pending",
          p.reason ?? null,
          p.tickId ?? null,
          p.tickPrice ?? null,
          p.resultOrderId ?? null,
          p.rejectCode ?? null,
          b.createdAtMs,
          p.doneAtMs ?? null,
          seq,
          seq,
        ]);
      } else {
        conditionalUpdates.push([
          orderId,
          p.status ?? null,
          p.reason ?? null,
          p.tickId ?? null,
          p.tickPrice ?? null,
          p.resultOrderId ?? null,
          p.rejectCode ?? null,
          p.doneAtMs ?? null,
          seq,
        ]);
      }
    }
    const contractRows = [...contracts.values()].map(({ sequence, contract: c }) => [
      c.contractId,
      c.ownerId,
      c.mode,
      c.instrumentId,
      c.periodMs,
      c.assetId,
      c.direction,
      String(c.stake),
      c.payoutBps,
      String(c.payoutMax),
      c.boughtAtMs,
      c.expiresAtMs,
      c.openTickId,
      c.openPrice,
      c.status,
      c.settleTickId,
      c.settlePrice,
      c.settleTickAtMs,
      c.settledAtMs,
      c.outcome,
      c.returned === null ? null : String(c.returned),
      String(sequence),
    ]);
    const stockOrderRows = [...stockOrders.values()].map(({ sequence, order: o }) => [
      o.orderId,
      o.clientOrderId,
      o.ownerId,
      o.mode,
      o.instrumentId,
      o.assetId,
      o.side,
      o.kind,
      o.tif,
      o.origin,
      String(o.quantity),
      o.limitPrice,
      String(o.prepaid),
      o.placedAtMs,
      o.status,
      o.closedAtMs,
      String(sequence),
    ]);
    const last = String(batch[batch.length - 1]!.sequence);
    const int8 = "int8";
    const text = "text";
    // One transaction, sent as one batch: statements in this order, the cursor last.
    await this.database.executeBatch([
      ...valuesStatements(
        "INSERT INTO rm_orders (order_id, client_order_id, owner_id, mode, market_id, side, order_type, time_in_force, price_ticks, quantity_lots, filled_lots, remaining_lots, status, created_at_ms, sequence, updated_sequence) VALUES",
        "ON CONFLICT (order_id) DO NOTHING",
        newOrders,
      ),
      ...valuesStatements(
        "UPDATE rm_orders o SET price_ticks = COALESCE(v.price_ticks, o.price_ticks), filled_lots = COALESCE(v.filled_absolute, o.filled_lots) + v.filled_delta, remaining_lots = COALESCE(v.remaining_absolute, o.remaining_lots) + v.remaining_delta, status = COALESCE(v.status, o.status), updated_sequence = v.sequence FROM (VALUES",
        ") AS v(order_id, price_ticks, filled_absolute, filled_delta, remaining_absolute, remaining_delta, status, sequence) WHERE o.order_id = v.order_id",
        orderUpdates,
        [int8, int8, int8, int8, int8, int8, text, int8],
      ),
      ...valuesStatements(
        "INSERT INTO rm_spot_conditional_orders (order_id, client_order_id, owner_id, mode, market_id, side, kind, order_type, time_in_force, trigger_ticks, price_ticks, quantity_lots, quote_amount, self_trade_mode, oco_order_id, status, reason, tick_id, tick_price, result_order_id, reject_code, created_at_ms, done_at_ms, sequence, updated_sequence) VALUES",
        "ON CONFLICT (order_id) DO NOTHING",
        newConditionals,
      ),
      ...valuesStatements(
        "UPDATE rm_spot_conditional_orders o SET status = COALESCE(v.status, o.status), reason = COALESCE(v.reason, o.reason), tick_id = COALESCE(v.tick_id, o.tick_id), tick_price = COALESCE(v.tick_price, o.tick_price), result_order_id = COALESCE(v.result_order_id, o.result_order_id), reject_code = COALESCE(v.reject_code, o.reject_code), done_at_ms = COALESCE(v.done_at_ms, o.done_at_ms), updated_sequence = v.sequence FROM (VALUES",
        ") AS v(order_id, status, reason, tick_id, tick_price, result_order_id, reject_code, done_at_ms, sequence) WHERE o.order_id = v.order_id",
        conditionalUpdates,
        [int8, text, text, text, text, int8, text, int8, int8],
      ),
      ...valuesStatements(
        `INSERT INTO rm_fills (${fillColumns}) VALUES`,
        "ON CONFLICT (fill_id) DO NOTHING",
        fills,
      ),
      ...valuesStatements(
        "INSERT INTO rm_statement_lines (posting_seq, account, owner_id, mode, wallet, asset_id, amount, from_held, reason, command_id, sequence, at_ms, order_id, fill_id, tick_id, operator_id, reference) VALUES",
        "ON CONFLICT (posting_seq, account) DO NOTHING",
        lines,
      ),
      ...valuesStatements(
        "INSERT INTO rm_ticks (instrument_id, tick_id, price, tick_at_ms, recorded_at_ms, sequence) VALUES",
        "ON CONFLICT (instrument_id, tick_id) DO NOTHING",
        ticks,
      ),
      ...valuesStatements(
        "INSERT INTO rm_seconds_contracts (contract_id, owner_id, mode, instrument_id, period_ms, asset_id, direction, stake, payout_bps, payout_max, bought_at_ms, expires_at_ms, open_tick_id, open_price, status, settle_tick_id, settle_price, settle_tick_at_ms, settled_at_ms, outcome, returned, sequence) VALUES",
        "ON CONFLICT (contract_id) DO UPDATE SET status = EXCLUDED.status, settle_tick_id = EXCLUDED.settle_tick_id, settle_price = EXCLUDED.settle_price, settle_tick_at_ms = EXCLUDED.settle_tick_at_ms, settled_at_ms = EXCLUDED.settled_at_ms, outcome = EXCLUDED.outcome, returned = EXCLUDED.returned, sequence = EXCLUDED.sequence WHERE rm_seconds_contracts.status = 'open'",
        contractRows,
      ),
      ...valuesStatements(
        "INSERT INTO rm_savings_subscriptions (subscription_id, owner_id, mode, plan_id, status, ended_at_ms, data, sequence) VALUES",
        "ON CONFLICT (subscription_id, sequence) DO NOTHING",
        savingsEnded,
      ),
      ...valuesStatements(
        "INSERT INTO rm_stock_orders (order_id, client_order_id, owner_id, mode, instrument_id, asset_id, side, kind, tif, origin, quantity, limit_price, prepaid, placed_at_ms, status, closed_at_ms, sequence) VALUES",
        "ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status, closed_at_ms = EXCLUDED.closed_at_ms, sequence = EXCLUDED.sequence WHERE rm_stock_orders.status = 'pending'",
        stockOrderRows,
      ),
      ...valuesStatements(
        "INSERT INTO rm_stock_fills (order_id, owner_id, mode, instrument_id, asset_id, side, origin, quantity, price, notional, commission, stamp_duty, net, released, tick_id, tick_price, filled_at_ms, sequence) VALUES",
        "ON CONFLICT (order_id) DO NOTHING",
        stockFills,
      ),
      ...valuesStatements(
        "INSERT INTO rm_referral_rebates (posting_seq, inviter_id, invitee_id, mode, product, asset_id, fee, rebate, at_ms, sequence) VALUES",
        "ON CONFLICT (posting_seq) DO NOTHING",
        rebates,
      ),
      ...valuesStatements(
        "INSERT INTO rm_agent_fees (fee_id, agent_id, member_id, mode, product, asset_id, fee, referral_rebate, rebate, level, at_ms, sequence) VALUES",
        "ON CONFLICT (fee_id) DO NOTHING",
        agentFees,
      ),
      ...(perp.empty ? [] : perp.statements()),
      {
        sql: "INSERT INTO read_model_cursor (name, sequence) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET sequence = EXCLUDED.sequence",
        parameters: [projectorName, last],
      },
    ]);
  }
}

/** Empties every read model and its cursor (before a rebuild). */
export async function clearReadModels(database: Database) {
  await database.execScript(
    "DELETE FROM rm_orders; DELETE FROM rm_fills; DELETE FROM rm_statement_lines; DELETE FROM rm_ticks; DELETE FROM rm_seconds_contracts; DELETE FROM rm_savings_subscriptions; DELETE FROM rm_stock_orders; DELETE FROM rm_stock_fills; DELETE FROM rm_perp_orders; DELETE FROM rm_perp_records; DELETE FROM rm_spot_conditional_orders; DELETE FROM rm_referral_rebates; DELETE FROM rm_agent_fees; DELETE FROM read_model_cursor",
  );
}

/** Balance of one account as the statement lines add it up: available + held. */
export interface ReadModelBalance {
  account: string;
  total: bigint;
}

export async function readModelBalances(database: Database): Promise<ReadModelBalance[]> {
  const rows = await sql<{ account: string; total: string }>`
    SELECT account, sum(amount)::text AS total FROM rm_statement_lines GROUP BY account ORDER BY account`.execute(
    database.db,
  );
  return rows.rows.map((r) => ({ account: r.account, total: BigInt(r.total) }));
}

/** One account whose read-model total differs from the kernel's. */
export interface BalanceDifference {
  account: string;
  readModel: bigint;
  kernel: bigint;
}

/**
 * Compares the read models' per-account totals with the kernel's. `kernelTotal` returns
 * available + held for an account key; `kernelAccounts` lists accounts the kernel holds money in.
 */
export async function compareBalances(
  database: Database,
  kernelTotal: (account: string) => bigint,
  kernelAccounts: readonly string[],
): Promise<BalanceDifference[]> {
  const fromReadModel = new Map(
    (await readModelBalances(database)).map((b) => [b.account, b.total]),
  );
  const accounts = new Set([...fromReadModel.keys(), ...kernelAccounts]);
  const differences: BalanceDifference[] = [];
  for (const account of [...accounts].sort()) {
    const readModel = fromReadModel.get(account) ?? 0n;
    const kernel = kernelTotal(account);
    if (readModel !== kernel) differences.push({ account, readModel, kernel });
  }
  return differences;
}
