import type { Command, CommandResult, Event } from "@candor/kernel";
import { connect, type NatsConnection } from "nats";
import { afterAll, describe, expect, it } from "vitest";
import { clusterSubjects, RemoteEngine } from "../apps/server/src/cluster/command-bus.ts";
import type { Applied } from "../apps/server/src/engine/engine.ts";
import type { CandorCommand } from "../apps/server/src/engine/kernel-port.ts";
import { clusterFixture } from "./cluster-fixture.ts";
import { startServer } from "./harness.ts";

// Issue 25, step 3 (command path and fan-out): two engine node processes (leader + hot
// standby, JetStream journal, PostgreSQL) and two forwarding clients standing in for API nodes
// (the `RemoteEngine` an API node uses). Commands through both are acknowledged once, a retry
// by id gets the first answer, both clients see every applied record in journal order, and
// after the leader is SIGKILLed the clients' commands land on the new leader. A stream, a
// lease bucket, a subject prefix and a schema of its own, deleted afterwards.
const url = process.env.DATABASE_URL;
const servers = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const cluster = clusterFixture("forwarding");
const { suffix, prefix, processes } = cluster;

type Record = Applied<Command, CommandResult, Event>;
const connections: NatsConnection[] = [];

describe.skipIf(!url)("command forwarding to the engine leader [postgres + JetStream]", () => {
  afterAll(async () => {
    for (const connection of connections) await connection.close().catch(() => undefined);
    await cluster.tearDown();
  }, 30_000);

  it("acknowledges each command once through two forwarders, fans records out in order, and carries on after the leader is SIGKILLed", async () => {
    const env = cluster.engineEnv(url!);
    const leader = await startServer({ env });
    processes.push(leader);
    const standby = await startServer({ env, standby: true });
    processes.push(standby);

    const forwarder = async () => {
      const connection = await connect({ servers });
      connections.push(connection);
      const remote = new RemoteEngine<Command, CommandResult, Event>({
        connection,
        subjects: clusterSubjects(prefix),
        attemptTimeoutMs: 1_000,
        deadlineMs: 30_000,
      });
      const received: Record[] = [];
      const gaps: unknown[] = [];
      remote.subscribe((applied) => received.push(applied));
      remote.onGap((gap) => gaps.push(gap));
      remote.start();
      await connection.flush();
      return { remote, received, gaps };
    };
    const one = await forwarder();
    const two = await forwarder();
    const open = (ownerId: string): CandorCommand => ({
      type: "open_accounts",
      id: `open_accounts:${ownerId}:real`,
      ownerId,
      mode: "real",
    });

    const before = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? one : two).remote.submit(open(`fwd-${suffix}-${i}`)),
      ),
    );
    expect(before.map((applied) => [applied.duplicate, applied.result.ok])).toEqual(
      before.map(() => [false, true]),
    );
    // The same id again, through the other forwarder: the kernel's duplicate, not a second open.
    const retried = await one.remote.submit(open(`fwd-${suffix}-0`));
    expect(retried.duplicate).toBe(true);
    expect(retried.result).toEqual(before[0]!.result);

    await leader.stop("SIGKILL");
    const killedAt = Date.now();
    const after = await Promise.all([
      one.remote.submit(open(`fwd-${suffix}-after-1`)),
      two.remote.submit(open(`fwd-${suffix}-after-2`)),
      // Retried across the failover: still one application.
      two.remote.submit(open(`fwd-${suffix}-1`)),
    ]);
    console.log(`command forwarding: kill → first acknowledgement ${Date.now() - killedAt} ms`);
    // The retried id is the first application's duplicate. The new ones may be too: an attempt
    // that timed out while the new leader was busy taking over is sent again with the same id,
    // and the leader answers the second copy as a duplicate of the first. Either way: applied
    // once (checked on the fan-out below), and the answer is the first application's.
    expect(after[2]!.duplicate).toBe(true);
    expect(after.every((applied) => applied.result.ok)).toBe(true);
    const lastAcknowledged = after.reduce((max, a) => (a.sequence > max ? a.sequence : max), 0n);

    // Fan-out: every applied record (commands, clock and market ticks), in journal order, from
    // the first each forwarder received, across the kill.
    for (const api of [one, two]) {
      const deadline = Date.now() + 15_000;
      while ((api.received.at(-1)?.sequence ?? 0n) < lastAcknowledged) {
        if (Date.now() > deadline) throw new Error("fan-out did not reach the acknowledged record");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(api.gaps).toEqual([]);
      const sequences = api.received.map((applied) => applied.sequence);
      const first = sequences[0]!;
      expect(sequences).toEqual(sequences.map((_, i) => first + BigInt(i)));
      // Every acknowledged command was applied exactly once.
      for (const applied of [...before, ...after]) {
        const applications = api.received.filter(
          (r) => r.command.id === applied.command.id && !r.duplicate,
        );
        expect(applications.map((r) => r.sequence)).toHaveLength(1);
      }
    }
  }, 90_000);
});
