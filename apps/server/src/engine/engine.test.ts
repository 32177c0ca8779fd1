import { describe, expect, it } from "vitest";
import { FaultFileSystem } from "../journal/fault-file-system.ts";
import { openFileJournal } from "../journal/file-journal.ts";
import { fileSnapshotStore } from "../journal/snapshot-store.ts";
import { Engine, type Applied } from "./engine.ts";
import { fakeKernel, type FakeCommand, type FakeEvent, type FakeResult } from "./fake-kernel.ts";

type FakeApplied = Applied<FakeCommand, FakeResult, FakeEvent>;

function setup(
  fileSystem = new FaultFileSystem(),
  options: { snapshotEvery?: number; nowMs?: () => number; kernel?: typeof fakeKernel } = {},
) {
  const fatal: unknown[] = [];
  const open = async () => {
    const journal = await openFileJournal({
      directory: "/data/journal",
      onFatal: () => {},
      fileSystem,
    });
    const engine = new Engine({
      kernel: options.kernel ?? fakeKernel,
      journal,
      snapshots: fileSnapshotStore({ directory: "/data/snapshots", fileSystem }),
      now: options.nowMs ?? (() => 1_000),
      snapshotEvery: options.snapshotEvery ?? 0,
      clockTickMs: 0,
      onFatal: (error) => fatal.push(error),
    });
    const started = await engine.start();
    return { engine, journal, started };
  };
  return { fileSystem, fatal, open };
}

describe("engine", () => {
  it("journals, applies in sequence order, publishes events and then answers", async () => {
    const { open } = setup();
    const { engine } = await open();
    const seen: FakeApplied[] = [];
    engine.subscribe((applied) => seen.push(applied));
    const results = await Promise.all([
      engine.submit({ type: "deposit", id: "d1", account: "alice", amount: "100" }),
      engine.submit({ type: "transfer", id: "t1", source: "alice", target: "bob", amount: "30" }),
      engine.submit({ type: "transfer", id: "t2", source: "bob", target: "carol", amount: "31" }),
    ]);
    expect(results.map((r) => r.sequence)).toEqual([1n, 2n, 3n]);
    expect(results.map((r) => r.result)).toEqual([
      { ok: true },
      { ok: true },
      { ok: false, code: "insufficient_balance" },
    ]);
    expect(seen.map((a) => a.sequence)).toEqual([1n, 2n, 3n]);
    expect(seen[1]!.events).toEqual([
      { type: "posting", debit: "alice", credit: "bob", amount: 30n },
    ]);
    expect(engine.query((state) => state.balances.get("bob"))).toBe(30n);
    await engine.stop();
  });

  it("answers a repeated id with the first result and changes nothing", async () => {
    const { open } = setup();
    const { engine } = await open();
    await engine.submit({ type: "deposit", id: "d1", account: "alice", amount: "100" });
    const hash = engine.stateHash();
    const again = await engine.submit({
      type: "deposit",
      id: "d1",
      account: "alice",
      amount: "100",
    });
    expect(again.duplicate).toBe(true);
    expect(engine.stateHash()).toBe(hash);
    expect(engine.query((state) => state.balances.get("alice"))).toBe(100n);
    await engine.stop();
  });

  it("answers retries of an id as duplicates while in flight, later, after a snapshot and a restart", async () => {
    let nowMs = 1_000;
    const { open } = setup(undefined, { snapshotEvery: 2, nowMs: () => nowMs });
    const first = await open();
    const deposit = { type: "deposit", id: "d1", account: "alice", amount: "5" } as const;
    const [a, b] = await Promise.all([first.engine.submit(deposit), first.engine.submit(deposit)]);
    expect([a.duplicate, b.duplicate]).toEqual([false, true]);
    nowMs = 2_000;
    await first.engine.submit({ type: "deposit", id: "d2", account: "bob", amount: "1" });
    expect((await first.engine.submit(deposit)).duplicate).toBe(true);
    await first.engine.stop();
    nowMs = 3_000;
    const second = await open();
    const retried = await second.engine.submit(deposit);
    expect(retried.duplicate).toBe(true);
    expect(retried.result).toEqual({ ok: true });
    const reused = await second.engine.submit({ ...deposit, amount: "6" });
    expect(reused.result).toEqual({ ok: false, code: "command_id_reused" });
    expect(second.engine.query((state) => state.balances.get("alice"))).toBe(5n);
    await second.engine.stop();
  });

  it("keeps the first events of kept commands for the idempotency window, and answers retries from them", async () => {
    let nowMs = 1_000;
    // Deposits are kept (as the server keeps users' orders); transfers are not.
    const kernel: typeof fakeKernel = {
      ...fakeKernel,
      answerEvents: (command, result, events) =>
        command.type === "deposit" && result.ok ? events : undefined,
      idempotencyWindowMs: () => 10_000,
    };
    const { open } = setup(undefined, { nowMs: () => nowMs, kernel });
    const first = await open();
    const deposit = { type: "deposit", id: "d1", account: "alice", amount: "5" } as const;
    const applied = await first.engine.submit(deposit);
    await first.engine.submit({
      type: "transfer",
      id: "t1",
      source: "alice",
      target: "bob",
      amount: "1",
    });
    const posting = { type: "posting", debit: "world", credit: "alice", amount: 5n };
    expect(first.engine.recall("d1")).toMatchObject({ sequence: 1n, events: [posting] });
    expect(first.engine.recall("t1")).toBeUndefined();
    const retried = await first.engine.submit(deposit);
    expect(retried).toMatchObject({ duplicate: true, events: [], sequence: 3n });
    expect(retried.first).toEqual({
      sequence: 1n,
      command: applied.command,
      result: { ok: true },
      events: [posting],
    });
    await first.engine.stop();
    // A restart replays the journal: the engine knows the first events again.
    const second = await open();
    expect(second.engine.recall("d1")?.sequence).toBe(1n);
    // Past the window (by command time) they are forgotten.
    nowMs = 11_001;
    await second.engine.submit({ type: "deposit", id: "d2", account: "bob", amount: "1" });
    expect(second.engine.recall("d1")).toBeUndefined();
    expect(second.engine.recall("d2")?.sequence).toBe(4n);
    await second.engine.stop();
  });

  it("stamps time that never goes backwards, across a restart", async () => {
    let nowMs = 5_000;
    const { open } = setup(undefined, { nowMs: () => nowMs });
    const first = await open();
    const a = await first.engine.submit({ type: "deposit", id: "a", account: "x", amount: "1" });
    nowMs = 4_000; // The wall clock steps back.
    const b = await first.engine.submit({ type: "deposit", id: "b", account: "x", amount: "1" });
    expect(b.command.atMs).toBe(a.command.atMs);
    await first.engine.stop();
    const second = await open();
    const c = await second.engine.submit({ type: "deposit", id: "c", account: "x", amount: "1" });
    expect(c.command.atMs).toBe(5_000);
    await second.engine.stop();
  });

  it("restores the newest snapshot, replays the rest and reaches the live state hash", async () => {
    const { open } = setup(undefined, { snapshotEvery: 10 });
    const first = await open();
    for (let i = 0; i < 25; i++) {
      await first.engine.submit({
        type: "deposit",
        id: `d${i}`,
        account: `u${i % 3}`,
        amount: String(i + 1),
      });
    }
    const liveHash = first.engine.stateHash();
    await first.engine.stop();
    const second = await open();
    expect(second.started).toMatchObject({ sequence: 25n, stateHash: liveHash, replayed: 5 });
    await second.engine.stop();
  });

  it("replays quietly only while nobody subscribes; live commands are never quiet", async () => {
    const calls: string[] = [];
    const kernel: typeof fakeKernel = {
      ...fakeKernel,
      apply: (state, command) => {
        calls.push(`apply ${command.id}`);
        return fakeKernel.apply(state, command);
      },
      applyQuiet: (state, command) => {
        calls.push(`quiet ${command.id}`);
        return fakeKernel.apply(state, command);
      },
    };
    const { open, fileSystem } = setup(undefined, { kernel });
    const first = await open();
    await first.engine.submit({ type: "deposit", id: "d1", account: "u", amount: "1" });
    const liveHash = first.engine.stateHash();
    await first.engine.stop();
    expect(calls).toEqual(["apply d1"]);
    calls.length = 0;
    // A restart nobody listens to yet: quiet.
    const second = await open();
    expect(second.started.stateHash).toBe(liveHash);
    await second.engine.stop();
    expect(calls).toEqual(["quiet d1"]);
    calls.length = 0;
    // A subscriber before start (read models catching up) sees full events.
    const journal = await openFileJournal({
      directory: "/data/journal",
      onFatal: () => {},
      fileSystem,
    });
    const third = new Engine({
      kernel,
      journal,
      snapshots: fileSnapshotStore({ directory: "/data/snapshots", fileSystem }),
      now: () => 1_000,
      snapshotEvery: 0,
      clockTickMs: 0,
    });
    const seen: FakeApplied[] = [];
    third.subscribe((applied) => seen.push(applied));
    expect((await third.start()).stateHash).toBe(liveHash);
    await third.stop();
    expect(calls).toEqual(["apply d1"]);
    expect(seen.map((a) => [a.command.id, a.replay])).toEqual([["d1", true]]);
    calls.length = 0;
    // A subscriber that has record 1 already (`eventsFrom: 2`): record 1 is quiet, 2 is not.
    const fourth = await open();
    await fourth.engine.submit({ type: "deposit", id: "d2", account: "u", amount: "2" });
    const hashOfTwo = fourth.engine.stateHash();
    await fourth.engine.stop();
    calls.length = 0;
    const fifth = new Engine({
      kernel,
      journal: await openFileJournal({
        directory: "/data/journal",
        onFatal: () => {},
        fileSystem,
      }),
      snapshots: fileSnapshotStore({ directory: "/data/snapshots", fileSystem }),
      now: () => 1_000,
      snapshotEvery: 0,
      clockTickMs: 0,
    });
    fifth.subscribe(() => {});
    expect((await fifth.start({ eventsFrom: 2n })).stateHash).toBe(hashOfTwo);
    await fifth.stop();
    expect(calls).toEqual(["quiet d1", "apply d2"]);
  });

  it("replays the whole journal without snapshots to the same state hash", async () => {
    const { open } = setup();
    const first = await open();
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        first.engine.submit(
          i % 2 === 0
            ? { type: "deposit", id: `d${i}`, account: `u${i % 7}`, amount: String(i) }
            : {
                type: "transfer",
                id: `t${i}`,
                source: `u${i % 7}`,
                target: `u${(i + 1) % 7}`,
                amount: "5",
              },
        ),
      ),
    );
    const liveHash = first.engine.stateHash();
    await first.engine.stop();
    const second = await open();
    expect(second.started).toMatchObject({ sequence: 300n, stateHash: liveHash, replayed: 300 });
    await second.engine.stop();
  });

  it("acknowledges nothing and stops when the journal cannot sync", async () => {
    const { open, fileSystem, fatal } = setup();
    const { engine } = await open();
    await engine.submit({ type: "deposit", id: "ok", account: "alice", amount: "1" });
    fileSystem.failSyncs = true;
    await expect(
      engine.submit({ type: "deposit", id: "lost", account: "alice", amount: "1" }),
    ).rejects.toThrow(/EIO/);
    expect(fatal).toHaveLength(1);
    expect(engine.query((state) => state.balances.get("alice"))).toBe(1n);
    await expect(
      engine.submit({ type: "deposit", id: "later", account: "alice", amount: "1" }),
    ).rejects.toThrow();
  });
});
