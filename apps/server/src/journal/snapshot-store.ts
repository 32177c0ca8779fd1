import { createHash } from "node:crypto";
import path from "node:path";
import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { nodeFileSystem, type JournalFileSystem } from "./file-system.ts";
import { silentLogger, type JournalLogger } from "./journal.ts";

/** A kernel snapshot taken after the record `sequence` was applied. */
export interface Snapshot {
  sequence: bigint;
  bytes: Uint8Array;
}

/** Where kernel snapshots are kept; both stores check a SHA-256 of the bytes on load. */
export interface SnapshotStore {
  save(sequence: bigint, bytes: Uint8Array): Promise<void>;
  /** The newest snapshot whose checksum holds; damaged ones are logged and passed over. */
  loadLatest(): Promise<Snapshot | undefined>;
}

const snapshotMagic = 0x504e5343; // "CSNP"
const headerBytes = 56;
const keptSnapshots = 3;
const snapshotPattern = /^(\d{20})\.snap$/;

/**
 * Snapshot files `<sequence>.snap` (magic, sequence, length, SHA-256, bytes), written to a
 * temporary name, synced, then renamed, so a crash never leaves half a snapshot under a real name.
 */
export function fileSnapshotStore(options: {
  directory: string;
  fileSystem?: JournalFileSystem;
  logger?: JournalLogger;
}): SnapshotStore {
  const fileSystem = options.fileSystem ?? nodeFileSystem;
  const logger = options.logger ?? silentLogger;
  const { directory } = options;
  const names = async () =>
    (await fileSystem.list(directory)).filter((name) => snapshotPattern.test(name)).sort();
  return {
    async save(sequence, bytes) {
      await fileSystem.mkdirp(directory);
      const header = Buffer.alloc(headerBytes);
      header.writeUInt32LE(snapshotMagic, 0);
      header.writeBigUInt64LE(sequence, 8);
      header.writeBigUInt64LE(BigInt(bytes.length), 16);
      createHash("sha256").update(bytes).digest().copy(header, 24);
      const name = `${sequence.toString().padStart(20, "0")}.snap`;
      const temporary = path.join(directory, `${name}.tmp`);
      await fileSystem.remove(temporary);
      const file = await fileSystem.openForAppend(temporary);
      await file.write(Buffer.concat([header, bytes]), 0);
      await file.datasync();
      await file.close();
      await fileSystem.rename(temporary, path.join(directory, name));
      await fileSystem.syncDirectory(directory);
      const all = await names();
      for (const old of all.slice(0, Math.max(0, all.length - keptSnapshots))) {
        await fileSystem.remove(path.join(directory, old));
      }
    },
    async loadLatest() {
      for (const name of (await names()).reverse()) {
        const content = await fileSystem.readFile(path.join(directory, name));
        const sequence = BigInt(snapshotPattern.exec(name)![1]!);
        const problem = checkSnapshotFile(content, sequence);
        if (problem) {
          logger.warn({ snapshot: name, problem }, "snapshot: damaged, trying an older one");
          continue;
        }
        return { sequence, bytes: content.subarray(headerBytes) };
      }
      return undefined;
    },
  };
}

function checkSnapshotFile(content: Buffer, sequence: bigint): string | undefined {
  if (content.length < headerBytes) return "shorter than its header";
  if (content.readUInt32LE(0) !== snapshotMagic) return "bad marker";
  if (content.readBigUInt64LE(8) !== sequence) return "sequence differs from its name";
  if (content.readBigUInt64LE(16) !== BigInt(content.length - headerBytes)) return "length differs";
  const digest = createHash("sha256").update(content.subarray(headerBytes)).digest();
  if (!digest.equals(content.subarray(24, 56))) return "checksum mismatch";
  return undefined;
}

/** Snapshots in the `kernel_snapshots` table (migration 0004). */
export function pgSnapshotStore(options: {
  database: Database;
  logger?: JournalLogger;
}): SnapshotStore {
  const { db } = options.database;
  const logger = options.logger ?? silentLogger;
  return {
    async save(sequence, bytes) {
      const checksum = createHash("sha256").update(bytes).digest();
      await sql`INSERT INTO kernel_snapshots (sequence, checksum, bytes)
        VALUES (${String(sequence)}, ${checksum}, ${Buffer.from(bytes)})
        ON CONFLICT (sequence) DO NOTHING`.execute(db);
      await sql`DELETE FROM kernel_snapshots WHERE sequence NOT IN
        (SELECT sequence FROM kernel_snapshots ORDER BY sequence DESC LIMIT ${keptSnapshots})`.execute(
        db,
      );
    },
    async loadLatest() {
      const rows = await sql<{ sequence: bigint; checksum: Uint8Array; bytes: Uint8Array }>`
        SELECT sequence, checksum, bytes FROM kernel_snapshots ORDER BY sequence DESC`.execute(db);
      for (const row of rows.rows) {
        const digest = createHash("sha256").update(row.bytes).digest();
        if (!digest.equals(Buffer.from(row.checksum))) {
          logger.warn(
            { snapshot: String(row.sequence) },
            "snapshot: checksum mismatch, trying an older one",
          );
          continue;
        }
        return { sequence: BigInt(row.sequence), bytes: row.bytes };
      }
      return undefined;
    },
  };
}
