// The content fingerprint behind idempotency: two 32-bit hashes of a command's fields (all but
// `atMs`), so the memory can tell a repeat from a reused id without keeping the command.

import { commandCodecs } from "./registry.ts";
import type { Command, CommandType } from "./types.ts";

type Of<T extends CommandType> = Extract<Command, { type: T }>;

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

  /**
   * Writes the two hashes of `command` to `out[0]` and `out[1]`; returns its type code. `type`
   * is `command.type` (read once by a caller that has it: a megamorphic lookup).
   */
  fingerprint(command: Command, out: Int32Array, type: CommandType = command.type): number {
    // The hot commands read their fields directly; the schema walk gives the same hashes.
    let typeCode: number;
    switch (type) {
      case "replace_order": {
        const c = command as Of<"replace_order">;
        typeCode = 14;
        this.start(14);
        this.mixString(c.ownerId);
        this.mixString(c.mode);
        this.mixNumber(c.orderId);
        this.mixNumber(c.priceTicks);
        this.mixNumber(c.quantityLots);
        break;
      }
      case "cancel_order": {
        const c = command as Of<"cancel_order">;
        typeCode = 13;
        this.start(13);
        this.mixString(c.ownerId);
        this.mixString(c.mode);
        this.mixNumber(c.orderId);
        break;
      }
      case "place_order": {
        const c = command as Of<"place_order">;
        typeCode = 12;
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
        break;
      }
      default:
        typeCode = this.fingerprintBySchema(command);
    }
    out[0] = this.hashA;
    out[1] = this.hashB ^ (this.hashB >>> 13);
    return typeCode;
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
