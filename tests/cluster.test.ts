import { afterAll, describe, expect, it } from "vitest";
import { clusterFixture } from "./cluster-fixture.ts";
import { failoverStats, runCrashTest } from "./crash.ts";

// Issue 25's cluster test: three API node processes (`ROLE=api`) and two engine nodes (leader
// + hot standby) on PostgreSQL and the machine's NATS JetStream. The crash test's bank workload
// (users, deposits by id, crossing orders, far orders cancelled, unanswered requests retried by
// id, and acknowledged ones re-sent on purpose through another node) goes through the three API
// nodes in turn while the leader is SIGKILLed each round and a fresh standby started. Checked
// (tests/crash.ts): every acknowledged deposit and order applied exactly once, conservation per
// asset, statements and tape agree, the standby takes over at the leader's state hash, each API
// node's follower kernel stopped at the journal's state hash for its sequence, and a WebSocket
// client on each API node received BTC/USDT's public trades exactly as the journal's tape has
// them (no gap, no repeat, in order) through every failover. A stream, a lease bucket, a subject
// prefix and a schema of its own, deleted afterwards. CLUSTER_KILLS sets the number of kills.
const url = process.env.DATABASE_URL;
const cluster = clusterFixture("cluster");
const { schema, stream, bucket, prefix } = cluster;
const kills = Number(process.env.CLUSTER_KILLS ?? 3);

describe.skipIf(!url)("cluster: 3 API nodes, leader + standby [postgres + JetStream]", () => {
  afterAll(() => cluster.tearDown(), 30_000);
  it("bank workload through three API nodes while the leader is SIGKILLed: nothing acknowledged lost or doubled, assets conserved, followers at the leader's state hash, every public trade on every node's WebSocket", async () => {
    await runCrashTest(
      { kind: "cluster", url: url!, schema, stream, bucket, prefix, apiNodes: 3 },
      kills,
      cluster.processes,
    );
    expect(failoverStats.takeoverMs).toHaveLength(kills);
    expect(failoverStats.tradesChecked).toHaveLength(3);
    expect(failoverStats.deliberateRetries).toBeGreaterThan(0);
    console.log(
      `cluster: kill → new leader serving, ms: ${failoverStats.takeoverMs.join(", ")}; ` +
        `public trades checked per API node: ${failoverStats.tradesChecked.join(", ")}; ` +
        `acknowledged commands re-sent through another node: ${failoverStats.deliberateRetries}`,
    );
  }, 480_000);
});
