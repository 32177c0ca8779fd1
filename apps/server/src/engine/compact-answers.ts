// The engine's duplicate-answer memory for replayed user orders, compact (issue 15, W9). The
// engine keeps the first application (command, result, kept events) of every user order for the
// kernel's 10-minute idempotency window. As objects that was ~2.5 KB of small objects per
// command that all survived into the old generation (garbage collection ~20 % of a replay).
// Here a replayed `place_order` keeps its journal record's bytes and a dozen numbers in typed
// arrays; its answer (the command decoded from the record, the result, the accepted order's
// view and its fills) is rebuilt, equal to the first one, only when a retry or `recall` asks.
// Anything that does not fit the checked pattern is kept as objects by the engine.
import type {
  Command,
  CommandResult,
  Event,
  FillEvent,
  OrderStatus,
  OrderView,
} from "@candor/kernel";
import type { AnswerMemory, FirstApplication } from "./engine.ts";

/** Answers per chunk: a chunk is freed once all of its answers are dropped. */
const CHUNK_ENTRIES = 1024;
const CHUNK_SHIFT = 10;
const MIN_BIGINT = -(2n ** 63n);
const MAX_BIGINT = 2n ** 63n - 1n;
const statuses: readonly OrderStatus[] = ["open", "filled", "cancelled", "expired", "rejected"];
/** Numbers kept per answer, in `Chunk.numbers`. */
const N = 11;
const enum Slot {
  Sequence,
  AtMs,
  OrderId,
  OrderStatus,
  FilledLots,
  RestingLots,
  ViewPriceTicks,
  ViewQuantityLots,
  ViewFilledLots,
  ViewStatus,
  ViewCreatedAtMs,
}

class Chunk {
  readonly numbers = new Float64Array(N * CHUNK_ENTRIES);
  readonly held = new BigInt64Array(CHUNK_ENTRIES);
  readonly byteStart = new Int32Array(CHUNK_ENTRIES + 1);
  /** The fills of answers that have some (most have none). */
  readonly fills: (FillEvent[] | undefined)[] = new Array<FillEvent[] | undefined>(
    CHUNK_ENTRIES,
  ).fill(undefined);
  bytes = new Uint8Array(160 * CHUNK_ENTRIES);
  entries = 0;
  live = 0;
}

/** Own enumerable keys of a plain object, counted without allocating. */
function keyCount(object: object): number {
  let count = 0;
  for (const _key in object) count += 1;
  return count;
}

function statusCode(status: OrderStatus): number {
  const code = statuses.indexOf(status);
  if (code === -1) throw new Error(`compact answers: unknown order status ${status}`);
  return code;
}

/**
 * Whether a `place_order` answer is exactly the pattern this memory rebuilds: a successful order
 * outcome, the `order_accepted` view (fields in `orderView`'s order, none of the optional ones,
 * its strings those of the command) first, then only fills.
 */
function fits(command: Command, result: CommandResult, events: Event[]): boolean {
  if (command.type !== "place_order" || !result.ok || events.length === 0) return false;
  const accepted = events[0]!;
  if (accepted.type !== "order_accepted") return false;
  for (let i = 1; i < events.length; i++) if (events[i]!.type !== "fill") return false;
  const view = accepted.order;
  return (
    view.clientOrderId === command.id &&
    view.ownerId === command.ownerId &&
    view.mode === command.mode &&
    view.marketId === command.marketId &&
    view.side === command.side &&
    view.orderType === command.orderType &&
    view.timeInForce === command.timeInForce &&
    view.quoteAmount === command.quoteAmount &&
    view.remainingLots === view.quantityLots - view.filledLots &&
    view.heldAmount >= MIN_BIGINT &&
    view.heldAmount <= MAX_BIGINT &&
    view.selfTradeMode === undefined &&
    view.ocoConditionalId === undefined &&
    view.fromConditionalId === undefined &&
    keyCount(accepted) === 2 &&
    keyCount(view) === 16 &&
    keyCount(result) === 2 &&
    keyCount(result.value as object) === 4
  );
}

export class CompactAnswers implements AnswerMemory<Command, CommandResult, Event> {
  private readonly chunks = new Map<number, Chunk>();
  private current = new Chunk();
  private currentNumber = 0;

  constructor(private readonly decode: (bytes: Uint8Array) => Command) {
    this.chunks.set(0, this.current);
  }

  keep(
    sequence: bigint,
    payload: Uint8Array,
    command: Command,
    result: CommandResult,
    events: Event[],
  ): number {
    if (!fits(command, result, events) || sequence > BigInt(Number.MAX_SAFE_INTEGER)) return -1;
    if (this.current.entries === CHUNK_ENTRIES) {
      this.current = new Chunk();
      this.currentNumber += 1;
      this.chunks.set(this.currentNumber, this.current);
    }
    const chunk = this.current;
    const entry = chunk.entries;
    const outcome = (result as { ok: true; value: Record<string, unknown> }).value as {
      orderId: number;
      orderStatus: OrderStatus;
      filledLots: number;
      restingLots: number;
    };
    const view = (events[0] as { order: OrderView }).order;
    const at = entry * N;
    const n = chunk.numbers;
    n[at + Slot.Sequence] = Number(sequence);
    n[at + Slot.AtMs] = command.atMs;
    n[at + Slot.OrderId] = outcome.orderId;
    n[at + Slot.OrderStatus] = statusCode(outcome.orderStatus);
    n[at + Slot.FilledLots] = outcome.filledLots;
    n[at + Slot.RestingLots] = outcome.restingLots;
    n[at + Slot.ViewPriceTicks] = view.priceTicks;
    n[at + Slot.ViewQuantityLots] = view.quantityLots;
    n[at + Slot.ViewFilledLots] = view.filledLots;
    n[at + Slot.ViewStatus] = statusCode(view.status);
    n[at + Slot.ViewCreatedAtMs] = view.createdAtMs;
    chunk.held[entry] = view.heldAmount;
    chunk.fills[entry] = events.length > 1 ? (events.slice(1) as FillEvent[]) : undefined;
    const start = chunk.byteStart[entry]!;
    const end = start + payload.length;
    if (end > chunk.bytes.length) {
      const grown = new Uint8Array(Math.max(end, chunk.bytes.length * 2));
      grown.set(chunk.bytes.subarray(0, start));
      chunk.bytes = grown;
    }
    chunk.bytes.set(payload, start);
    chunk.byteStart[entry + 1] = end;
    chunk.entries += 1;
    chunk.live += 1;
    return (this.currentNumber << CHUNK_SHIFT) | entry;
  }

  atMs(handle: number): number {
    return this.chunkOf(handle).numbers[(handle & (CHUNK_ENTRIES - 1)) * N + Slot.AtMs]!;
  }

  first(handle: number): FirstApplication<Command, CommandResult, Event> {
    const chunk = this.chunkOf(handle);
    const entry = handle & (CHUNK_ENTRIES - 1);
    const n = chunk.numbers;
    const at = entry * N;
    const command = this.decode(
      chunk.bytes.subarray(chunk.byteStart[entry]!, chunk.byteStart[entry + 1]!),
    );
    if (command.type !== "place_order") throw new Error("compact answers: not a place_order");
    const result = {
      ok: true,
      value: {
        orderId: n[at + Slot.OrderId]!,
        orderStatus: statuses[n[at + Slot.OrderStatus]!]!,
        filledLots: n[at + Slot.FilledLots]!,
        restingLots: n[at + Slot.RestingLots]!,
      },
    } as CommandResult;
    const quantityLots = n[at + Slot.ViewQuantityLots]!;
    const filledLots = n[at + Slot.ViewFilledLots]!;
    // Keys in `orderView`'s order, so the view serialises as the kept one did.
    const order: OrderView = {
      orderId: n[at + Slot.OrderId]!,
      clientOrderId: command.id,
      ownerId: command.ownerId,
      mode: command.mode,
      marketId: command.marketId,
      side: command.side,
      orderType: command.orderType,
      timeInForce: command.timeInForce,
      priceTicks: n[at + Slot.ViewPriceTicks]!,
      quantityLots,
      quoteAmount: command.quoteAmount,
      filledLots,
      remainingLots: quantityLots - filledLots,
      heldAmount: chunk.held[entry]!,
      status: statuses[n[at + Slot.ViewStatus]!]!,
      createdAtMs: n[at + Slot.ViewCreatedAtMs]!,
    };
    const events: Event[] = [{ type: "order_accepted", order }];
    for (const fill of chunk.fills[entry] ?? []) events.push({ ...fill });
    return { sequence: BigInt(n[at + Slot.Sequence]!), command, result, events };
  }

  drop(handle: number) {
    const number = handle >>> CHUNK_SHIFT;
    const chunk = this.chunkOf(handle);
    chunk.live -= 1;
    chunk.fills[handle & (CHUNK_ENTRIES - 1)] = undefined;
    if (chunk.live === 0 && number !== this.currentNumber) this.chunks.delete(number);
  }

  /** Chunks held (for tests: dropped answers free their memory). */
  get chunkCount() {
    return this.chunks.size;
  }

  private chunkOf(handle: number): Chunk {
    const chunk = this.chunks.get(handle >>> CHUNK_SHIFT);
    if (!chunk) throw new Error(`compact answers: no chunk for handle ${handle}`);
    return chunk;
  }
}
