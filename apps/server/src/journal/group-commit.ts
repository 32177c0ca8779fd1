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
  private queue: PendingBatch[] = [];
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
  }

  append(payload: Uint8Array): Promise<bigint> {
    if (this.failure !== undefined) return Promise.reject(this.failureError());
    if (this.closed) return Promise.reject(new JournalFailedError("journal is closed"));
    if (payload.length > recordPayloadBytesMax) {
      return Promise.reject(new RangeError(`record of ${payload.length} bytes is too large`));
    }
    let batch = this.queue[this.queue.length - 1];
    if (!batch || batch.payloads.length >= this.batchRecordsMax) {
      batch = this.newBatch();
      this.queue.push(batch);
    }
    const sequence = this.nextSequence;
    this.nextSequence += 1n;
    batch.payloads.push(payload);
    this.schedule();
    return batch.promise.then(() => sequence);
  }

  /** Resolves when nothing is pending or being written. */
  drain(): Promise<void> {
    if (!this.writing && this.queue.length === 0) return Promise.resolve();
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
      firstSequence: this.nextSequence,
      startedNs: process.hrtime.bigint(),
      promise,
      resolve,
      reject,
    };
  }

  private schedule() {
    if (this.writing) return;
    const first = this.queue[0];
    if (first && first.payloads.length >= this.batchRecordsMax) {
      this.clearTimer();
      void this.flush();
      return;
    }
    if (this.timer) return;
    const run = () => {
      this.timer = undefined;
      void this.flush();
    };
    this.timer = this.batchDelayMs > 0 ? setTimeout(run, this.batchDelayMs) : setImmediate(run);
  }

  private clearTimer() {
    if (!this.timer) return;
    clearTimeout(this.timer as NodeJS.Timeout);
    clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = undefined;
  }

  private async flush(): Promise<void> {
    if (this.writing || this.failure !== undefined) return;
    const batch = this.queue.shift();
    if (!batch) return this.notifyIdle();
    this.writing = true;
    try {
      const bytes = recordsBytes(batch.payloads);
      const buffer = Buffer.allocUnsafe(this.headroomBytes + bytes);
      encodeRecords(buffer, this.headroomBytes, batch.firstSequence, batch.payloads);
      const previousHash = this.durableHash;
      const hash = chainHash(previousHash, buffer.subarray(this.headroomBytes));
      await this.write({
        buffer,
        recordsOffset: this.headroomBytes,
        firstSequence: batch.firstSequence,
        count: batch.payloads.length,
        previousHash,
        hash,
      });
      this.durableSequence = batch.firstSequence + BigInt(batch.payloads.length) - 1n;
      this.durableHash = hash;
      this.counters.batches += 1;
      this.counters.records += batch.payloads.length;
      if (this.counters.commitMicros.length < commitSamplesMax) {
        this.counters.commitMicros.push(Number(process.hrtime.bigint() - batch.startedNs) / 1_000);
      }
      batch.resolve();
    } catch (error) {
      this.fail(error, batch);
      return;
    } finally {
      this.writing = false;
    }
    // Records that arrived during the write have already waited a whole sync: write them now.
    if (this.queue.length > 0) {
      this.clearTimer();
      void this.flush();
    } else {
      this.notifyIdle();
    }
  }

  private fail(error: unknown, batch: PendingBatch) {
    this.failure = error;
    this.clearTimer();
    const failed = this.failureError();
    batch.reject(failed);
    for (const pending of this.queue) pending.reject(failed);
    this.queue = [];
    this.notifyIdle();
    this.onFatal(error);
  }

  private failureError() {
    const cause = this.failure;
    const message = cause instanceof Error ? cause.message : String(cause);
    return new JournalFailedError(`journal stopped after a failed write: ${message}`, { cause });
  }

  private notifyIdle() {
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
