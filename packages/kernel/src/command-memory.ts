// What the kernel remembers of each command for idempotency: its id, time, type, a 64-bit
// fingerprint of its content and its result — in typed arrays, not objects. Keeping the
// command and result objects alive for the whole window made every command survive garbage
// collection into the old generation, which cost more than everything else the kernel does.

import { Fingerprinter } from "./fingerprint.ts";
import { IdIndex, type IdSource } from "./id-index.ts";
import type { Json, ResultField } from "./module.ts";
import { rejectCodes, type RejectCode } from "./reject-codes.ts";
import { commandCodecs, commandTypesByCode } from "./registry.ts";
import type { CancelOrderValue, OrderOutcome, OrderStatus } from "./spot/types.ts";
import type { CancelledValue, Command, CommandResult, CommandType, PostingValue } from "./types.ts";

const codeIndex = Object.freeze(
  Object.fromEntries(rejectCodes.map((code, index) => [code, index])),
) as Readonly<Record<RejectCode, number>>;
const statuses: readonly OrderStatus[] = ["open", "filled", "cancelled", "expired", "rejected"];
/** The index of a status in `statuses` (a switch: cheaper than a keyed lookup per command). */
function statusCode(status: OrderStatus): number {
  switch (status) {
    case "open":
      return 0;
    case "filled":
      return 1;
    case "cancelled":
      return 2;
    case "expired":
      return 3;
    case "rejected":
      return 4;
  }
}
/** Slot of each numeric result field in `numbers` (orderStatus has its own array). */
const numberSlots = { orderId: 0, filledLots: 1, restingLots: 2, cancelledCount: 3, postingSeq: 4 };

/** The result values the memory reads field by field without a generic walk. */
const enum ResultShape {
  None,
  OrderOutcome,
  CancelOrder,
  CancelledCount,
  PostingSeq,
  Other,
}

/** Each command type's result shape, by type code (made once at load). */
const resultShapes: Readonly<Uint8Array> = (() => {
  const shapes = new Uint8Array(commandTypesByCode.length).fill(ResultShape.Other);
  const known: [string, ResultShape][] = [
    ["", ResultShape.None],
    ["orderId,orderStatus,filledLots,restingLots", ResultShape.OrderOutcome],
    ["orderId,cancelledCount", ResultShape.CancelOrder],
    ["cancelledCount", ResultShape.CancelledCount],
    ["postingSeq", ResultShape.PostingSeq],
  ];
  commandTypesByCode.forEach((type, code) => {
    const fields = commandCodecs[type].result.join(",");
    for (const [list, shape] of known) if (list === fields) shapes[code] = shape;
  });
  return shapes;
})();

/**
 * Which of the six snapshot result fields (orderId, orderStatus, filledLots, restingLots,
 * cancelledCount, postingSeq) each command type's result has, by type code.
 */
const resultFieldsByCode: readonly (readonly boolean[])[] = commandTypesByCode.map((type) => {
  const fields: readonly ResultField[] = commandCodecs[type].result;
  return [
    "orderId",
    "orderStatus",
    "filledLots",
    "restingLots",
    "cancelledCount",
    "postingSeq",
  ].map((field) => fields.includes(field as ResultField));
});

/** One remembered command, as snapshots carry it. */
export interface RememberedCommand {
  id: string;
  atMs: number;
  type: CommandType;
  print: [number, number];
  result: CommandResult;
}

/**
 * Remembered commands in arrival (and so time) order. Positions grow for the kernel's life; the
 * entry at position `p` lives in slot `p & mask` of ring buffers (typed arrays, and one array of
 * ids), so forgetting the oldest moves nothing and no compaction ever copies the window.
 */
export class CommandMemory implements IdSource {
  /**
   * Ids by slot; forgotten ones are undefined. Sized like the typed arrays and written by
   * index: growing an array by `push` cost more than everything else the memory does.
   */
  ids: (string | undefined)[] = new Array<string | undefined>(1024).fill(undefined);
  /** Capacity − 1 (capacity is a power of two). */
  mask = 1023;
  /** Oldest remembered position; positions before it are forgotten. */
  head = 0;
  /** The next position to fill. */
  private tail = 0;
  private atMs = new Float64Array(1024);
  private types = new Uint8Array(1024);
  private prints = new Int32Array(2048);
  /** The index hash of each id, so expiry needs no rehashing. */
  private hashes = new Int32Array(1024);
  /** -1 = ok, else the reject code's index. */
  private codes = new Int16Array(1024);
  /** -1 = null, else the status index. */
  private statuses = new Int8Array(1024);
  /** orderId, filledLots, restingLots, cancelledCount, postingSeq; NaN = null. */
  private numbers = new Float64Array(5 * 1024);
  private readonly index: IdIndex;
  private readonly print = new Int32Array(2);
  private readonly fingerprinter = new Fingerprinter();

  constructor() {
    this.index = new IdIndex(this);
  }

  /** How many commands are remembered. */
  get size(): number {
    return this.index.size;
  }

  /** The position of a remembered id, or -1. */
  find(id: string): number {
    return this.index.get(id);
  }

  /** True when `command` has the content of the one remembered at `position`. */
  sameContent(position: number, command: Command): boolean {
    const at = position & this.mask;
    if (commandTypesByCode[this.types[at]!] !== command.type) return false;
    this.fingerprinter.fingerprint(command, this.print);
    return this.prints[2 * at] === this.print[0] && this.prints[2 * at + 1] === this.print[1];
  }

  /** The first result of the command at `position`, as a fresh object. */
  result(position: number): CommandResult {
    const at = position & this.mask;
    const code = this.codes[at]!;
    if (code >= 0) return { ok: false, code: rejectCodes[code]! };
    // The value has the fields of its command type's result, in their order.
    const type = commandTypesByCode[this.types[at]!]!;
    const value: Partial<Record<ResultField, number | OrderStatus>> = {};
    for (const field of commandCodecs[type].result) {
      if (field === "orderStatus") value.orderStatus = statuses[this.statuses[at]!]!;
      else value[field] = this.numbers[5 * at + numberSlots[field]]!;
    }
    return { ok: true, value } as CommandResult;
  }

  /**
   * Remembers a command (whose id is not remembered) and its result. `id`, `atMs` and `type`
   * are the command's, passed by a caller that has read them (each read is a megamorphic lookup).
   */
  remember(
    command: Command,
    result: CommandResult,
    id: string = command.id,
    atMs: number = command.atMs,
    type: CommandType = command.type,
  ): void {
    const typeCode = this.fingerprinter.fingerprint(command, this.print, type);
    this.add(id, atMs, typeCode, this.print[0]!, this.print[1]!, result);
  }

  /** Remembers an entry restored from a snapshot. */
  restoreEntry(entry: RememberedCommand): void {
    const typeCode = commandCodecs[entry.type].typeCode;
    this.add(entry.id, entry.atMs, typeCode, entry.print[0], entry.print[1], entry.result);
  }

  private add(
    id: string,
    atMs: number,
    typeCode: number,
    print0: number,
    print1: number,
    result: CommandResult,
  ): void {
    if (this.tail - this.head > this.mask) this.grow();
    const position = this.tail++;
    const at = position & this.mask;
    this.index.set(id, position);
    this.hashes[at] = this.index.hashOf(id);
    this.ids[at] = id;
    this.atMs[at] = atMs;
    this.types[at] = typeCode;
    this.prints[2 * at] = print0;
    this.prints[2 * at + 1] = print1;
    const n = this.numbers;
    const slot = 5 * at;
    n[slot] = Number.NaN;
    n[slot + 1] = Number.NaN;
    n[slot + 2] = Number.NaN;
    n[slot + 3] = Number.NaN;
    n[slot + 4] = Number.NaN;
    this.statuses[at] = -1;
    if (!result.ok) {
      this.codes[at] = codeIndex[result.code];
      return;
    }
    this.codes[at] = -1;
    // Read the value by its type's shape: one object shape per read, no generic walk.
    switch (resultShapes[typeCode]) {
      case ResultShape.None:
        break;
      case ResultShape.OrderOutcome: {
        const v = result.value as OrderOutcome;
        n[5 * at] = v.orderId;
        this.statuses[at] = statusCode(v.orderStatus);
        n[5 * at + 1] = v.filledLots;
        n[5 * at + 2] = v.restingLots;
        break;
      }
      case ResultShape.CancelOrder: {
        const v = result.value as CancelOrderValue;
        n[5 * at] = v.orderId;
        n[5 * at + 3] = v.cancelledCount;
        break;
      }
      case ResultShape.CancelledCount:
        n[5 * at + 3] = (result.value as CancelledValue).cancelledCount;
        break;
      case ResultShape.PostingSeq:
        n[5 * at + 4] = (result.value as PostingValue).postingSeq;
        break;
      default: {
        const v = result.value as Partial<Record<ResultField, number | OrderStatus | null>>;
        const status = v.orderStatus;
        this.statuses[at] = typeof status === "string" ? statusCode(status) : -1;
        for (const field of [
          "orderId",
          "filledLots",
          "restingLots",
          "cancelledCount",
          "postingSeq",
        ] as const) {
          const value = v[field];
          if (typeof value === "number") n[5 * at + numberSlots[field]] = value;
        }
      }
    }
  }

  /** Forgets up to `countMax` of the oldest commands older than `cutoffMs`. */
  prune(cutoffMs: number, countMax: number): void {
    const end = Math.min(this.tail, this.head + countMax);
    const mask = this.mask;
    let head = this.head;
    while (head < end) {
      const at = head & mask;
      if (this.atMs[at]! >= cutoffMs) break;
      this.index.delete(this.ids[at]!, head, this.hashes[at]);
      this.ids[at] = undefined;
      head++;
    }
    this.head = head;
  }

  /**
   * Every remembered command, oldest first, as the snapshot's `idempotency` rows:
   * `[id, atMs, type, print0, print1, result]`, the result as `["reject", code]` or
   * `["ok", orderId, orderStatus, filledLots, restingLots, cancelledCount, postingSeq]` with null
   * for fields its type's result does not have (`resultToJson` of `entries()`, which a test holds
   * equal), built straight from the ring without entry and result objects.
   */
  rows(): Json[] {
    const rows = new Array<Json>(this.tail - this.head);
    const n = this.numbers;
    const num = (value: number): number | null => (Number.isFinite(value) ? value : null);
    for (let position = this.head; position < this.tail; position++) {
      const at = position & this.mask;
      const typeCode = this.types[at]!;
      const code = this.codes[at]!;
      let result: Json;
      if (code >= 0) {
        result = ["reject", rejectCodes[code]!];
      } else {
        const has = resultFieldsByCode[typeCode]!;
        const status = this.statuses[at]!;
        result = [
          "ok",
          has[0] ? num(n[5 * at]!) : null,
          has[1] && status >= 0 ? statuses[status]! : null,
          has[2] ? num(n[5 * at + 1]!) : null,
          has[3] ? num(n[5 * at + 2]!) : null,
          has[4] ? num(n[5 * at + 3]!) : null,
          has[5] ? num(n[5 * at + 4]!) : null,
        ];
      }
      rows[position - this.head] = [
        this.ids[at]!,
        this.atMs[at]!,
        commandTypesByCode[typeCode]!,
        this.prints[2 * at]!,
        this.prints[2 * at + 1]!,
        result,
      ];
    }
    return rows;
  }

  /** Every remembered command, oldest first. */
  *entries(): IterableIterator<RememberedCommand> {
    for (let position = this.head; position < this.tail; position++) {
      const at = position & this.mask;
      yield {
        id: this.ids[at]!,
        atMs: this.atMs[at]!,
        type: commandTypesByCode[this.types[at]!]!,
        print: [this.prints[2 * at]!, this.prints[2 * at + 1]!],
        result: this.result(position),
      };
    }
  }

  /** Doubles the ring buffers, moving each live entry to its slot under the new mask. */
  private grow(): void {
    const oldMask = this.mask;
    const capacity = (oldMask + 1) * 2;
    const mask = capacity - 1;
    const ids = new Array<string | undefined>(capacity).fill(undefined);
    const atMs = new Float64Array(capacity);
    const types = new Uint8Array(capacity);
    const prints = new Int32Array(2 * capacity);
    const hashes = new Int32Array(capacity);
    const codes = new Int16Array(capacity);
    const statuses = new Int8Array(capacity);
    const numbers = new Float64Array(5 * capacity);
    for (let position = this.head; position < this.tail; position++) {
      const from = position & oldMask;
      const to = position & mask;
      ids[to] = this.ids[from];
      atMs[to] = this.atMs[from]!;
      types[to] = this.types[from]!;
      prints[2 * to] = this.prints[2 * from]!;
      prints[2 * to + 1] = this.prints[2 * from + 1]!;
      hashes[to] = this.hashes[from]!;
      codes[to] = this.codes[from]!;
      statuses[to] = this.statuses[from]!;
      for (let k = 0; k < 5; k++) numbers[5 * to + k] = this.numbers[5 * from + k]!;
    }
    this.ids = ids;
    this.atMs = atMs;
    this.types = types;
    this.prints = prints;
    this.hashes = hashes;
    this.codes = codes;
    this.statuses = statuses;
    this.numbers = numbers;
    this.mask = mask;
  }
}
