import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../testing/databases.ts";
import { FaultFileSystem } from "./fault-file-system.ts";
import { openFileJournal } from "./file-journal.ts";
import { connect } from "nats";
import { openJetStreamJournal } from "./jetstream-journal.ts";
import { encodeRecords, JournalCorruptionError, recordHeaderBytes } from "./journal.ts";
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

// The machine's NATS with JetStream (issue 25): a stream per test run, deleted afterwards.
describe("JetStream journal", () => {
  const servers = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const stream = `CANDOR_TEST_${process.pid}_${Date.now()}`;
  const deleteStream = async () => {
    const connection = await connect({ servers });
    const manager = await connection.jetstreamManager();
    await manager.streams.delete(stream).catch(() => false);
    await connection.close();
  };
  afterAll(deleteStream);
  journalContract(() => ({
    open: (options) => openJetStreamJournal({ servers, stream, onFatal: fatal, ...options }),
    reset: deleteStream,
  }));

  it("fences a deposed writer: its next append fails once another has appended", async () => {
    await deleteStream();
    const fatalErrors: unknown[] = [];
    const old = await openJetStreamJournal({
      servers,
      stream,
      onFatal: (error) => fatalErrors.push(error),
    });
    expect(await old.append(Buffer.from("one"))).toBe(1n);
    // A standby takes over: it reads the head from the stream and appends after it.
    const leader = await openJetStreamJournal({ servers, stream, onFatal: fatal });
    expect(leader.head).toBe(1n);
    expect(await leader.append(Buffer.from("two"))).toBe(2n);
    await expect(old.append(Buffer.from("stale"))).rejects.toThrow();
    expect(fatalErrors).toHaveLength(1);
    expect(String(fatalErrors[0])).toMatch(/deposed|wrong last sequence/i);
    expect(await leader.append(Buffer.from("three"))).toBe(3n);
    await old.close().catch(() => undefined);
    await leader.close();
    const reopened = await openJetStreamJournal({ servers, stream, onFatal: fatal });
    const texts: string[] = [];
    for await (const record of reopened.read(1n))
      texts.push(Buffer.from(record.payload).toString());
    expect(texts).toEqual(["one", "two", "three"]);
    await reopened.close();
  });

  it("stops start-up on a batch whose hash does not chain, naming it", async () => {
    await deleteStream();
    const journal = await openJetStreamJournal({ servers, stream, onFatal: fatal });
    await journal.append(Buffer.from("a"));
    await journal.append(Buffer.from("b"));
    await journal.close();
    // A third message written around the journal: records that follow, but a made-up hash.
    const connection = await connect({ servers });
    const records = Buffer.alloc(recordHeaderBytes + 1);
    encodeRecords(records, 0, 3n, [Buffer.from("c")]);
    await connection
      .jetstream()
      .publish(`candor.journal.${stream}`, Buffer.concat([Buffer.alloc(32, 7), records]));
    await connection.close();
    const error = await openJetStreamJournal({ servers, stream, onFatal: fatal }).catch((e) => e);
    expect(error).toBeInstanceOf(JournalCorruptionError);
    expect(String(error.message)).toMatch(new RegExp(`${stream}@3.*hash chain broken`));
  });
});
