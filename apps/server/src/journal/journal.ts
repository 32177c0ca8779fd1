import { createHash } from "node:crypto";
import { crc32c } from "./crc32c.ts";

/**
 * The durable, append-only record of every command the kernel applied. Both backends (segment
 * files, PostgreSQL) store the same record bytes and run the same checks.
 */
export interface Journal {
  /**
   * Appends one record and resolves with its sequence number once it is durable (after the
   * batch's fdatasync returns or its transaction commits). Never resolves before that.
   */
  append(payload: Uint8Array): Promise<bigint>;
  /** Records from `from` to `to` (inclusive; default: the durable head), checked as they are read. */
  read(from: bigint, to?: bigint): AsyncIterable<JournalRecord>;
  /**
   * Optional: the same records as `read`, a run at a time (whole checked frames), for replay,
   * which then applies each run in a plain loop instead of one async-iterator step per record.
   */
  readRuns?(from: bigint, to?: bigint): AsyncIterable<readonly JournalRecord[]>;
  /**
   * Optional: moves sealed records up to `sequence` (all held by a snapshot) into compressed
   * storage that `read` still serves; nothing is deleted. Backends without it keep records as
   * they are.
   */
  archiveThrough?(sequence: bigint): Promise<JournalArchiveReport>;
  /** Sequence of the last durable record; 0n when the journal is empty. */
  readonly head: bigint;
  /** Chain hash (hex) after the last durable batch; 64 zeros when empty. */
  readonly headHash: string;
  /** Counters for benchmarks and logs. */
  stats(): JournalStats;
  /** Flushes what is pending, then closes. Appends after close are rejected. */
  close(): Promise<void>;
}

/** One journal record as read back. */
export interface JournalRecord {
  sequence: bigint;
  payload: Uint8Array;
}

/** What one `archiveThrough` call moved: segments, and their bytes before and after. */
export interface JournalArchiveReport {
  segments: number;
  bytes: number;
  compressedBytes: number;
}

/** Commit counters since open. */
export interface JournalStats {
  batches: number;
  records: number;
  /** Commit latency (append call → durable) of every batch's first record, in microseconds. */
  commitMicros: number[];
}

/** Called once when a write, sync or insert fails: the caller must stop the process. */
export type JournalFatalHandler = (error: unknown) => void;

/** Minimal logger (pino-compatible subset). */
export interface JournalLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export const silentLogger: JournalLogger = { info() {}, warn() {}, error() {} };

/** Start-up found a damaged record before the end of the journal: it never skips it. */
export class JournalCorruptionError extends Error {
  override name = "JournalCorruptionError";
  constructor(
    readonly segment: string,
    readonly offset: number,
    detail: string,
  ) {
    super(`journal corrupt in ${segment} at byte ${offset}: ${detail}`);
  }
}

/** The journal hit a write or sync error (or was closed); nothing more is acknowledged. */
export class JournalFailedError extends Error {
  override name = "JournalFailedError";
}

/** Group-commit options shared by both backends. */
export interface GroupCommitOptions {
  /** Largest number of records in one batch (≤ 1,000 per issue 4). */
  batchRecordsMax?: number;
  /** How long the first record of an idle journal waits for company, in ms (≤ 2). 0 = next turn. */
  batchDelayMs?: number;
}

export const batchRecordsMaxDefault = 1_000;
export const recordHeaderBytes = 16;
export const zeroHash = Buffer.alloc(32);
/** Largest record payload accepted, in bytes: a command is small; this only stops runaway input. */
export const recordPayloadBytesMax = 1 << 20;

/*
 * Record format (both backends), little-endian:
 *   crc32c u32     CRC-32C of the 12 header bytes after it and the payload
 *   length u32     payload bytes
 *   sequence u64   1, 2, 3, … with no gaps
 *   payload
 * A batch of records is chained: chainHash = SHA-256(previous chainHash ‖ the batch's record
 * bytes). Hashing per batch instead of per record keeps the CPU cost per record at one native
 * CRC call; a batch of one record is an ordinary per-record hash chain.
 */

/** Encodes a batch's records into one buffer starting at `offset`; returns the end offset. */
export function encodeRecords(
  target: Buffer,
  offset: number,
  firstSequence: bigint,
  payloads: readonly Uint8Array[],
): number {
  // Sequences stay far below 2^53; writing two 32-bit halves avoids a BigInt per record. Plain
  // byte stores instead of `writeUInt32LE` (its range checks cost more than the stores here).
  let position = offset;
  let sequence = Number(firstSequence);
  for (let i = 0; i < payloads.length; i++) {
    const payload = payloads[i]!;
    const length = payload.length;
    putUint32(target, position + 4, length);
    putUint32(target, position + 8, sequence >>> 0);
    putUint32(target, position + 12, Math.floor(sequence / 4_294_967_296));
    target.set(payload, position + recordHeaderBytes);
    const end = position + recordHeaderBytes + length;
    putUint32(target, position, crc32c(target, position + 4, end));
    position = end;
    sequence += 1;
  }
  return position;
}

/** Little-endian u32 store (`value` already in 0..2^32-1; a Uint8Array store keeps the low byte). */
function putUint32(target: Uint8Array, at: number, value: number) {
  target[at] = value;
  target[at + 1] = value >>> 8;
  target[at + 2] = value >>> 16;
  target[at + 3] = value >>> 24;
}

/** Bytes the encoded records of `payloads` take. */
export function recordsBytes(payloads: readonly Uint8Array[]): number {
  let total = 0;
  for (const payload of payloads) total += recordHeaderBytes + payload.length;
  return total;
}

export function chainHash(previous: Uint8Array, recordBytes: Uint8Array): Buffer {
  return createHash("sha256").update(previous).update(recordBytes).digest();
}

/** Why a record failed its check, or the record itself. */
export type DecodedRecord =
  | { ok: true; sequence: bigint; payload: Buffer; end: number }
  | { ok: false; reason: "short" | "checksum" | "length"; detail: string };

/** Decodes and checks the record at `offset` of `bytes` (which ends at `limit`). */
export function decodeRecord(bytes: Buffer, offset: number, limit: number): DecodedRecord {
  if (limit - offset < recordHeaderBytes) {
    return { ok: false, reason: "short", detail: "record header cut short" };
  }
  const length = bytes.readUInt32LE(offset + 4);
  if (length > recordPayloadBytesMax) {
    return { ok: false, reason: "length", detail: `record length ${length} is impossible` };
  }
  const end = offset + recordHeaderBytes + length;
  if (end > limit) return { ok: false, reason: "short", detail: "record payload cut short" };
  const expected = bytes.readUInt32LE(offset);
  const actual = crc32c(bytes, offset + 4, end);
  if (expected !== actual) {
    return { ok: false, reason: "checksum", detail: "record checksum mismatch" };
  }
  return {
    ok: true,
    sequence: bytes.readBigUInt64LE(offset + 8),
    payload: bytes.subarray(offset + recordHeaderBytes, end),
    end,
  };
}

/** Percentile (0–100) of a list of numbers, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
