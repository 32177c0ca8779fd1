import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "../db/database.ts";
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

export interface PgJournalOptions extends GroupCommitOptions {
  database: Database;
  onFatal: JournalFatalHandler;
  logger?: JournalLogger;
  /** Check every record and batch hash at open (default true). */
  verifyOnOpen?: boolean;
}

const pageRows = 5_000;
const table = "journal_records";

interface Row {
  sequence: bigint;
  record: Uint8Array;
  chain_hash: Uint8Array | null;
}

/**
 * The journal in one PostgreSQL (or PGlite) table, with the same record bytes and checks as the
 * file journal. A batch is one multi-row INSERT, which commits atomically, so a torn batch
 * cannot exist; any damaged row stops start-up with a `JournalCorruptionError`.
 */
export async function openPgJournal(options: PgJournalOptions): Promise<Journal> {
  const { db } = options.database;
  const logger = options.logger ?? silentLogger;
  const lastChained = await sql<Row>`
    SELECT sequence, record, chain_hash FROM journal_records
    WHERE chain_hash IS NOT NULL ORDER BY sequence DESC LIMIT 1`.execute(db);
  const maximum = await sql<{ sequence: bigint | null }>`
    SELECT max(sequence) AS sequence FROM journal_records`.execute(db);
  const headRow = lastChained.rows[0];
  const head = headRow ? BigInt(headRow.sequence) : 0n;
  const maximumSequence = maximum.rows[0]?.sequence == null ? 0n : BigInt(maximum.rows[0].sequence);
  if (maximumSequence !== head) {
    throw new JournalCorruptionError(
      `${table}#${maximumSequence}`,
      0,
      "records after the last committed batch hash",
    );
  }
  let headHash: Buffer = headRow ? Buffer.from(headRow.chain_hash!) : zeroHash;

  async function* scan(from: bigint, to: bigint): AsyncIterable<JournalRecord> {
    // Start at the beginning of the batch holding `from`, so its hash can be checked.
    const before = await sql<Row>`
      SELECT sequence, record, chain_hash FROM journal_records
      WHERE chain_hash IS NOT NULL AND sequence < ${String(from)}
      ORDER BY sequence DESC LIMIT 1`.execute(db);
    let previousHash: Buffer = before.rows[0] ? Buffer.from(before.rows[0].chain_hash!) : zeroHash;
    let expected = before.rows[0] ? BigInt(before.rows[0].sequence) + 1n : 1n;
    let hasher = createHash("sha256").update(previousHash);
    let pending: JournalRecord[] = [];
    while (expected <= to || pending.length > 0) {
      const page = await sql<Row>`
        SELECT sequence, record, chain_hash FROM journal_records
        WHERE sequence >= ${String(expected)} ORDER BY sequence LIMIT ${pageRows}`.execute(db);
      if (page.rows.length === 0) {
        if (pending.length > 0) {
          throw new JournalCorruptionError(`${table}#${expected}`, 0, "batch has no closing hash");
        }
        if (expected <= to) {
          throw new JournalCorruptionError(`${table}#${expected}`, 0, "record missing");
        }
        return;
      }
      for (const row of page.rows) {
        const sequence = BigInt(row.sequence);
        const where = `${table}#${sequence}`;
        if (sequence !== expected)
          throw new JournalCorruptionError(where, 0, `expected sequence ${expected}`);
        const bytes = Buffer.from(row.record);
        const record = decodeRecord(bytes, 0, bytes.length);
        if (!record.ok) throw new JournalCorruptionError(where, 0, record.detail);
        if (record.end !== bytes.length)
          throw new JournalCorruptionError(where, record.end, "extra bytes after record");
        if (record.sequence !== sequence) {
          throw new JournalCorruptionError(where, 8, `record says sequence ${record.sequence}`);
        }
        hasher.update(bytes);
        pending.push({ sequence, payload: record.payload });
        expected += 1n;
        if (row.chain_hash) {
          const hash = hasher.digest();
          if (!hash.equals(Buffer.from(row.chain_hash))) {
            throw new JournalCorruptionError(where, 0, "hash chain broken: batch hash differs");
          }
          previousHash = hash;
          hasher = createHash("sha256").update(previousHash);
          for (const checked of pending) {
            if (checked.sequence > to) return;
            if (checked.sequence >= from) yield checked;
          }
          pending = [];
          if (expected > to) return;
        }
      }
    }
  }

  if (options.verifyOnOpen ?? true) {
    let count = 0n;
    for await (const _ of scan(1n, head)) count += 1n;
    if (count !== head)
      throw new JournalCorruptionError(`${table}#${count + 1n}`, 0, "record missing");
  }

  const write = async (batch: EncodedBatch) => {
    const rows = [];
    let position = batch.recordsOffset;
    for (let index = 0; index < batch.count; index++) {
      const length = batch.buffer.readUInt32LE(position + 4);
      const end = position + 16 + length;
      const last = index === batch.count - 1;
      rows.push(
        sql`(${String(batch.firstSequence + BigInt(index))}, ${batch.buffer.subarray(position, end)}, ${last ? batch.hash : null})`,
      );
      position = end;
    }
    await sql`INSERT INTO journal_records (sequence, record, chain_hash) VALUES ${sql.join(rows)}`.execute(
      db,
    );
    headHash = batch.hash;
  };

  const committer = new GroupCommitter(
    options,
    0,
    { sequence: head, hash: headHash },
    write,
    options.onFatal,
  );
  logger.info({ head: head.toString(), backend: options.database.kind }, "journal: opened");

  return {
    append: (payload) => committer.append(payload),
    read(from, to) {
      const durable = committer.durableSequence;
      return scan(from < 1n ? 1n : from, to === undefined || to > durable ? durable : to);
    },
    get head() {
      return committer.durableSequence;
    },
    get headHash() {
      return committer.durableHash.toString("hex");
    },
    stats: () => committer.counters,
    close: () => committer.close(),
  };
}
