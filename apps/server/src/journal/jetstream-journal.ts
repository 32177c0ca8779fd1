import { createHash } from "node:crypto";
import {
  connect,
  DeliverPolicy,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
} from "nats";
import { GroupCommitter, type EncodedBatch } from "./group-commit.ts";
import {
  decodeRecord,
  JournalCorruptionError,
  silentLogger,
  zeroHash,
  type GroupCommitOptions,
  type Journal,
  type JournalFatalHandler,
  type JournalLogger,
  type JournalRecord,
} from "./journal.ts";

export interface JetStreamJournalOptions extends GroupCommitOptions {
  /** NATS servers, e.g. "nats://127.0.0.1:4222" (comma-separated for a cluster). */
  servers: string;
  /** Stream name (one per deployment): `CANDOR_JOURNAL` by default. */
  stream?: string;
  /** Copies JetStream keeps of every batch: 3 in production, 1 on a one-server NATS. */
  replicas?: number;
  onFatal: JournalFatalHandler;
  logger?: JournalLogger;
  /** Check every record and batch hash at open (default true). */
  verifyOnOpen?: boolean;
}

/** The chain hash after a batch leads each message; the batch's records follow. */
const hashBytes = 32;
/** Batches asked of the server at a time while reading. */
const fetchBatches = 256;

/**
 * The journal as a JetStream stream: one message per batch, holding the batch's chain hash and
 * then its records, byte for byte as the file and PostgreSQL journals store them. Stream
 * sequence n is batch n. Every publish names the stream sequence it expects to follow, so a
 * writer that was deposed (another engine appended since) fails its next append and stops —
 * that is the fencing of issue 25; JetStream's replication (R3) is what makes a batch durable
 * on more than one machine. Opening reads the head back from the stream.
 */
export async function openJetStreamJournal(options: JetStreamJournalOptions): Promise<Journal> {
  const logger = options.logger ?? silentLogger;
  const stream = options.stream ?? "CANDOR_JOURNAL";
  const subject = `candor.journal.${stream}`;
  const connection = await connect({ servers: options.servers.split(","), name: "candor-journal" });
  const manager = await connection.jetstreamManager();
  const client = connection.jetstream();
  const lastBatch = await ensureStream(manager, stream, subject, options.replicas ?? 1);
  /** Stream sequence of the last batch this writer appended or found. */
  let streamSequence = lastBatch;

  const head = { sequence: 0n, hash: zeroHash as Buffer };
  if (lastBatch > 0) {
    const last = decodeBatch(await manager.streams.getMessage(stream, { seq: lastBatch }), stream);
    head.sequence = last.records.at(-1)!.sequence;
    head.hash = last.hash;
  }

  const reader = batchReader(connection, client, manager, stream);
  if (options.verifyOnOpen ?? true) {
    let count = 0n;
    for await (const _ of reader(1n, head.sequence, lastBatch)) count += 1n;
    if (count !== head.sequence)
      throw new JournalCorruptionError(`${stream}#${count + 1n}`, 0, "record missing");
  }

  const write = async (batch: EncodedBatch) => {
    const message = batch.buffer.subarray(batch.recordsOffset - hashBytes);
    batch.hash.copy(message, 0);
    const ack = await client.publish(subject, message, {
      expect: { lastSequence: streamSequence, streamName: stream },
      msgID: String(batch.firstSequence),
    });
    // Another writer's batch with the same first record: this writer was deposed. (After the
    // duplicate window the expected last sequence refuses it instead.)
    if (ack.duplicate) {
      throw new Error(
        `journal: a batch from record ${batch.firstSequence} is already in the stream: deposed`,
      );
    }
    streamSequence = ack.seq;
  };
  const committer = new GroupCommitter(options, hashBytes, head, write, options.onFatal);
  logger.info({ head: head.sequence.toString(), stream }, "journal: opened on JetStream");

  return {
    append: (payload) => committer.append(payload),
    read(from, to) {
      const durable = committer.durableSequence;
      return reader(
        from < 1n ? 1n : from,
        to === undefined || to > durable ? durable : to,
        streamSequence,
      );
    },
    get head() {
      return committer.durableSequence;
    },
    get headHash() {
      return committer.durableHash.toString("hex");
    },
    stats: () => committer.counters,
    async close() {
      await committer.close();
      await connection.drain();
    },
  };
}

/** Creates the stream if it is missing; returns its last sequence (0 when empty). */
async function ensureStream(
  manager: JetStreamManager,
  stream: string,
  subject: string,
  replicas: number,
): Promise<number> {
  try {
    const info = await manager.streams.info(stream);
    return info.state.last_seq;
  } catch (error) {
    if (!/stream not found/i.test(String(error))) throw error;
  }
  const info = await manager.streams.add({
    name: stream,
    subjects: [subject],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    num_replicas: replicas,
    // The whole history is the record: nothing expires, nothing is discarded.
    max_msgs: -1,
    max_bytes: -1,
    max_age: 0,
    // Re-sent batches (a publish whose acknowledgement was lost) are recognised by first sequence.
    duplicate_window: 120_000_000_000,
  });
  return info.state.last_seq;
}

interface DecodedBatch {
  hash: Buffer;
  records: (JournalRecord & { bytes: Buffer })[];
  recordBytes: Buffer;
}

function decodeBatch(message: { seq: number; data: Uint8Array }, stream: string): DecodedBatch {
  const where = `${stream}@${message.seq}`;
  const data = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
  if (data.length < hashBytes) throw new JournalCorruptionError(where, 0, "message cut short");
  const recordBytes = data.subarray(hashBytes);
  const records: DecodedBatch["records"] = [];
  let offset = 0;
  while (offset < recordBytes.length) {
    const record = decodeRecord(recordBytes, offset, recordBytes.length);
    if (!record.ok) throw new JournalCorruptionError(where, hashBytes + offset, record.detail);
    records.push({
      sequence: record.sequence,
      payload: record.payload,
      bytes: recordBytes.subarray(offset, record.end),
    });
    offset = record.end;
  }
  if (records.length === 0) throw new JournalCorruptionError(where, 0, "batch without records");
  return { hash: Buffer.from(data.subarray(0, hashBytes)), records, recordBytes };
}

/**
 * Reads records `from`..`to` checked: each batch's sequences follow the previous batch's and
 * its hash is SHA-256(previous batch hash ‖ its records). Starts at the batch holding `from`
 * (found by binary search on stream sequences) so that batch's chain can be checked.
 */
function batchReader(
  connection: NatsConnection,
  client: JetStreamClient,
  manager: JetStreamManager,
  stream: string,
) {
  const firstRecordOf = async (batch: number) =>
    decodeBatch(await manager.streams.getMessage(stream, { seq: batch }), stream).records[0]!
      .sequence;

  return async function* read(
    from: bigint,
    to: bigint,
    lastBatch: number,
  ): AsyncIterable<JournalRecord> {
    if (from > to || lastBatch === 0) return;
    // The last batch whose first record is at or before `from`.
    let low = 1;
    let high = lastBatch;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((await firstRecordOf(middle)) <= from) low = middle;
      else high = middle - 1;
    }
    let previousHash: Buffer =
      low === 1
        ? zeroHash
        : decodeBatch(await manager.streams.getMessage(stream, { seq: low - 1 }), stream).hash;
    let expected = low === 1 ? 1n : await firstRecordOf(low);
    const consumer = await client.consumers.get(stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: low,
    });
    let batch = low;
    while (batch <= lastBatch && !connection.isClosed()) {
      const messages = await consumer.fetch({
        max_messages: Math.min(fetchBatches, lastBatch - batch + 1),
        expires: 5_000,
      });
      let received = 0;
      for await (const message of messages) {
        received += 1;
        if (message.seq !== batch) {
          throw new JournalCorruptionError(
            `${stream}@${message.seq}`,
            0,
            `expected batch ${batch}`,
          );
        }
        const decoded = decodeBatch(message, stream);
        const where = `${stream}@${batch}`;
        const hash = createHash("sha256").update(previousHash).update(decoded.recordBytes).digest();
        if (!hash.equals(decoded.hash)) {
          throw new JournalCorruptionError(where, 0, "hash chain broken: batch hash differs");
        }
        for (const record of decoded.records) {
          if (record.sequence !== expected) {
            throw new JournalCorruptionError(where, 0, `expected sequence ${expected}`);
          }
          expected += 1n;
          if (record.sequence > to) return;
          if (record.sequence >= from) yield { sequence: record.sequence, payload: record.payload };
        }
        previousHash = hash;
        batch += 1;
      }
      if (received === 0) {
        throw new JournalCorruptionError(`${stream}@${batch}`, 0, "batch missing from the stream");
      }
    }
  };
}

export interface JetStreamFollowOptions {
  servers: string;
  stream?: string;
  /** First record sequence wanted (the follower's applied sequence + 1). */
  from: bigint;
  /** Called for every record from `from` on, in order, after its batch passed the checks. */
  onRecord: (record: JournalRecord) => void;
  /** Called once if the stream breaks its checks or the connection fails; following stops. */
  onError: (error: unknown) => void;
  logger?: JournalLogger;
}

/** A running follower of a journal stream. */
export interface JetStreamFollower {
  /** Sequence of the last record handed to `onRecord` (from − 1 before the first). */
  readonly position: bigint;
  /** Stops following; resolves once no more records will be handed on. */
  stop(): Promise<void>;
}

/**
 * Follows a journal stream as it grows (a hot standby, issue 25): each batch is checked exactly
 * as at open (CRC per record, SHA-256 chain from the previous batch, no gaps) before its
 * records are handed on, so a standby applies the same bytes the leader applied.
 */
export async function followJetStream(options: JetStreamFollowOptions): Promise<JetStreamFollower> {
  const stream = options.stream ?? "CANDOR_JOURNAL";
  const connection = await connect({
    servers: options.servers.split(","),
    name: "candor-journal-follower",
    maxReconnectAttempts: -1,
  });
  const manager = await connection.jetstreamManager();
  const client = connection.jetstream();
  const getBatch = async (seq: number) =>
    decodeBatch(await manager.streams.getMessage(stream, { seq }), stream);
  const lastBatch = (await manager.streams.info(stream)).state.last_seq;

  // Where to start: the batch holding `from`, or the one after the last batch.
  let batch = 1;
  let previousHash: Buffer = zeroHash;
  let expected = 1n;
  if (lastBatch > 0) {
    const last = await getBatch(lastBatch);
    if (last.records.at(-1)!.sequence < options.from) {
      batch = lastBatch + 1;
      previousHash = last.hash;
      expected = last.records.at(-1)!.sequence + 1n;
    } else {
      let low = 1;
      let high = lastBatch;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if ((await getBatch(middle)).records[0]!.sequence <= options.from) low = middle;
        else high = middle - 1;
      }
      batch = low;
      previousHash = low === 1 ? zeroHash : (await getBatch(low - 1)).hash;
      expected = (await getBatch(low)).records[0]!.sequence;
    }
  }
  if (expected > options.from) {
    throw new JournalCorruptionError(`${stream}@${batch}`, 0, `record ${options.from} missing`);
  }

  let position = options.from - 1n;
  let stopped = false;
  const consumer = await client.consumers.get(stream, {
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: batch,
  });
  const messages = await consumer.consume({ max_messages: fetchBatches });
  const done = (async () => {
    for await (const message of messages) {
      if (stopped) break;
      const where = `${stream}@${message.seq}`;
      if (message.seq !== batch) {
        throw new JournalCorruptionError(where, 0, `expected batch ${batch}`);
      }
      const decoded = decodeBatch(message, stream);
      const hash = createHash("sha256").update(previousHash).update(decoded.recordBytes).digest();
      if (!hash.equals(decoded.hash)) {
        throw new JournalCorruptionError(where, 0, "hash chain broken: batch hash differs");
      }
      for (const record of decoded.records) {
        if (record.sequence !== expected) {
          throw new JournalCorruptionError(where, 0, `expected sequence ${expected}`);
        }
        expected += 1n;
        if (record.sequence > position) {
          options.onRecord({ sequence: record.sequence, payload: record.payload });
          position = record.sequence;
        }
      }
      previousHash = hash;
      batch += 1;
    }
  })().catch((error: unknown) => {
    if (!stopped) options.onError(error);
  });

  return {
    get position() {
      return position;
    },
    async stop() {
      stopped = true;
      messages.stop();
      await done;
      await connection.close();
    },
  };
}
