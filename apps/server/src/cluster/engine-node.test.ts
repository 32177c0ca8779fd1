import { connect } from "nats";
import { afterAll, describe, expect, it } from "vitest";
import { NotLeaderError, type Unstamped } from "../engine/engine.ts";
import { fakeKernel, type FakeCommand } from "../engine/fake-kernel.ts";
import { FaultFileSystem } from "../journal/fault-file-system.ts";
import { fileSnapshotStore } from "../journal/snapshot-store.ts";
import { startEngineNode } from "./engine-node.ts";
import { deleteLeaseBucket, LeaderLease } from "./leader-lease.ts";

// The machine's NATS with JetStream (issue 25): a stream and a bucket per test, deleted after.
const servers = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const run = `${process.pid}_${Date.now()}`;
const created: { streams: string[]; buckets: string[] } = { streams: [], buckets: [] };
let counter = 0;
function names() {
  counter += 1;
  const stream = `CANDOR_NODE_TEST_${run}_${counter}`;
  const bucket = `CANDOR_LEASE_TEST_${run}_${counter}`;
  created.streams.push(stream);
  created.buckets.push(bucket);
  return { stream, bucket };
}
afterAll(async () => {
  const connection = await connect({ servers });
  const manager = await connection.jetstreamManager();
  for (const stream of created.streams) await manager.streams.delete(stream).catch(() => false);
  await connection.close();
  for (const bucket of created.buckets) await deleteLeaseBucket(servers, bucket);
});

const ttlMs = 2_000;

function node(nodeId: string, stream: string, bucket: string, leaseNow?: () => number) {
  const fatal: unknown[] = [];
  let nowMs = 1_000;
  return {
    fatal,
    open: () =>
      startEngineNode({
        nodeId,
        kernel: fakeKernel,
        snapshots: fileSnapshotStore({ directory: "/s", fileSystem: new FaultFileSystem() }),
        jetStream: { servers, stream, replicas: 1 },
        lease: { bucket, ttlMs },
        onFatal: (error) => fatal.push(error),
        leaseNow,
        now: () => (nowMs += 1),
        snapshotEvery: 0,
        clockTickMs: 0,
      }),
  };
}

type Submit = Unstamped<FakeCommand>;
const deposit = (id: string, account: string, amount: string): Submit => ({
  type: "deposit",
  id,
  account,
  amount,
});
const transfer = (id: string, source: string, target: string, amount: string): Submit => ({
  type: "transfer",
  id,
  source,
  target,
  amount,
});

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("leader lease on a JetStream key-value bucket", () => {
  it("is held by one node at a time, renewed by its holder, and lapses after its TTL", async () => {
    const { bucket } = names();
    const first = await LeaderLease.open({ servers, bucket, nodeId: "a", ttlMs });
    const second = await LeaderLease.open({ servers, bucket, nodeId: "b", ttlMs });
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    expect((await second.holder())?.nodeId).toBe("a");
    await new Promise((resolve) => setTimeout(resolve, ttlMs / 2));
    expect(await first.renew()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, ttlMs / 2 + 100));
    // Renewed half a TTL ago: still a's.
    expect(await second.acquire()).toBe(false);
    // a stops renewing: the bucket drops the lease and b takes it.
    const start = Date.now();
    while (!(await second.acquire())) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Date.now() - start).toBeLessThan(ttlMs * 4);
    expect(first.held).toBe(false);
    expect(await first.renew()).toBe(false);
    expect((await first.holder())?.nodeId).toBe("b");
    await first.close();
    await second.close();
  });
});

describe("engine nodes: leader and hot standby", () => {
  it("the standby applies every record the leader appends and reaches the same state hash", async () => {
    const { stream, bucket } = names();
    const a = node("a", stream, bucket);
    const b = node("b", stream, bucket);
    const leader = await a.open();
    expect(leader.role).toBe("leader");
    await leader.engine.submit(deposit("d0", "alice", "1000"));
    const standby = await b.open();
    expect(standby.role).toBe("standby");
    await expect(standby.engine.submit(deposit("x", "bob", "1"))).rejects.toThrow(NotLeaderError);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        leader.engine.submit(transfer(`t${i}`, "alice", `user${i % 5}`, String(i + 1))),
      ),
    );
    await until(() => standby.engine.sequence === leader.engine.sequence);
    expect(standby.engine.sequence).toBe(51n);
    expect(standby.engine.stateHash()).toBe(leader.engine.stateHash());
    // A main thread busy for longer than the lease lives does not depose the leader: the lease
    // is renewed on a thread of its own.
    const busyUntil = Date.now() + ttlMs * 1.5;
    while (Date.now() < busyUntil) {
      // Busy, as when the app is built after a takeover.
    }
    await new Promise((resolve) => setTimeout(resolve, ttlMs));
    expect(a.fatal.map(String)).toEqual([]);
    expect(standby.role).toBe("standby");
    expect((await leader.engine.submit(deposit("d1", "bob", "1"))).sequence).toBe(52n);
    await until(() => standby.engine.sequence === 52n);
    expect(standby.engine.stateHash()).toBe(leader.engine.stateHash());
    await standby.close();
    await leader.close();
    expect([...a.fatal, ...b.fatal]).toEqual([]);
  });

  it("fails over: the paused leader's lease lapses, the standby leads with nothing acknowledged lost, and the old leader cannot append", async () => {
    const { stream, bucket } = names();
    const a = node("a", stream, bucket);
    const b = node("b", stream, bucket);
    const old = await a.open();
    const standby = await b.open();
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      await old.engine.submit(deposit(`d${i}`, `user${i % 3}`, "10"));
      acknowledged.push(`d${i}`);
    }
    const hashBefore = old.engine.stateHash();
    // As if SIGSTOPped: no more renewals. The standby takes over after the TTL.
    old.pauseLease();
    const start = Date.now();
    await standby.leading;
    expect(Date.now() - start).toBeLessThan(ttlMs * 5);
    expect(standby.role).toBe("leader");
    expect(standby.engine.sequence).toBe(20n);
    expect(standby.engine.stateHash()).toBe(hashBefore);
    // A retried id is answered as a duplicate by the new leader: not applied twice.
    const retried = await standby.engine.submit(deposit("d19", "user1", "10"));
    expect(retried.duplicate).toBe(true);
    const next = await standby.engine.submit(deposit("after", "user0", "5"));
    expect(next.sequence).toBe(22n);
    // The old leader wakes up: its append is refused and it stops.
    await expect(old.engine.submit(deposit("stale", "user0", "1"))).rejects.toThrow();
    expect(a.fatal).toHaveLength(1);
    expect(standby.engine.query((state) => state.balances.get("user0"))).toBe(75n);
    await old.close();
    await standby.close();
    expect(b.fatal).toEqual([]);
  });

  it("fencing by the stream alone: a stale writer that still believes it leads is refused", async () => {
    const { stream, bucket } = names();
    // The old node's clock stands still (a paused VM): it believes its lease is still valid.
    const a = node("a", stream, bucket, () => 0);
    const b = node("b", stream, bucket);
    const old = await a.open();
    await old.engine.submit(deposit("d1", "alice", "1"));
    const standby = await b.open();
    old.pauseLease();
    await standby.leading;
    await standby.engine.submit(deposit("d2", "alice", "1"));
    // Whatever the old node believes about its lease, the stream has moved past it.
    await expect(old.engine.submit(deposit("d3", "alice", "1"))).rejects.toThrow(
      /deposed|wrong last sequence/i,
    );
    expect(a.fatal).toHaveLength(1);
    expect(standby.engine.sequence).toBe(2n);
    await old.close();
    await standby.close();
  });
});
