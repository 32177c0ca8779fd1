import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../testing/databases.ts";
import { FaultFileSystem } from "./fault-file-system.ts";
import { openFileJournal } from "./file-journal.ts";
import { JournalCorruptionError } from "./journal.ts";
import { journalContract } from "./journal-contract.ts";
import { openPgJournal } from "./pg-journal.ts";
import { fileSnapshotStore, pgSnapshotStore } from "./snapshot-store.ts";

const fatal = (error: unknown) => {
  throw error;
};

describe("file journal on disk", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "candor-journal-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  journalContract(() => ({
    open: (options) => openFileJournal({ directory, onFatal: fatal, ...options }),
    async reset() {
      rmSync(directory, { recursive: true, force: true });
    },
  }));
});

describe("file journal in small segments", () => {
  let fileSystem = new FaultFileSystem();
  journalContract(() => ({
    open: (options) =>
      openFileJournal({
        directory: "/j",
        onFatal: fatal,
        fileSystem,
        segmentBytesMax: 4_096,
        ...options,
      }),
    async reset() {
      fileSystem = new FaultFileSystem();
    },
  }));
});

describeEachDatabase("PostgreSQL journal", (database) => {
  journalContract(() => ({
    open: (options) => openPgJournal({ database: database(), onFatal: fatal, ...options }),
    async reset() {
      await sql`DELETE FROM journal_records`.execute(database().db);
    },
  }));

  it("stops start-up on a damaged row, naming it", async () => {
    await sql`DELETE FROM journal_records`.execute(database().db);
    const journal = await openPgJournal({ database: database(), onFatal: fatal });
    await Promise.all(["a", "b", "c"].map((v) => journal.append(Buffer.from(v))));
    await journal.close();
    await sql`UPDATE journal_records SET record = set_byte(record, 16, 122) WHERE sequence = 2`.execute(
      database().db,
    );
    const error = await openPgJournal({ database: database(), onFatal: fatal }).catch((e) => e);
    expect(error).toBeInstanceOf(JournalCorruptionError);
    expect(String(error.message)).toMatch(/journal_records#2/);
  });

  it("keeps snapshots and returns the newest intact one", async () => {
    const store = pgSnapshotStore({ database: database() });
    expect(await store.loadLatest()).toBeUndefined();
    await store.save(5n, Buffer.from("five"));
    await store.save(9n, Buffer.from("nine"));
    let latest = await store.loadLatest();
    expect(latest?.sequence).toBe(9n);
    expect(Buffer.from(latest!.bytes).toString()).toBe("nine");
    await sql`UPDATE kernel_snapshots SET bytes = '\\x00' WHERE sequence = 9`.execute(
      database().db,
    );
    latest = await store.loadLatest();
    expect(latest?.sequence).toBe(5n);
  });
});

describe("file snapshot store", () => {
  it("keeps the newest three and passes over a damaged one", async () => {
    const fileSystem = new FaultFileSystem();
    const store = fileSnapshotStore({ directory: "/s", fileSystem });
    expect(await store.loadLatest()).toBeUndefined();
    for (const sequence of [1n, 2n, 3n, 4n])
      await store.save(sequence, Buffer.from(`s${sequence}`));
    expect(await fileSystem.list("/s")).toHaveLength(3);
    fileSystem.flipBit("/s/00000000000000000004.snap", 57);
    const latest = await store.loadLatest();
    expect(latest?.sequence).toBe(3n);
    expect(Buffer.from(latest!.bytes).toString()).toBe("s3");
  });
});
