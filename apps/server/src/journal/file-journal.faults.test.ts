import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FaultFileSystem } from "./fault-file-system.ts";
import { openFileJournal } from "./file-journal.ts";
import { JournalCorruptionError, JournalFailedError, type Journal } from "./journal.ts";

/** Small deterministic generator, so a failing case can be replayed from its seed. */
function seededRandom(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

async function readAll(journal: Journal) {
  const out: string[] = [];
  for await (const record of journal.read(1n)) out.push(Buffer.from(record.payload).toString());
  return out;
}

const noFatal = (error: unknown) => {
  throw error;
};

describe("file journal under faults", () => {
  it("recovers a torn tail to the last acknowledged record (20 random crashes)", async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed);
      const fileSystem = new FaultFileSystem();
      const journal = await openFileJournal({
        directory: "/j",
        onFatal: noFatal,
        fileSystem,
        segmentBytesMax: 2_000 + Math.floor(random() * 4_000),
        batchRecordsMax: 1 + Math.floor(random() * 20),
      });
      const acknowledged: string[] = [];
      const appendOne = (value: string) =>
        journal.append(Buffer.from(value)).then(
          () => acknowledged.push(value),
          () => {},
        );
      const first = Array.from({ length: 30 + Math.floor(random() * 50) }, (_, i) => `a${i}`);
      await Promise.all(first.map(appendOne));
      // Now writes land but their fdatasync never returns: power fails in that window.
      fileSystem.holdSyncs();
      const second = Array.from({ length: 1 + Math.floor(random() * 40) }, (_, i) => `b${i}`);
      void Promise.all(second.map(appendOne));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const afterCrash = fileSystem.crash(random);

      const reopened = await openFileJournal({
        directory: "/j",
        onFatal: noFatal,
        fileSystem: afterCrash,
      });
      const records = await readAll(reopened);
      expect(records.slice(0, acknowledged.length), `seed ${seed}`).toEqual(acknowledged);
      expect(records, `seed ${seed}`).toEqual([...first, ...second].slice(0, records.length));
      // The journal keeps working after recovery.
      expect(await reopened.append(Buffer.from("after"))).toBe(BigInt(records.length + 1));
      await reopened.close();
    }
  });

  it("stops start-up on a bit flipped in the middle, naming segment and offset", async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const random = seededRandom(seed);
      const fileSystem = new FaultFileSystem();
      const journal = await openFileJournal({
        directory: "/j",
        onFatal: noFatal,
        fileSystem,
        batchRecordsMax: 5,
      });
      await Promise.all(
        Array.from({ length: 60 }, (_, i) => journal.append(Buffer.from(`record ${i}`))),
      );
      await journal.close();
      const segment = (await fileSystem.list("/j"))[0]!;
      const size = fileSystem.size(`/j/${segment}`);
      // Anywhere but the last frame (a damaged last frame is also refused, tested below).
      const offset = Math.floor(random() * (size - 200));
      fileSystem.flipBit(`/j/${segment}`, offset, Math.floor(random() * 8));
      const error = await openFileJournal({ directory: "/j", onFatal: noFatal, fileSystem }).catch(
        (e) => e,
      );
      expect(error, `seed ${seed} offset ${offset}`).toBeInstanceOf(JournalCorruptionError);
      expect(error.segment).toBe(segment);
      expect(error.offset).toBeLessThanOrEqual(offset);
      expect(error.message).toMatch(new RegExp(`${segment} at byte \\d+`));
    }
  });

  it("replays the bytes the open checked, then reads and checks the disk again", async () => {
    const fileSystem = new FaultFileSystem();
    const writer = await openFileJournal({
      directory: "/j",
      onFatal: noFatal,
      fileSystem,
      segmentBytesMax: 2_000,
      batchRecordsMax: 7,
    });
    const values = Array.from({ length: 120 }, (_, i) => `record ${i}`);
    await Promise.all(values.map((v) => writer.append(Buffer.from(v))));
    await writer.close();
    const segments = await fileSystem.list("/j");
    expect(segments.length).toBeGreaterThan(2);

    const journal = await openFileJournal({ directory: "/j", onFatal: noFatal, fileSystem });
    // Damage after the open checked every frame: the first read (a start-up replay) gets the
    // bytes as checked; every later read goes to the disk and checks again.
    const last = `/j/${segments[segments.length - 1]!}`;
    fileSystem.flipBit(last, fileSystem.size(last) - 30);
    const firstRead: string[] = [];
    for await (const record of journal.read(40n)) {
      expect(record.sequence).toBe(BigInt(40 + firstRead.length));
      firstRead.push(Buffer.from(record.payload).toString());
    }
    expect(firstRead).toEqual(values.slice(39));
    // Appended after the open: read from the disk, after the kept bytes.
    await journal.append(Buffer.from("after"));
    await expect(readAll(journal)).rejects.toThrow(JournalCorruptionError);
    await journal.close();
  });

  it("reads kept and appended records in order when the first read comes after appends", async () => {
    const fileSystem = new FaultFileSystem();
    const writer = await openFileJournal({ directory: "/j", onFatal: noFatal, fileSystem });
    await Promise.all(["a", "b", "c"].map((v) => writer.append(Buffer.from(v))));
    await writer.close();
    const journal = await openFileJournal({ directory: "/j", onFatal: noFatal, fileSystem });
    await journal.append(Buffer.from("d"));
    await journal.append(Buffer.from("e"));
    expect(await readAll(journal)).toEqual(["a", "b", "c", "d", "e"]);
    expect(await readAll(journal)).toEqual(["a", "b", "c", "d", "e"]);
    await journal.close();
  });

  it("refuses a complete last frame whose checksum fails: it may have been acknowledged", async () => {
    const fileSystem = new FaultFileSystem();
    const journal = await openFileJournal({ directory: "/j", onFatal: noFatal, fileSystem });
    await journal.append(Buffer.from("one"));
    await journal.append(Buffer.from("two"));
    await journal.close();
    const segment = `/j/${(await fileSystem.list("/j"))[0]!}`;
    fileSystem.flipBit(segment, fileSystem.size(segment) - 1);
    await expect(
      openFileJournal({ directory: "/j", onFatal: noFatal, fileSystem }),
    ).rejects.toThrow(JournalCorruptionError);
  });

  it("stops without acknowledging when fdatasync fails", async () => {
    const fileSystem = new FaultFileSystem();
    const fatalErrors: unknown[] = [];
    const journal = await openFileJournal({
      directory: "/j",
      onFatal: (error) => fatalErrors.push(error),
      fileSystem,
    });
    expect(await journal.append(Buffer.from("kept"))).toBe(1n);
    fileSystem.failSyncs = true;
    const results = await Promise.allSettled(
      [1, 2, 3].map((i) => journal.append(Buffer.from(`lost ${i}`))),
    );
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect(fatalErrors).toHaveLength(1);
    expect(String(fatalErrors[0])).toMatch(/EIO/);
    fileSystem.failSyncs = false; // No retry: the journal stays stopped even if the disk recovers.
    await expect(journal.append(Buffer.from("after"))).rejects.toBeInstanceOf(JournalFailedError);
    expect(journal.head).toBe(1n);
    expect(fileSystem.syncCount).toBe(1);
  });

  it("stops without acknowledging when the disk is full, and recovers what was acknowledged", async () => {
    const fileSystem = new FaultFileSystem();
    const fatalErrors: unknown[] = [];
    const journal = await openFileJournal({
      directory: "/j",
      onFatal: (e) => fatalErrors.push(e),
      fileSystem,
    });
    await journal.append(Buffer.from("kept"));
    fileSystem.capacityBytes = fileSystem.size(`/j/${(await fileSystem.list("/j"))[0]!}`) + 50;
    await expect(journal.append(Buffer.from("x".repeat(200)))).rejects.toBeInstanceOf(
      JournalFailedError,
    );
    expect(String(fatalErrors[0])).toMatch(/ENOSPC/);
    const reopened = await openFileJournal({
      directory: "/j",
      onFatal: noFatal,
      fileSystem: fileSystem.crash(() => 1),
    });
    expect(await readAll(reopened)).toEqual(["kept"]);
  });

  it("cuts a real segment file torn at a random byte of its last frame", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "candor-journal-torn-"));
    try {
      const random = seededRandom(42);
      for (let round = 0; round < 5; round++) {
        const journal = await openFileJournal({ directory, onFatal: noFatal });
        const before = journal.head;
        await Promise.all(
          Array.from({ length: 10 }, (_, i) => journal.append(Buffer.from(`r${round}-${i}`))),
        );
        await journal.close();
        const file = path.join(directory, readdirSync(directory).sort().at(-1)!);
        const size = statSync(file).size;
        const lastFrameBytes = 88 + 10 * (16 + 4);
        const cut = size - 1 - Math.floor(random() * (lastFrameBytes - 1));
        truncateSync(file, cut);
        const reopened = await openFileJournal({ directory, onFatal: noFatal });
        expect(reopened.head).toBe(before);
        expect(statSync(file).size).toBe(size - lastFrameBytes);
        await reopened.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("refuses a segment cut short when a later segment exists", async () => {
    const fileSystem = new FaultFileSystem();
    const journal = await openFileJournal({
      directory: "/j",
      onFatal: noFatal,
      fileSystem,
      segmentBytesMax: 300,
      batchRecordsMax: 2,
    });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => journal.append(Buffer.from(`record ${i}`))),
    );
    await journal.close();
    const segments = await fileSystem.list("/j");
    expect(segments.length).toBeGreaterThan(3);
    await fileSystem.truncate(`/j/${segments[1]!}`, fileSystem.size(`/j/${segments[1]!}`) - 3);
    const error = await openFileJournal({ directory: "/j", onFatal: noFatal, fileSystem }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(JournalCorruptionError);
    expect(error.segment).toBe(segments[1]);
  });
});
