import { afterAll, describe, expect, it } from "vitest";
import { clusterFixture } from "./cluster-fixture.ts";
import { failoverStats, runCrashTest } from "./crash.ts";

// Issue 25: the bank workload of the crash test against two engine nodes (leader + hot
// standby) on a JetStream journal with a leader lease, PostgreSQL for sessions and read
// models. A stream, a lease bucket and a schema of its own, deleted afterwards.
const url = process.env.DATABASE_URL;
const cluster = clusterFixture("failover");
const { schema, stream, bucket } = cluster;
/**
 * Leader kills (round 1 pauses it instead); each round starts a new standby process. Two by
 * default, a kill and the pause: repeated kills under load are tests/cluster.test.ts's.
 */
const rounds = Number(process.env.FAILOVER_ROUNDS ?? 2);

describe.skipIf(!url)("failover [postgres + JetStream]", () => {
  afterAll(() => cluster.tearDown());
  it("bank workload while the leader is killed (once paused): nothing acknowledged lost or doubled, assets conserved, the standby takes over at the leader's state hash, the paused leader cannot append", async () => {
    await runCrashTest(
      { kind: "failover", url: url!, schema, stream, bucket },
      rounds,
      cluster.processes,
    );
    // The paused leader woke up deposed and stopped (exit 70) instead of appending.
    expect(failoverStats.pausedExitCode).toBe(70);
    console.log(`failover: kill → new leader serving, ms: ${failoverStats.takeoverMs.join(", ")}`);
  }, 300_000);
});
