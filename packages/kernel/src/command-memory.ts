// What the kernel remembers of each command for idempotency: its id, time, type, a 64-bit
// fingerprint of its content and its result — in typed arrays, not objects. Keeping the
// command and result objects alive for the whole window made every command survive garbage
// collection into the old generation, which cost more than everything else the kernel does.

import { assert } from "./assert.ts";
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

/** The six result fields snapshots write, in their order. */
const snapshotFields = [
  "orderId",
  "orderStatus",
  "filledLots",
  "restingLots",
  "cancelledCount",
  "postingSeq",
] as const satisfies readonly ResultField[];

/** Number slots per entry: a type's numeric result fields take slots 0, 1, … in order. */
const NUMBER_SLOTS = 3;

/**
 * For each type code, the number slot of each of the six snapshot fields: -1 when the type's
 * result does not have the field, -2 for `orderStatus` (kept in the entry's meta word).
 */
const fieldSlotsByCode: readonly Int8Array[] = commandTypesByCode.map((type) => {
  const fields: readonly ResultField[] = commandCodecs[type].result;
  const numeric = fields.filter((field) => field !== "orderStatus");
  assert(numeric.length <= NUMBER_SLOTS, `too many numbers in the result of ${type}`);
  return Int8Array.from(snapshotFields, (field) =>
    !fields.includes(field) ? -1 : field === "orderStatus" ? -2 : numeric.indexOf(field),
  );
});

/** Int32 words per entry in `words`: print0, print1, the id's index hash, meta, index slot. */
const WORDS = 5;

/**
 * The meta word: type code (8 bits), reject code index + 1 (16 bits; 0 = ok), status index + 1
 * (8 bits; 0 = null).
 */
assert(commandTypesByCode.length <= 0x100 && rejectCodes.length < 0xffff, "meta word too small");
function meta(typeCode: number, code: number, status: number): number {
  return typeCode | ((code + 1) << 8) | ((status + 1) << 24);
}
const typeOfMeta = (word: number) => word & 0xff;
const codeOfMeta = (word: number) => ((word >>> 8) & 0xffff) - 1;
const statusOfMeta = (word: number) => (word >>> 24) - 1;

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
 * ids), so forgetting the oldest moves nothing and no compaction ever copies the window. An
 * entry is 60 bytes in four arrays (id, time, five int32 words, three numbers): the ring is
 * written once per command and read once more when the entry expires, and every byte of it is
 * memory traffic the trading path waits for.
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
  /**
   * Per slot: print0, print1, the id's index hash (for the index's rebuilds), the meta word and
   * the id's slot in the index (so forgetting it needs no probe).
   */
  private words = new Int32Array(WORDS * 1024);
  /** Per slot: the result's numeric fields (see `fieldSlotsByCode`); NaN = null. */
  private numbers = new Float64Array(NUMBER_SLOTS * 1024);
  private readonly index: IdIndex;
  private readonly print = new Int32Array(2);
  private readonly fingerprinter = new Fingerprinter();

  constructor() {
    this.index = new IdIndex(this);
  }

  /** How many commands are remembered. */
  get size(): number {
    return this.tail - this.head;
  }

  /** The position of a remembered id, or -1. */
  find(id: string): number {
    return this.index.get(id);
  }

  /** True when `command` has the content of the one remembered at `position`. */
  sameContent(position: number, command: Command): boolean {
    const w = WORDS * (position & this.mask);
    if (commandTypesByCode[typeOfMeta(this.words[w + 3]!)] !== command.type) return false;
    this.fingerprinter.fingerprint(command, this.print);
    return this.words[w] === this.print[0] && this.words[w + 1] === this.print[1];
  }

  /** The first result of the command at `position`, as a fresh object. */
  result(position: number): CommandResult {
    const at = position & this.mask;
    const word = this.words[WORDS * at + 3]!;
    const code = codeOfMeta(word);
    if (code >= 0) return { ok: false, code: rejectCodes[code]! };
    // The value has the fields of its command type's result, in their order.
    const typeCode = typeOfMeta(word);
    const slots = fieldSlotsByCode[typeCode]!;
    const value: Partial<Record<ResultField, number | OrderStatus | null>> = {};
    for (const field of commandCodecs[commandTypesByCode[typeCode]!].result) {
      const slot = slots[snapshotFields.indexOf(field)]!;
      if (slot === -2) {
        const status = statusOfMeta(word);
        value.orderStatus = status >= 0 ? statuses[status]! : null;
      } else {
        const number = this.numbers[NUMBER_SLOTS * at + slot]!;
        value[field] = Number.isNaN(number) ? null : number;
      }
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
    this.ids[at] = id;
    this.atMs[at] = atMs;
    const w = WORDS * at;
    const words = this.words;
    words[w] = print0;
    words[w + 1] = print1;
    words[w + 2] = this.index.hashOf(id);
    words[w + 4] = this.index.set(id, position);
    if (!result.ok) {
      words[w + 3] = meta(typeCode, codeIndex[result.code], -1);
      return;
    }
    // Read the value by its type's shape: one object shape per read, no generic walk. Each
    // numeric field goes to its slot (`fieldSlotsByCode`); `result` and `rows` read only those.
    const n = this.numbers;
    const slot = NUMBER_SLOTS * at;
    let status = -1;
    switch (resultShapes[typeCode]) {
      case ResultShape.None:
        break;
      case ResultShape.OrderOutcome: {
        const v = result.value as OrderOutcome;
        n[slot] = v.orderId;
        status = statusCode(v.orderStatus);
        n[slot + 1] = v.filledLots;
        n[slot + 2] = v.restingLots;
        break;
      }
      case ResultShape.CancelOrder: {
        const v = result.value as CancelOrderValue;
        n[slot] = v.orderId;
        n[slot + 1] = v.cancelledCount;
        break;
      }
      case ResultShape.CancelledCount:
        n[slot] = (result.value as CancelledValue).cancelledCount;
        break;
      case ResultShape.PostingSeq:
        n[slot] = (result.value as PostingValue).postingSeq;
        break;
      default: {
        // Any field may be absent or null here: NaN (and status -1) say null.
        const v = result.value as Partial<Record<ResultField, number | OrderStatus | null>>;
        const slots = fieldSlotsByCode[typeCode]!;
        for (let k = 0; k < snapshotFields.length; k++) {
          const to = slots[k]!;
          const value = v[snapshotFields[k]!];
          if (to === -2) status = typeof value === "string" ? statusCode(value) : -1;
          else if (to >= 0) n[slot + to] = typeof value === "number" ? value : Number.NaN;
        }
      }
    }
    words[w + 3] = meta(typeCode, -1, status);
  }

  /** Forgets up to `countMax` of the oldest commands older than `cutoffMs`. */
  prune(cutoffMs: number, countMax: number): void {
    const end = Math.min(this.tail, this.head + countMax);
    const mask = this.mask;
    let head = this.head;
    while (head < end) {
      const at = head & mask;
      if (this.atMs[at]! >= cutoffMs) break;
      this.index.delete(this.words[WORDS * at + 4]!);
      this.ids[at] = undefined;
      head++;
    }
    this.head = head;
  }

  hashAt(position: number): number {
    return this.words[WORDS * (position & this.mask) + 2]!;
  }

  slotMoved(position: number, slot: number): void {
    this.words[WORDS * (position & this.mask) + 4] = slot;
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
    for (let position = this.head; position < this.tail; position++) {
      const at = position & this.mask;
      const w = WORDS * at;
      const word = this.words[w + 3]!;
      const typeCode = typeOfMeta(word);
      const code = codeOfMeta(word);
      let result: Json;
      if (code >= 0) {
        result = ["reject", rejectCodes[code]!];
      } else {
        const slots = fieldSlotsByCode[typeCode]!;
        const status = statusOfMeta(word);
        const field = (k: number): Json => {
          const slot = slots[k]!;
          if (slot === -1) return null;
          if (slot === -2) return status >= 0 ? statuses[status]! : null;
          const value = n[NUMBER_SLOTS * at + slot]!;
          return Number.isFinite(value) ? value : null;
        };
        result = ["ok", field(0), field(1), field(2), field(3), field(4), field(5)];
      }
      rows[position - this.head] = [
        this.ids[at]!,
        this.atMs[at]!,
        commandTypesByCode[typeCode]!,
        this.words[w]!,
        this.words[w + 1]!,
        result,
      ];
    }
    return rows;
  }

  /** Every remembered command, oldest first. */
  *entries(): IterableIterator<RememberedCommand> {
    for (let position = this.head; position < this.tail; position++) {
      const at = position & this.mask;
      const w = WORDS * at;
      yield {
        id: this.ids[at]!,
        atMs: this.atMs[at]!,
        type: commandTypesByCode[typeOfMeta(this.words[w + 3]!)]!,
        print: [this.words[w]!, this.words[w + 1]!],
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
    const words = new Int32Array(WORDS * capacity);
    const numbers = new Float64Array(NUMBER_SLOTS * capacity);
    for (let position = this.head; position < this.tail; position++) {
      const from = position & oldMask;
      const to = position & mask;
      ids[to] = this.ids[from];
      atMs[to] = this.atMs[from]!;
      words.set(this.words.subarray(WORDS * from, WORDS * from + WORDS), WORDS * to);
      numbers.set(
        this.numbers.subarray(NUMBER_SLOTS * from, NUMBER_SLOTS * from + NUMBER_SLOTS),
        NUMBER_SLOTS * to,
      );
    }
    this.ids = ids;
    this.atMs = atMs;
    this.words = words;
    this.numbers = numbers;
    this.mask = mask;
  }
}
