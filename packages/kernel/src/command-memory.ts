// What the kernel remembers of each command for idempotency: its id, time, type, a 64-bit
// fingerprint of its content and its result — in typed arrays, not objects. Keeping the
// command and result objects alive for the whole window made every command survive garbage
// collection into the old generation, which cost more than everything else the kernel does.

import { assert } from "./assert.ts";
import { commandSchemas } from "./command-codec.ts";
import { IdIndex } from "./id-index.ts";
import { rejectCodes } from "./reject-codes.ts";
import type { Command, CommandResult, CommandType, OrderStatus } from "./types.ts";

const commandTypes = Object.keys(commandSchemas) as CommandType[];
const typeIndex = new Map<string, number>(commandTypes.map((type, index) => [type, index]));
const codeIndex = new Map<string, number>(rejectCodes.map((code, index) => [code, index]));
const statuses: OrderStatus[] = ["open", "filled", "cancelled", "expired", "rejected"];
const statusIndex = new Map<string, number>(statuses.map((status, index) => [status, index]));

const scratch = new Float64Array(1);
const scratchWords = new Int32Array(scratch.buffer);

/**
 * Two independent 32-bit hashes over a command's content (every schema field but `atMs`), so a
 * repeat can be told from a reused id without keeping the command. Two different commands under
 * one id look alike with probability about 2^-64.
 */
export function fingerprint(command: Command, out: Int32Array): void {
  const type = typeIndex.get(command.type)!;
  hashA = 0x811c9dc5 ^ type;
  hashB = 0x2545f491 ^ Math.imul(type + 1, 0x9e3779b1);
  const schema = commandSchemas[command.type];
  const record = command as unknown as Record<string, unknown>;
  for (let i = 0; i < schema.length; i++) {
    const value = record[schema[i]![0]];
    if (value === null) {
      mix(0x6e756c6c);
    } else if (typeof value === "string") {
      mix(value.length ^ 0x73000000);
      for (let k = 0; k < value.length; k++) mix(value.charCodeAt(k));
    } else if (typeof value === "number") {
      if ((value | 0) === value) {
        mix(value);
        mix(0x69000000);
      } else {
        scratch[0] = value;
        mix(scratchWords[0]!);
        mix(scratchWords[1]! ^ 0x6e000000);
      }
    } else if (typeof value === "bigint") {
      let rest = value;
      mix(value < 0n ? 0x2d : 0x2b);
      if (rest < 0n) rest = -rest;
      do {
        mix(Number(BigInt.asUintN(32, rest)) | 0);
        rest >>= 32n;
      } while (rest > 0n);
    } else {
      mix(value === true ? 0x74 : 0x66);
    }
  }
  out[0] = hashA;
  out[1] = hashB ^ (hashB >>> 13);
}

// The running hashes of `fingerprint` (module state, so mixing allocates no closure).
let hashA = 0;
let hashB = 0;

function mix(word: number): void {
  hashA = Math.imul(hashA ^ word, 0x01000193);
  hashB = Math.imul(hashB ^ word, 0x5bd1e995);
  hashB ^= hashB >>> 15;
}

/** One remembered command, as snapshots carry it. */
export interface RememberedCommand {
  id: string;
  atMs: number;
  type: CommandType;
  print: [number, number];
  result: CommandResult;
}

/** Remembered commands in arrival (and so time) order; positions grow for the kernel's life. */
export class CommandMemory {
  private ids: (string | undefined)[] = [];
  private atMs = new Float64Array(1024);
  private types = new Uint8Array(1024);
  private prints = new Int32Array(2048);
  /** -1 = ok, else the reject code's index. */
  private codes = new Int16Array(1024);
  /** -1 = null, else the status index. */
  private statuses = new Int8Array(1024);
  /** orderId, filledLots, restingLots, cancelledCount, postingSeq; NaN = null. */
  private numbers = new Float64Array(5 * 1024);
  /** Position of index 0 of the arrays; positions before `head` are forgotten. */
  private base = 0;
  private head = 0;
  private readonly index: IdIndex;
  private readonly print = new Int32Array(2);

  constructor() {
    this.index = new IdIndex(
      (position) => this.ids[position - this.base]!,
      () => this.head,
    );
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
    const at = position - this.base;
    if (commandTypes[this.types[at]!] !== command.type) return false;
    fingerprint(command, this.print);
    return this.prints[2 * at] === this.print[0] && this.prints[2 * at + 1] === this.print[1];
  }

  /** The first result of the command at `position`, as a fresh object. */
  result(position: number): CommandResult {
    const at = position - this.base;
    const code = this.codes[at]!;
    if (code >= 0) return { ok: false, code: rejectCodes[code]! };
    const n = this.numbers;
    const orNull = (value: number): number | null => (Number.isNaN(value) ? null : value);
    const status = this.statuses[at]!;
    return {
      ok: true,
      value: {
        orderId: orNull(n[5 * at]!),
        orderStatus: status < 0 ? null : statuses[status]!,
        filledLots: orNull(n[5 * at + 1]!),
        restingLots: orNull(n[5 * at + 2]!),
        cancelledCount: orNull(n[5 * at + 3]!),
        postingSeq: orNull(n[5 * at + 4]!),
      },
    };
  }

  /** Remembers a command (whose id is not remembered) and its result. */
  remember(command: Command, result: CommandResult): void {
    fingerprint(command, this.print);
    this.add(command.id, command.atMs, command.type, this.print[0]!, this.print[1]!, result);
  }

  /** Remembers an entry restored from a snapshot. */
  restoreEntry(entry: RememberedCommand): void {
    this.add(entry.id, entry.atMs, entry.type, entry.print[0], entry.print[1], entry.result);
  }

  private add(
    id: string,
    atMs: number,
    type: CommandType,
    print0: number,
    print1: number,
    result: CommandResult,
  ): void {
    const at = this.ids.length;
    if (at === this.atMs.length) this.grow();
    const position = this.base + at;
    this.index.set(id, position);
    this.ids.push(id);
    this.atMs[at] = atMs;
    this.types[at] = typeIndex.get(type)!;
    this.prints[2 * at] = print0;
    this.prints[2 * at + 1] = print1;
    const n = this.numbers;
    if (result.ok) {
      const v = result.value;
      this.codes[at] = -1;
      this.statuses[at] = v.orderStatus === null ? -1 : statusIndex.get(v.orderStatus)!;
      n[5 * at] = v.orderId ?? Number.NaN;
      n[5 * at + 1] = v.filledLots ?? Number.NaN;
      n[5 * at + 2] = v.restingLots ?? Number.NaN;
      n[5 * at + 3] = v.cancelledCount ?? Number.NaN;
      n[5 * at + 4] = v.postingSeq ?? Number.NaN;
    } else {
      this.codes[at] = codeIndex.get(result.code)!;
    }
  }

  /** Forgets up to `countMax` of the oldest commands older than `cutoffMs`. */
  prune(cutoffMs: number, countMax: number): void {
    const end = Math.min(this.base + this.ids.length, this.head + countMax);
    let head = this.head;
    while (head < end) {
      const at = head - this.base;
      if (this.atMs[at]! >= cutoffMs) break;
      this.index.delete(this.ids[at]!, head);
      this.ids[at] = undefined;
      head++;
    }
    this.head = head;
    const dropped = head - this.base;
    if (dropped > 1024 && dropped * 2 > this.ids.length) this.compact(dropped);
  }

  /** Every remembered command, oldest first. */
  *entries(): IterableIterator<RememberedCommand> {
    for (let position = this.head; position < this.base + this.ids.length; position++) {
      const at = position - this.base;
      yield {
        id: this.ids[at]!,
        atMs: this.atMs[at]!,
        type: commandTypes[this.types[at]!]!,
        print: [this.prints[2 * at]!, this.prints[2 * at + 1]!],
        result: this.result(position),
      };
    }
  }

  private compact(dropped: number): void {
    const live = this.ids.length - dropped;
    this.ids = this.ids.slice(dropped);
    this.atMs.copyWithin(0, dropped, dropped + live);
    this.types.copyWithin(0, dropped, dropped + live);
    this.prints.copyWithin(0, 2 * dropped, 2 * (dropped + live));
    this.codes.copyWithin(0, dropped, dropped + live);
    this.statuses.copyWithin(0, dropped, dropped + live);
    this.numbers.copyWithin(0, 5 * dropped, 5 * (dropped + live));
    this.base += dropped;
    assert(this.base === this.head, "compaction must start at the head");
  }

  private grow(): void {
    const capacity = this.atMs.length * 2;
    const grow = <T extends Float64Array | Uint8Array | Int32Array | Int16Array | Int8Array>(
      old: T,
      make: (length: number) => T,
      factor: number,
    ): T => {
      const next = make(capacity * factor);
      next.set(old);
      return next;
    };
    this.atMs = grow(this.atMs, (n) => new Float64Array(n), 1);
    this.types = grow(this.types, (n) => new Uint8Array(n), 1);
    this.prints = grow(this.prints, (n) => new Int32Array(n), 2);
    this.codes = grow(this.codes, (n) => new Int16Array(n), 1);
    this.statuses = grow(this.statuses, (n) => new Int8Array(n), 1);
    this.numbers = grow(this.numbers, (n) => new Float64Array(n), 5);
  }
}
