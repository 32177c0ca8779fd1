// The compact answer memory must rebuild exactly what the engine kept as objects: equal values,
// same key order, for every answer the server keeps on the compatibility journal and on the W9
// trading stream; what does not fit is refused (the engine keeps objects for it).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "@candor/kernel";
import { describe, expect, it } from "vitest";
import { tradingStream } from "../../scripts/replay-bench.ts";
import { FaultFileSystem } from "../journal/fault-file-system.ts";
import { openFileJournal } from "../journal/file-journal.ts";
import { fileSnapshotStore } from "../journal/snapshot-store.ts";
import { CompactAnswers } from "./compact-answers.ts";
import { Engine } from "./engine.ts";
import { decodeCommandNative, kernelPort } from "./kernel-port.ts";

const fixture = path.join(
  import.meta.dirname,
  "../../../../packages/kernel/fixtures/journal-2026-11-24.jsonl",
);

/** JSON text with bigints marked: equal text means equal values and the same key order. */
const text = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `bigint:${v}` : v));

/** Replays `records`, keeping every answer the server keeps; checks each rebuilt one. */
function replayAndCheck(records: Uint8Array[]) {
  const state = kernelPort.createState();
  const memory = new CompactAnswers(decodeCommandNative);
  const kept: { handle: number; first: object }[] = [];
  let refused = 0;
  for (const [index, payload] of records.entries()) {
    const command = decodeCommandNative(payload);
    const step = kernelPort.applyQuiet!(state, command);
    if (step.duplicate) continue;
    const events = kernelPort.answerEvents!(command, step.result, step.events);
    if (!events) continue;
    const sequence = BigInt(index + 1);
    const handle = memory.keep(sequence, payload, command, step.result, events);
    if (handle === -1) {
      refused += 1;
      continue;
    }
    kept.push({ handle, first: { sequence, command, result: step.result, events } });
  }
  for (const { handle, first } of kept) {
    const rebuilt = memory.first(handle);
    expect(rebuilt).toEqual(first);
    expect(text(rebuilt)).toBe(text(first));
    expect(memory.atMs(handle)).toBe((first as { command: Command }).command.atMs);
  }
  return { kept: kept.length, refused, memory, handles: kept.map((k) => k.handle) };
}

describe("compact answers", () => {
  it("rebuild every kept user order of the compatibility journal exactly", () => {
    const lines = readFileSync(fixture, "utf8").split("\n").filter(Boolean);
    const { kept, refused } = replayAndCheck(lines.map((line) => Buffer.from(line, "utf8")));
    expect(kept).toBeGreaterThan(100);
    // Quote and exchange answers, orders with a self-trade mode, …: kept as objects.
    expect(refused).toBeGreaterThanOrEqual(0);
  });

  it("rebuild every user order of the W9 stream exactly, and free dropped chunks", () => {
    const stream = tradingStream(3_000);
    const records = stream.map((command, i) =>
      kernelPort.encodeCommand({ ...command, atMs: 1_000 + i } as Command),
    );
    const { kept, refused, memory, handles } = replayAndCheck(records);
    expect(kept).toBeGreaterThan(2_900);
    expect(refused).toBe(0);
    expect(memory.chunkCount).toBe(Math.ceil(kept / 1024));
    for (const handle of handles.slice(0, 2048)) memory.drop(handle);
    expect(memory.chunkCount).toBe(Math.ceil(kept / 1024) - 2);
  });

  it("an engine answers retries of replayed orders as it did live, across a restart", async () => {
    const fileSystem = new FaultFileSystem();
    let nowMs = 1_000;
    const open = async () => {
      const engine = new Engine({
        kernel: kernelPort,
        journal: await openFileJournal({ directory: "/j", onFatal: () => {}, fileSystem }),
        snapshots: fileSnapshotStore({ directory: "/s", fileSystem }),
        now: () => nowMs++,
        snapshotEvery: 0,
        clockTickMs: 0,
      });
      await engine.start();
      return engine;
    };
    const stream = tradingStream(300);
    const live = await open();
    const firsts = new Map<string, object>();
    for (const command of stream) {
      const applied = await live.submit(command);
      const first = live.recall(command.id);
      if (first) {
        expect(first).toMatchObject({ sequence: applied.sequence, command: applied.command });
        firsts.set(command.id, first);
      }
    }
    await live.stop();
    expect(firsts.size).toBeGreaterThan(250);
    const restarted = await open();
    for (const [id, first] of firsts) expect(restarted.recall(id)).toEqual(first);
    // A retry after the restart is a duplicate answered with the first application.
    const [id, first] = [...firsts][firsts.size - 1]!;
    const retry = stream.find((c) => c.id === id)!;
    const retried = await restarted.submit(retry);
    expect(retried.duplicate).toBe(true);
    expect(retried.first).toEqual(first);
    expect(text(retried.first)).toBe(text(restarted.recall(id)));
    await restarted.stop();
  });

  it("refuses answers it does not rebuild", () => {
    const memory = new CompactAnswers(decodeCommandNative);
    const deposit = { type: "deposit", id: "d", atMs: 1 } as unknown as Command;
    expect(memory.keep(1n, new Uint8Array(), deposit, { ok: true, value: {} } as never, [])).toBe(
      -1,
    );
  });
});
