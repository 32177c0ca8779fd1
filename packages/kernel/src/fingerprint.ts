// The content fingerprint behind idempotency: two 32-bit hashes of a command's fields (all but
// `atMs`), so the memory can tell a repeat from a reused id without keeping the command.

import { assert } from "./assert.ts";
import { COMMAND_STRING_LENGTH_MAX } from "./command-codec.ts";
import { commandCodecs } from "./registry.ts";
import type { Command, CommandType } from "./types.ts";

type Of<T extends CommandType> = Extract<Command, { type: T }>;

/**
 * Room for a hot command's words: two strings (a length word and up to
 * `COMMAND_STRING_LENGTH_MAX` code units each: the kernel fingerprints only commands that passed
 * their shape check) and three numbers of two words.
 */
const WORDS_MAX = 2 * (COMMAND_STRING_LENGTH_MAX + 1) + 3 * 2;

/**
 * Two independent 32-bit hashes over a command's content (every schema field but `atMs`), so a
 * repeat can be told from a reused id without keeping the command. Two different commands under
 * one id look alike with probability about 2^-64. Snapshots store fingerprints: the mixing must
 * never change.
 */
export class Fingerprinter {
  private hashA = 0;
  private hashB = 0;
  private readonly scratch = new Float64Array(1);
  private readonly scratchWords = new Int32Array(this.scratch.buffer);
  /** The words of a hot command, mixed in one loop (see `fingerprint`). */
  private readonly words = new Int32Array(WORDS_MAX);

  /**
   * Writes the two hashes of `command` to `out[0]` and `out[1]`; returns its type code. `type`
   * is `command.type` (read once by a caller that has it: a megamorphic lookup).
   */
  fingerprint(command: Command, out: Int32Array, type: CommandType = command.type): number {
    // The hot commands lay their fields' words out in `words` (the words `mix` would get, in
    // the same order), and one loop mixes both hashes in locals; the schema walk gives the same.
    const words = this.words;
    let count: number;
    let typeCode: number;
    switch (type) {
      case "replace_order": {
        const c = command as Of<"replace_order">;
        typeCode = 14;
        count = stringWords(words, 0, c.ownerId);
        count = stringWords(words, count, c.mode);
        count = this.numberWords(count, c.orderId);
        count = this.numberWords(count, c.priceTicks);
        count = this.numberWords(count, c.quantityLots);
        break;
      }
      case "cancel_order": {
        const c = command as Of<"cancel_order">;
        typeCode = 13;
        count = stringWords(words, 0, c.ownerId);
        count = stringWords(words, count, c.mode);
        count = this.numberWords(count, c.orderId);
        break;
      }
      case "place_order": {
        const c = command as Of<"place_order">;
        this.start(12);
        this.mixString(c.ownerId);
        this.mixString(c.mode);
        this.mixString(c.marketId);
        this.mixString(c.side);
        this.mixString(c.orderType);
        this.mixString(c.timeInForce);
        this.mixValue(c.priceTicks);
        this.mixValue(c.quantityLots);
        this.mixValue(c.quoteAmount);
        out[0] = this.hashA;
        out[1] = this.hashB ^ (this.hashB >>> 13);
        return 12;
      }
      default: {
        const schemaTypeCode = this.fingerprintBySchema(command);
        out[0] = this.hashA;
        out[1] = this.hashB ^ (this.hashB >>> 13);
        return schemaTypeCode;
      }
    }
    let a = 0x811c9dc5 ^ typeCode;
    let b = 0x2545f491 ^ Math.imul(typeCode + 1, 0x9e3779b1);
    for (let i = 0; i < count; i++) {
      const word = words[i]!;
      a = Math.imul(a ^ word, 0x01000193);
      b = Math.imul(b ^ word, 0x5bd1e995);
      b ^= b >>> 15;
    }
    out[0] = a;
    out[1] = b ^ (b >>> 13);
    return typeCode;
  }

  /** Writes `mixNumber`'s two words at `at` in `words`; returns the next free index. */
  private numberWords(at: number, value: number): number {
    const words = this.words;
    if ((value | 0) === value) {
      words[at] = value;
      words[at + 1] = 0x69000000;
    } else {
      this.scratch[0] = value;
      words[at] = this.scratchWords[0]!;
      words[at + 1] = this.scratchWords[1]! ^ 0x6e000000;
    }
    return at + 2;
  }

  /** The general fingerprint: every schema field in order (before the final mix of `out`). */
  private fingerprintBySchema(command: Command): number {
    const entry = commandCodecs[command.type];
    this.start(entry.typeCode);
    const schema = entry.fields;
    const record = command as unknown as Record<string, unknown>;
    for (let i = 0; i < schema.length; i++) {
      const value = record[schema[i]![0]];
      // An appended field left empty adds nothing: older commands keep their fingerprints.
      if (schema[i]![1] === "string?+" && (value === null || value === undefined)) continue;
      this.mixValue(value);
    }
    return entry.typeCode;
  }

  /** Writes the schema-walk fingerprint (for tests of the hand-written ones). */
  fingerprintGeneral(command: Command, out: Int32Array): void {
    this.fingerprintBySchema(command);
    out[0] = this.hashA;
    out[1] = this.hashB ^ (this.hashB >>> 13);
  }

  private start(typeCode: number): void {
    this.hashA = 0x811c9dc5 ^ typeCode;
    this.hashB = 0x2545f491 ^ Math.imul(typeCode + 1, 0x9e3779b1);
  }

  private mixValue(value: unknown): void {
    if (value === null) {
      this.mix(0x6e756c6c);
    } else if (typeof value === "string") {
      this.mixString(value);
    } else if (typeof value === "number") {
      this.mixNumber(value);
    } else if (typeof value === "bigint") {
      let rest = value;
      this.mix(value < 0n ? 0x2d : 0x2b);
      if (rest < 0n) rest = -rest;
      do {
        this.mix(Number(BigInt.asUintN(32, rest)) | 0);
        rest >>= 32n;
      } while (rest > 0n);
    } else {
      this.mix(value === true ? 0x74 : 0x66);
    }
  }

  private mixString(value: string): void {
    this.mix(value.length ^ 0x73000000);
    for (let k = 0; k < value.length; k++) this.mix(value.charCodeAt(k));
  }

  private mixNumber(value: number): void {
    if ((value | 0) === value) {
      this.mix(value);
      this.mix(0x69000000);
    } else {
      this.scratch[0] = value;
      this.mix(this.scratchWords[0]!);
      this.mix(this.scratchWords[1]! ^ 0x6e000000);
    }
  }

  private mix(word: number): void {
    this.hashA = Math.imul(this.hashA ^ word, 0x01000193);
    let hashB = Math.imul(this.hashB ^ word, 0x5bd1e995);
    hashB ^= hashB >>> 15;
    this.hashB = hashB;
  }
}

/**
 * Writes `mixString`'s words (the length word, then each UTF-16 code unit) at `at` in `words`;
 * returns the next free index (see `WORDS_MAX` for the room).
 */
function stringWords(words: Int32Array, at: number, value: string): number {
  assert(at + 1 + value.length <= words.length, "fingerprint of a command that failed its check");
  words[at] = value.length ^ 0x73000000;
  for (let k = 0; k < value.length; k++) words[at + 1 + k] = value.charCodeAt(k);
  return at + 1 + value.length;
}
