import { randomBytes } from "node:crypto";
import { connect } from "nats";
import { afterAll, describe, expect, it } from "vitest";
import { dropSchema } from "../apps/server/src/testing/databases.ts";
import { failoverStats, runCrashTest } from "./crash.ts";

// Issue 25: the bank workload of the crash test against two engine nodes (leader + hot
// standby) on a JetStream journal with a leader lease, PostgreSQL for sessions and read
// models. A stream, a lease bucket and a schema of its own, deleted afterwards.
const url = process.env.DATABASE_URL;
const servers = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const suffix = randomBytes(6).toString("hex");
const schema = `failover_${suffix}`;
const stream = `CANDOR_FAILOVER_${suffix}`;
const bucket = `CANDOR_FAILOVER_LEASE_${suffix}`;
/** Leader kills (round 1 pauses it instead); each round starts a new standby process. */
const rounds = Number(process.env.FAILOVER_ROUNDS ?? 3);

describe.skipIf(!url)("failover [postgres + JetStream]", () => {
  afterAll(async () => {
    await dropSchema(schema);
    const connection = await connect({ servers });
    const manager = await connection.jetstreamManager();
    await manager.streams.delete(stream).catch(() => false);
    await manager.streams.delete(`KV_${bucket}`).catch(() => false);
    await connection.close();
  });
  it("bank workload while the leader is killed (once paused): nothing acknowledged lost or doubled, assets conserved, the standby takes over at the leader's state hash, the paused leader cannot append", async () => {
    await runCrashTest({ kind: "failover", url: url!, schema, stream, bucket }, rounds);
    // The paused leader woke up deposed and stopped (exit 70) instead of appending.
    expect(failoverStats.pausedExitCode).toBe(70);
    console.log(`failover: kill → new leader serving, ms: ${failoverStats.takeoverMs.join(", ")}`);
  }, 300_000);
});
