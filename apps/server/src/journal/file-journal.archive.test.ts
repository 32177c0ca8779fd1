// Issue 15: sealed segments older than the newest snapshot are compressed into `journal/archive`;
// replay and the public tape still read them, and nothing is deleted.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { Engine } from "../engine/engine.ts";
import { kernelPort, type CandorCommand } from "../engine/kernel-port.ts";
import { rebuildReadModels } from "../read-models/rebuild.ts";
import { describeEachDatabase } from "../testing/databases.ts";
import { archiveFolder, openFileJournal } from "./file-journal.ts";
import { JournalCorruptionError, type Journal } from "./journal.ts";
import { fileSnapshotStore } from "./snapshot-store.ts";

const scratches: string[] = [];
function scratch() {
  const directory = mkdtempSync(path.join(tmpdir(), "candor-archive-"));
  scratches.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of scratches.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const open = (directory: string) =>
  openFileJournal({
    directory,
    segmentBytesMax: 4_096,
    batchDelayMs: 0,
    onFatal: (error) => {
      throw error;
    },
  });

async function collect(journal: Journal, from = 1n, to?: bigint) {
  const out: [bigint, string][] = [];
  for await (const record of journal.read(from, to)) {
    out.push([record.sequence, Buffer.from(record.payload).toString()]);
  }
  return out;
}

describe("file journal archive", () => {
  it("compresses sealed segments held by a snapshot; reads, reopens and appends go on", async () => {
    const directory = scratch();
    const journal = await open(directory);
    // One record per batch (awaited): ~20 frames of ~250 bytes per 4 KiB segment.
    for (let i = 1; i <= 300; i++) await journal.append(Buffer.from(`record ${i} `.repeat(12)));
    const before = await collect(journal);
    const sealed = readdirSync(directory)
      .filter((n) => n.endsWith(".seg"))
      .sort();
    expect(sealed.length).toBeGreaterThan(5);

    const report = await journal.archiveThrough!(200n);
    expect(report.segments).toBeGreaterThan(2);
    // One record per frame here, so the 88-byte frame headers (two hashes) are a third of the
    // bytes and do not compress; a server's journal compresses far better (docs/benchmarks.md).
    expect(report.compressedBytes).toBeLessThan(report.bytes / 2);
    const archived = readdirSync(path.join(directory, archiveFolder)).sort();
    expect(archived.filter((n) => n.endsWith(".tmp"))).toEqual([]);
    const live = readdirSync(directory).filter((n) => n.endsWith(".seg"));
    // Every segment is either live or archived, never both and never lost.
    for (const name of sealed) {
      expect(live.includes(name) !== archived.includes(`${name}.gz`), name).toBe(true);
    }
    // Only segments wholly at or before 200 went; the segment being written stays.
    for (const name of archived.filter((n) => n.endsWith(".json"))) {
      const manifest = JSON.parse(readFileSync(path.join(directory, archiveFolder, name), "utf8"));
      expect(BigInt(manifest.lastSequence)).toBeLessThanOrEqual(200n);
    }
    expect(live).toContain(sealed[sealed.length - 1]);
    // The archive holds the segment's exact bytes: `gunzip` gives the segment back.
    const first = gunzipSync(readFileSync(path.join(directory, archiveFolder, `${sealed[0]}.gz`)));
    expect(first.subarray(0, 4).toString("latin1")).toBe("CJRN");

    expect(await collect(journal)).toEqual(before);
    expect(await collect(journal, 30n, 40n)).toEqual(before.slice(29, 40));
    await journal.append(Buffer.from("after archive"));
    await journal.close();

    const reopened = await open(directory);
    expect(reopened.head).toBe(301n);
    expect(await collect(reopened)).toEqual([...before, [301n, "after archive"]]);
    // Archiving again moves nothing new below 200 and is harmless.
    expect((await reopened.archiveThrough!(200n)).segments).toBe(0);
    await reopened.close();
  });

  it("stops at a damaged archive instead of skipping it", async () => {
    const directory = scratch();
    const journal = await open(directory);
    for (let i = 1; i <= 100; i++) await journal.append(Buffer.from(`record ${i} `.repeat(12)));
    await journal.archiveThrough!(60n);
    await journal.close();
    const archive = path.join(directory, archiveFolder);
    const gz = readdirSync(archive).find((n) => n.endsWith(".gz"))!;
    const bytes = readFileSync(path.join(archive, gz));
    bytes[bytes.length - 12] = bytes[bytes.length - 12]! ^ 0xff;
    writeFileSync(path.join(archive, gz), bytes);
    const reopened = await open(directory);
    await expect(collect(reopened)).rejects.toBeInstanceOf(JournalCorruptionError);
    await reopened.close();
  });

  it("prefers the live segment when a crash left it beside its archive copy", async () => {
    const directory = scratch();
    const journal = await open(directory);
    for (let i = 1; i <= 100; i++) await journal.append(Buffer.from(`record ${i} `.repeat(12)));
    const before = await collect(journal);
    const sealed = readdirSync(directory)
      .filter((n) => n.endsWith(".seg"))
      .sort()[0]!;
    const bytes = readFileSync(path.join(directory, sealed));
    await journal.archiveThrough!(60n);
    await journal.close();
    // As if the process died after writing the archive but before removing the live file.
    writeFileSync(path.join(directory, sealed), bytes);
    const reopened = await open(directory);
    expect(await collect(reopened)).toEqual(before);
    await reopened.archiveThrough!(60n);
    expect(existsSync(path.join(directory, sealed))).toBe(false);
    expect(await collect(reopened)).toEqual(before);
    await reopened.close();
  });
});

/** Ticks and trades: deposits, crossing orders and a recorded tick per step. */
function stream(): CandorCommand[] {
  const commands: CandorCommand[] = [
    { type: "define_asset", id: "a-usdt", assetId: "USDT", scale: 6, amountMax: null },
    { type: "define_asset", id: "a-btc", assetId: "BTC", scale: 8, amountMax: null },
  ];
  for (let u = 0; u < 4; u++) {
    commands.push({
      type: "open_accounts",
      id: `o${u}`,
      ownerId: String(100_001 + u),
      mode: "real",
    });
    commands.push({
      type: "credit_deposit",
      id: `d${u}`,
      ownerId: String(100_001 + u),
      mode: "real",
      assetId: "USDT",
      amount: 1_000_000_000n,
      reference: `r${u}`,
      operatorId: null,
    });
  }
  for (let i = 1; i <= 400; i++) {
    commands.push({
      type: "record_tick",
      id: `t${i}`,
      tickId: `BTCUSDT:${i}`,
      instrumentId: "BTCUSDT",
      price: `${95_000 + (i % 50)}.5`,
      tickAtMs: 1_000 * i,
    });
  }
  return commands;
}

describeEachDatabase("journal archive: replay and the public tape", (database) => {
  it("replays archive + live segments to the live state hash; the tape serves archived ticks", async () => {
    const directory = scratch();
    let nowMs = 1_700_000_000_000;
    const engineOn = async (snapshots: string) =>
      new Engine({
        kernel: kernelPort,
        journal: await open(path.join(directory, "journal")),
        snapshots: fileSnapshotStore({ directory: path.join(directory, snapshots) }),
        snapshotEvery: 100,
        clockTickMs: 0,
        now: () => (nowMs += 10),
      });
    const live = await engineOn("snapshots");
    await live.start();
    for (const command of stream()) await live.submit(command);
    const liveHash = live.stateHash();
    // Snapshots archive in the background; stop waits for an archive under way.
    await live.stop();
    const archive = path.join(directory, "journal", archiveFolder);
    expect(readdirSync(archive).filter((n) => n.endsWith(".gz")).length).toBeGreaterThan(3);

    // A standby with no snapshot replays everything, most of it from the archive.
    const standby = await engineOn("no-snapshots");
    const restored = await standby.start();
    expect(restored.replayed).toBe(stream().length);
    expect(restored.stateHash).toBe(liveHash);
    await standby.stop();

    // The read models rebuilt from archive + live segments; the tape serves an archived tick.
    const journal = await open(path.join(directory, "journal"));
    const rebuilt = await rebuildReadModels(database(), journal);
    await journal.close();
    expect(rebuilt.stateHash).toBe(liveHash);
    expect(rebuilt.differences).toEqual([]);
    const app = await buildApp({ database: database() });
    const answer = await app.inject({
      method: "GET",
      url: "/api/v1/tape/tick?instrumentId=BTCUSDT&tickId=BTCUSDT:5&around=2",
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data.tick).toMatchObject({ tickId: "BTCUSDT:5", price: "95005.5" });
    const range = await app.inject({ method: "GET", url: "/api/v1/tape?from=11&to=21" });
    expect(range.json().data.ticks).toHaveLength(11);
    await app.close();
  });
});
