import { connect, type NatsConnection } from "nats";
import { afterAll, describe, expect, it } from "vitest";
import type { Applied } from "../engine/engine.ts";
import {
  fakeKernel,
  type FakeCommand,
  type FakeEvent,
  type FakeResult,
  type FakeState,
} from "../engine/fake-kernel.ts";
import { FaultFileSystem } from "../journal/fault-file-system.ts";
import { fileSnapshotStore } from "../journal/snapshot-store.ts";
import { startApiNode } from "./api-node.ts";
import { clusterSubjects, serveCommands } from "./command-bus.ts";
import { startEngineNode } from "./engine-node.ts";
import { deleteLeaseBucket } from "./leader-lease.ts";

// An API node's follower kernel (ROLE=api) against an in-process leader on the machine's NATS
// with JetStream: a stream, a bucket and subjects per run.
const servers = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const run = `${process.pid}_${Date.now()}`;
const stream = `CANDOR_APINODE_TEST_${run}`;
const bucket = `CANDOR_APINODE_LEASE_${run}`;
const prefix = `candor_apinode_test_${run}`;
const connections: NatsConnection[] = [];
const closers: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  for (const open of connections) await open.close().catch(() => undefined);
  const connection = await connect({ servers });
  const manager = await connection.jetstreamManager();
  await manager.streams.delete(stream).catch(() => false);
  await connection.close();
  await deleteLeaseBucket(servers, bucket);
});

const snapshots = () => fileSnapshotStore({ directory: "/s", fileSystem: new FaultFileSystem() });

describe("API node on a follower kernel", () => {
  it("forwards writes to the leader, answers once it has applied them, and never appends", async () => {
    const fatal: unknown[] = [];
    const connection = await connect({ servers });
    connections.push(connection);
    const leader = await startEngineNode({
      nodeId: "leader",
      kernel: fakeKernel,
      snapshots: snapshots(),
      jetStream: { servers, stream, replicas: 1 },
      lease: { bucket, ttlMs: 2_000 },
      onFatal: (error) => fatal.push(error),
      onLeader: (engine) => {
        const stop = serveCommands({ engine, connection, subjects: clusterSubjects(prefix) });
        closers.push(stop);
      },
      snapshotEvery: 0,
      clockTickMs: 0,
    });
    closers.push(() => leader.close());
    await leader.leading;
    await leader.engine.submit({ type: "deposit", id: "before", account: "a", amount: "5" });

    const api = await startApiNode<FakeState, FakeCommand, FakeResult, FakeEvent>({
      kernel: fakeKernel,
      snapshots: snapshots(),
      jetStream: { servers, stream, replicas: 1 },
      subjects: prefix,
      onFatal: (error) => fatal.push(error),
      attemptTimeoutMs: 500,
      deadlineMs: 5_000,
    });
    closers.push(() => api.close());
    // What the stream held at start was replayed into the follower.
    expect(api.engine.sequence).toBeGreaterThanOrEqual(1n);
    const live: Applied<FakeCommand, FakeResult, FakeEvent>[] = [];
    api.engine.subscribe((applied) => live.push(applied));

    const applied = await api.engine.submit({
      type: "deposit",
      id: "via-api",
      account: "b",
      amount: "7",
    });
    expect(applied.result).toEqual({ ok: true });
    expect(applied.duplicate).toBe(false);
    // Read-your-write: the follower holds the acknowledged record when submit resolves.
    expect(api.engine.sequence).toBeGreaterThanOrEqual(applied.sequence);
    expect(api.engine.stateHash()).toBe(leader.engine.stateHash());
    // Subscribers (the WebSocket hubs) saw it as a live record.
    const seen = live.find((r) => r.command.id === "via-api")!;
    expect(seen.replay).toBe(false);
    expect(seen.sequence).toBe(applied.sequence);

    // A retry by id: the kernel's duplicate, nothing applied twice.
    const retried = await api.engine.submit({
      type: "deposit",
      id: "via-api",
      account: "b",
      amount: "7",
    });
    expect(retried.duplicate).toBe(true);
    expect(api.engine.stateHash()).toBe(leader.engine.stateHash());
    // The follower is a standby that never leads and never writes the journal.
    expect(api.engine.isStandby).toBe(true);
    expect(fatal).toEqual([]);
  }, 30_000);
});
