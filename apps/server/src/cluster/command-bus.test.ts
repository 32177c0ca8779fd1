import { connect, type NatsConnection } from "nats";
import { afterAll, describe, expect, it } from "vitest";
import type { Applied, Unstamped } from "../engine/engine.ts";
import {
  fakeKernel,
  type FakeCommand,
  type FakeEvent,
  type FakeResult,
} from "../engine/fake-kernel.ts";
import { FaultFileSystem } from "../journal/fault-file-system.ts";
import { fileSnapshotStore } from "../journal/snapshot-store.ts";
import {
  clusterSubjects,
  NoLeaderError,
  recentApplied,
  RemoteEngine,
  serveCommands,
} from "./command-bus.ts";
import { startEngineNode } from "./engine-node.ts";
import { deleteLeaseBucket } from "./leader-lease.ts";

// The machine's NATS with JetStream (issue 25): a stream, a bucket and subjects per run.
const servers = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const run = `${process.pid}_${Date.now()}`;
const stream = `CANDOR_BUS_TEST_${run}`;
const bucket = `CANDOR_BUS_LEASE_${run}`;
const subjects = clusterSubjects(`candor_test_${run}`);
const ttlMs = 2_000;
const connections: NatsConnection[] = [];

afterAll(async () => {
  const connection = await connect({ servers });
  const manager = await connection.jetstreamManager();
  await manager.streams.delete(stream).catch(() => false);
  await connection.close();
  await deleteLeaseBucket(servers, bucket);
  for (const open of connections) await open.close().catch(() => undefined);
});

type Record = Applied<FakeCommand, FakeResult, FakeEvent>;

async function openNode(nodeId: string) {
  const fatal: unknown[] = [];
  const connection = await connect({ servers });
  connections.push(connection);
  let stopServing: (() => Promise<void>) | undefined;
  let followed: ReturnType<typeof recentApplied<FakeCommand, FakeResult, FakeEvent>> | undefined;
  const node = await startEngineNode({
    nodeId,
    kernel: fakeKernel,
    snapshots: fileSnapshotStore({ directory: "/s", fileSystem: new FaultFileSystem() }),
    jetStream: { servers, stream, replicas: 1 },
    lease: { bucket, ttlMs },
    onFatal: (error) => fatal.push(error),
    // The leader answers forwarded commands only once it leads.
    onLeader: (engine) =>
      (stopServing = serveCommands({ engine, connection, subjects, backlog: followed?.take() })),
    snapshotEvery: 0,
    clockTickMs: 0,
  });
  if (node.role === "standby") followed = recentApplied(node.engine);
  return {
    node,
    fatal,
    /** As SIGKILL looks to the cluster: no more replies, no more renewals. */
    async kill() {
      await stopServing?.();
      node.pauseLease();
      await connection.close();
    },
  };
}

async function apiNode() {
  const connection = await connect({ servers });
  connections.push(connection);
  const remote = new RemoteEngine<FakeCommand, FakeResult, FakeEvent>({
    connection,
    subjects,
    attemptTimeoutMs: 500,
    deadlineMs: 20_000,
  });
  const received: Record[] = [];
  const gaps: unknown[] = [];
  remote.subscribe((applied) => received.push(applied));
  remote.onGap((gap) => gaps.push(gap));
  remote.start();
  return { remote, received, gaps };
}

const deposit = (id: string, account: string, amount: string): Unstamped<FakeCommand> => ({
  type: "deposit",
  id,
  account,
  amount,
});

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("command bus: API nodes forward commands to the leader by NATS request/reply", () => {
  it("acknowledges each command once, fans applied records out in order, and survives a failover", async () => {
    // Before any leader: no responders until the deadline, then NOT acknowledged.
    const early = await apiNode();
    const lonely = new RemoteEngine<FakeCommand, FakeResult, FakeEvent>({
      connection: connections.at(-1)!,
      subjects,
      deadlineMs: 300,
    });
    await expect(lonely.submit(deposit("nobody", "alice", "1"))).rejects.toThrow(NoLeaderError);

    const a = await openNode("a");
    expect(a.node.role).toBe("leader");
    const b = await openNode("b");
    expect(b.node.role).toBe("standby");
    const one = await apiNode();
    const two = early;

    // Orders through both API nodes, each acknowledged exactly once.
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? one : two).remote.submit(deposit(`d${i}`, `user${i % 3}`, "10")),
      ),
    );
    expect(first.every((applied) => !applied.duplicate && applied.result.ok)).toBe(true);
    expect(new Set(first.map((applied) => applied.sequence)).size).toBe(20);
    // A retry by id (through the other node) is the same command: a duplicate, same result.
    const retried = await one.remote.submit(deposit("d0", "user0", "10"));
    expect(retried.duplicate).toBe(true);
    expect(retried.result).toEqual(first[0]!.result);
    expect(retried.first?.sequence ?? first[0]!.sequence).toBe(first[0]!.sequence);

    // The leader dies (no replies, no renewals). Commands sent meanwhile wait and then land
    // once on the new leader.
    await until(() => one.received.length >= 21 && two.received.length >= 21);
    await a.kill();
    const started = Date.now();
    const during = await Promise.all([
      one.remote.submit(deposit("during1", "alice", "5")),
      two.remote.submit(deposit("during2", "bob", "5")),
      // Retried while the leader is gone: still one application.
      two.remote.submit(deposit("d1", "user1", "10")),
    ]);
    const pauseMs = Date.now() - started;
    expect(b.node.role).toBe("leader");
    expect(during[0].duplicate).toBe(false);
    expect(during[1].duplicate).toBe(false);
    expect(during[2].duplicate).toBe(true);
    console.log(`command bus: commands paused ${pauseMs} ms across the failover`);
    const after = await one.remote.submit(deposit("after", "alice", "1"));
    expect(after.duplicate).toBe(false);
    expect(b.node.engine.query((state) => state.balances.get("alice"))).toBe(6n);
    expect(b.node.engine.query((state) => state.balances.get("user0"))).toBe(70n);

    // Fan-out: both API nodes saw every journal sequence once, in order, across the failover.
    const last = b.node.engine.sequence;
    await until(() => one.received.at(-1)?.sequence === last);
    await until(() => two.received.at(-1)?.sequence === last);
    for (const api of [one, two]) {
      expect(api.gaps).toEqual([]);
      expect(api.received.map((applied) => applied.sequence)).toEqual(
        Array.from({ length: Number(last) }, (_, i) => BigInt(i + 1)),
      );
    }
    await one.remote.stop();
    await two.remote.stop();
    await b.node.close();
    await a.node.close().catch(() => undefined);
    expect(b.fatal).toEqual([]);
  }, 60_000);

  it("reports a gap in the applied sequence", async () => {
    const api = await apiNode();
    const publisher = connections.at(-1)!;
    const { headers } = await import("nats");
    const { serialize } = await import("node:v8");
    const send = (sequence: bigint) => {
      const header = headers();
      header.set("Candor-Sequence", sequence.toString());
      publisher.publish(subjects.applied + "_gap", serialize({ sequence }), { headers: header });
    };
    const gapRemote = new RemoteEngine<FakeCommand, FakeResult, FakeEvent>({
      connection: publisher,
      subjects: { ...subjects, applied: subjects.applied + "_gap" },
    });
    const gaps: { expected: bigint; received: bigint }[] = [];
    gapRemote.onGap((gap) => gaps.push(gap));
    gapRemote.start();
    await publisher.flush();
    send(1n);
    send(2n);
    send(5n);
    send(4n); // Late: already past it, dropped.
    send(6n);
    await publisher.flush();
    await until(() => gapRemote.sequence === 6n);
    expect(gaps).toEqual([{ expected: 3n, received: 5n }]);
    await gapRemote.stop();
    await api.remote.stop();
  });
});
