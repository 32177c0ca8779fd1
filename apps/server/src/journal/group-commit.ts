import { webcrypto } from "node:crypto";
import {
  batchRecordsMaxDefault,
  chainHash,
  encodeRecords,
  JournalFailedError,
  recordPayloadBytesMax,
  recordsBytes,
  type GroupCommitOptions,
  type JournalFatalHandler,
  type JournalStats,
} from "./journal.ts";

/** One encoded batch, ready to be made durable by a backend. */
export interface EncodedBatch {
  /** `headroomBytes` for the backend's own header, then the records. */
  buffer: Buffer;
  recordsOffset: number;
  firstSequence: bigint;
  count: number;
  previousHash: Buffer;
  hash: Buffer;
}

interface PendingBatch {
  payloads: Uint8Array[];
  count: number;
  /** A number: sequences stay far below 2^53 (see `encodeRecords`). */
  firstSequence: number;
  startedNs: bigint;
  /** Resolves with the batch itself once it is durable; rejects when it failed. */
  promise: Promise<PendingBatch>;
  resolve: (batch: PendingBatch) => void;
  reject: (error: unknown) => void;
  /** How many of the batch's appends have been handed their sequence number. */
  handed: number;
}

/*
 * Each append's promise is `batch.promise.then(nextSequence)`, one function for every append: a
 * promise's reactions run in the order they were registered (ECMAScript PromiseReaction jobs are
 * queued in order), so the i-th append of a batch receives the batch's i-th sequence. No closure,
 * no resolving functions and no BigInt per append while it waits: a per-append closure or
 * `new Promise` allocated two to three times the memory per record, and with thousands of
 * appends in flight garbage collection was the largest CPU cost in a profile of W5.
 */
function nextSequence(batch: PendingBatch): bigint {
  return BigInt(batch.firstSequence + batch.handed++);
}

const commitSamplesMax = 200_000;
/** Stands for a batch's hashes until they are computed (never written: see `writeNext`). */
const zeroHashPlaceholder = Buffer.alloc(32);
const blockGrainBytes = 64 * 1024;
/** Larger batch buffers (batches of large records) are not kept for reuse. */
const spareBlockBytesMax = 1024 * 1024;
const spareBlocksMax = 8;
/**
 * Batches of at least this many record bytes are hashed in the thread pool (see `hashAhead`);
 * smaller ones on the main thread, where a 100-byte batch costs less than the hop.
 */
const threadPoolHashBytesMin = 16 * 1024;
const hashInputPrefixBytes = 32;

interface ReadyBatch {
  batch: PendingBatch;
  encoded: EncodedBatch;
  block: Buffer;
  /** False while its chain hash is being computed in the thread pool. */
  hashed: boolean;
}

/**
 * Group commit shared by both backends: appends gather into a batch for at most `batchDelayMs`
 * (or until `batchRecordsMax`), the batch is encoded into one buffer, hashed once, handed to
 * the backend's `write` (one write + fdatasync, or one transaction), and only then are all of
 * its waiters resolved together. While a batch is being written the next one fills up, so under
 * load the window is the sync time itself. A failed write stops everything: no retry, no ack.
 */
export class GroupCommitter {
  private readonly batchRecordsMax: number;
  private readonly batchDelayMs: number;
  /** Batches gathering records; the last one is open. */
  private queue: PendingBatch[] = [];
  /** Encoded batches waiting for the disk, in sequence order. */
  private ready: ReadyBatch[] = [];
  /** Batch buffers whose write finished, for the next batches (only with `recycleBuffers`). */
  private spareBlocks: Buffer[] = [];
  /** Chain hash after the last sealed batch; undefined while it is computed in the thread pool. */
  private encodedHash: Buffer | undefined;
  /** Resolves with the chain hash after the last sealed batch. */
  private hashTail: Promise<Buffer>;
  private writing = false;
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private failure: unknown;
  private closed = false;
  /** A number, not a BigInt: sequences stay far below 2^53 (see `encodeRecords`). */
  private nextSequence: number;
  private idle: (() => void)[] = [];
  durableSequence: bigint;
  durableHash: Buffer;
  readonly counters: JournalStats = { batches: 0, records: 0, commitMicros: [] };

  constructor(
    options: GroupCommitOptions,
    private readonly headroomBytes: number,
    head: { sequence: bigint; hash: Buffer },
    private readonly write: (batch: EncodedBatch) => Promise<void>,
    private readonly onFatal: JournalFatalHandler,
    /**
     * The backend is done with a batch's buffer once its `write` resolved (the file journal:
     * its write copies into the page cache at once), so the buffer may be reused for a later
     * batch. Saves a fresh 100+ KiB allocation per batch, its page faults and its garbage.
     */
    private readonly recycleBuffers = false,
    /**
     * Hash large batches with `crypto.subtle.digest`, which runs in the libuv thread pool, so
     * the main thread keeps encoding and acknowledging while SHA-256 runs on another core. Needs
     * `headroomBytes >= 32`: the previous chain hash is placed in the 32 bytes before the records
     * so the digest's input (`previous ‖ records`) is one contiguous view; the backend must
     * overwrite that headroom in its `write` (the file journal writes its frame header there).
     */
    private readonly hashInThreadPool = false,
  ) {
    this.batchRecordsMax = Math.max(
      1,
      Math.min(options.batchRecordsMax ?? batchRecordsMaxDefault, 1_000),
    );
    this.batchDelayMs = Math.max(0, Math.min(options.batchDelayMs ?? 0, 2));
    this.nextSequence = Number(head.sequence) + 1;
    this.durableSequence = head.sequence;
    this.durableHash = head.hash;
    this.encodedHash = head.hash;
    this.hashTail = Promise.resolve(head.hash);
    if (hashInThreadPool && headroomBytes < hashInputPrefixBytes) {
      throw new RangeError("hashing in the thread pool needs 32 bytes of headroom");
    }
  }

  append(payload: Uint8Array): Promise<bigint> {
    if (this.failure !== undefined) return Promise.reject(this.failureError());
    if (this.closed) return Promise.reject(new JournalFailedError("journal is closed"));
    if (payload.length > recordPayloadBytesMax) {
      return Promise.reject(new RangeError(`record of ${payload.length} bytes is too large`));
    }
    let batch = this.queue[this.queue.length - 1];
    if (!batch || batch.count >= this.batchRecordsMax) {
      batch = this.newBatch();
      this.queue.push(batch);
    }
    this.nextSequence += 1;
    batch.payloads.push(payload);
    batch.count += 1;
    this.schedule();
    return batch.promise.then(nextSequence);
  }

  /** Resolves when nothing is pending or being written. */
  drain(): Promise<void> {
    if (!this.writing && this.queue.length === 0 && this.ready.length === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.idle.push(resolve));
  }

  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
  }

  private newBatch(): PendingBatch {
    let resolve!: (batch: PendingBatch) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<PendingBatch>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    // A batch's promise is always observed through append's `.then`; this keeps a rejection of
    // the shared promise itself from being reported twice.
    promise.catch(() => {});
    return {
      payloads: [],
      count: 0,
      firstSequence: this.nextSequence,
      startedNs: process.hrtime.bigint(),
      promise,
      resolve,
      reject,
      handed: 0,
    };
  }

  private schedule() {
    const open = this.queue[this.queue.length - 1];
    if (open && open.count >= this.batchRecordsMax) {
      // A full batch is encoded at once, so it is ready the moment the disk is free.
      this.clearTimer();
      this.seal();
      this.writeNext();
      return;
    }
    if (this.timer || this.writing) return;
    const run = () => {
      this.timer = undefined;
      this.seal();
      this.writeNext();
    };
    this.timer = this.batchDelayMs > 0 ? setTimeout(run, this.batchDelayMs) : setImmediate(run);
  }

  private clearTimer() {
    if (!this.timer) return;
    clearTimeout(this.timer as NodeJS.Timeout);
    clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = undefined;
  }

  /** Encodes and hashes every gathered batch, chaining each to the one encoded before it. */
  private seal() {
    while (this.queue.length > 0) {
      const batch = this.queue.shift()!;
      if (batch.count === 0) continue;
      const size = this.headroomBytes + recordsBytes(batch.payloads);
      const block = this.takeBlock(size);
      const buffer = block.length === size ? block : block.subarray(0, size);
      encodeRecords(buffer, this.headroomBytes, BigInt(batch.firstSequence), batch.payloads);
      batch.payloads = [];
      const entry: ReadyBatch = {
        batch,
        block,
        hashed: false,
        encoded: {
          buffer,
          recordsOffset: this.headroomBytes,
          firstSequence: BigInt(batch.firstSequence),
          count: batch.count,
          previousHash: zeroHashPlaceholder,
          hash: zeroHashPlaceholder,
        },
      };
      this.ready.push(entry);
      const previousHash = this.encodedHash;
      if (
        previousHash !== undefined &&
        (!this.hashInThreadPool || size - this.headroomBytes < threadPoolHashBytesMin)
      ) {
        const hash = chainHash(previousHash, buffer.subarray(this.headroomBytes));
        entry.encoded.previousHash = previousHash;
        entry.encoded.hash = hash;
        entry.hashed = true;
        this.encodedHash = hash;
        this.hashTail = Promise.resolve(hash);
      } else {
        this.hashAhead(entry);
      }
    }
  }

  /**
   * Chains `entry`'s hash after the previous batch's in the thread pool: SHA-256 of the 32-byte
   * previous hash written into the headroom just before the records, then the records (the same
   * bytes as `chainHash`). The digest copies its input at the call, so the buffer may be written
   * afterwards; the batch is written to the backend only once its hash is known (`writeNext`).
   */
  private hashAhead(entry: ReadyBatch) {
    this.encodedHash = undefined;
    const { encoded } = entry;
    const tail = this.hashTail
      .then((previousHash) => {
        encoded.previousHash = previousHash;
        const start = encoded.recordsOffset - hashInputPrefixBytes;
        encoded.buffer.set(previousHash, start);
        return webcrypto.subtle.digest("SHA-256", encoded.buffer.subarray(start));
      })
      .then((digest) => {
        const hash = Buffer.from(digest);
        encoded.hash = hash;
        entry.hashed = true;
        if (this.hashTail === tail) this.encodedHash = hash;
        this.writeNext();
        return hash;
      });
    this.hashTail = tail;
    tail.catch((error: unknown) => {
      if (this.failure === undefined) this.fail(error, entry.batch);
    });
  }

  private takeBlock(size: number): Buffer {
    const spare = this.spareBlocks.pop();
    if (spare && spare.length >= size) return spare;
    if (!this.recycleBuffers) return Buffer.allocUnsafe(size);
    // Room for a little growth, so batches of slightly different sizes share blocks.
    return Buffer.allocUnsafe(Math.ceil(size / blockGrainBytes) * blockGrainBytes);
  }

  private writeNext() {
    if (this.writing || this.failure !== undefined) return;
    const next = this.ready[0];
    if (!next) return this.notifyIdle();
    // Its hash is still being computed in the thread pool; `hashAhead` calls back.
    if (!next.hashed) return;
    this.ready.shift();
    this.writing = true;
    this.write(next.encoded).then(
      () => {
        this.writing = false;
        const { batch, encoded, block } = next;
        if (
          this.recycleBuffers &&
          block.length <= spareBlockBytesMax &&
          this.spareBlocks.length < spareBlocksMax
        ) {
          this.spareBlocks.push(block);
        }
        this.durableSequence = encoded.firstSequence + BigInt(encoded.count) - 1n;
        this.durableHash = encoded.hash;
        this.counters.batches += 1;
        this.counters.records += encoded.count;
        if (this.counters.commitMicros.length < commitSamplesMax) {
          this.counters.commitMicros.push(
            Number(process.hrtime.bigint() - batch.startedNs) / 1_000,
          );
        }
        // Start the next write before waking this batch's waiters, so the disk stays busy while
        // they run. Records that arrived during the sync have waited a whole sync: seal them now.
        if (this.ready.length === 0) {
          this.clearTimer();
          this.seal();
        }
        this.writeNext();
        batch.resolve(batch);
      },
      (error: unknown) => {
        this.writing = false;
        this.fail(error, next.batch);
      },
    );
  }

  private fail(error: unknown, batch: PendingBatch) {
    this.failure = error;
    this.clearTimer();
    const failed = this.failureError();
    batch.reject(failed);
    for (const pending of this.queue) pending.reject(failed);
    for (const pending of this.ready) pending.batch.reject(failed);
    this.queue = [];
    this.ready = [];
    this.notifyIdle();
    this.onFatal(error);
  }

  private failureError() {
    const cause = this.failure;
    const message = cause instanceof Error ? cause.message : String(cause);
    return new JournalFailedError(`journal stopped after a failed write: ${message}`, { cause });
  }

  private notifyIdle() {
    const busy = this.writing || this.queue.length > 0 || this.ready.length > 0;
    if (busy && this.failure === undefined) return;
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
