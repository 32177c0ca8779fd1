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
  firstSequence: bigint;
  startedNs: bigint;
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const commitSamplesMax = 200_000;

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
  private ready: { batch: PendingBatch; encoded: EncodedBatch }[] = [];
  private encodedHash: Buffer;
  private writing = false;
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private failure: unknown;
  private closed = false;
  private nextSequence: bigint;
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
  ) {
    this.batchRecordsMax = Math.max(
      1,
      Math.min(options.batchRecordsMax ?? batchRecordsMaxDefault, 1_000),
    );
    this.batchDelayMs = Math.max(0, Math.min(options.batchDelayMs ?? 0, 2));
    this.nextSequence = head.sequence + 1n;
    this.durableSequence = head.sequence;
    this.durableHash = head.hash;
    this.encodedHash = head.hash;
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
    const sequence = this.nextSequence;
    this.nextSequence += 1n;
    batch.payloads.push(payload);
    batch.count += 1;
    this.schedule();
    return batch.promise.then(() => sequence);
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
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((yes, no) => {
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
      const bytes = recordsBytes(batch.payloads);
      const buffer = Buffer.allocUnsafe(this.headroomBytes + bytes);
      encodeRecords(buffer, this.headroomBytes, batch.firstSequence, batch.payloads);
      const previousHash = this.encodedHash;
      const hash = chainHash(previousHash, buffer.subarray(this.headroomBytes));
      this.encodedHash = hash;
      batch.payloads = [];
      this.ready.push({
        batch,
        encoded: {
          buffer,
          recordsOffset: this.headroomBytes,
          firstSequence: batch.firstSequence,
          count: batch.count,
          previousHash,
          hash,
        },
      });
    }
  }

  private writeNext() {
    if (this.writing || this.failure !== undefined) return;
    const next = this.ready.shift();
    if (!next) return this.notifyIdle();
    this.writing = true;
    this.write(next.encoded).then(
      () => {
        this.writing = false;
        const { batch, encoded } = next;
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
        batch.resolve();
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
