import { connect, type NatsConnection } from "nats";
import { afterAll, describe, expect, it } from "vitest";
import type { SessionChange } from "../modules/auth/sessions.ts";
import { connectSessionBus, natsSessionBus, sessionsSubject } from "./session-bus.ts";

// The machine's NATS (issue 25): a subject prefix per run, so parallel runs never meet.
const servers = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const prefix = `candor_sessions_test_${process.pid}_${Date.now()}`;
const connections: NatsConnection[] = [];

afterAll(async () => {
  for (const open of connections) await open.close().catch(() => undefined);
});

async function until(check: () => boolean, what: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("session bus on NATS core", () => {
  it("carries revocations and mode switches between nodes, with the sender's node id", async () => {
    const nodeA = await connectSessionBus(servers, prefix, { nodeName: "node-a" });
    const nodeB = await connectSessionBus(servers, prefix, { nodeName: "node-a" });
    // Same name, different ids: two processes misconfigured alike still tell themselves apart.
    expect(nodeA.nodeId).not.toBe(nodeB.nodeId);
    expect(nodeA.nodeId).toMatch(/^node-a-[0-9a-f]{8}$/);
    const heardOnB: [SessionChange, string][] = [];
    const heardOnA: [SessionChange, string][] = [];
    nodeB.subscribe((change, nodeId) => heardOnB.push([change, nodeId]));
    nodeA.subscribe((change, nodeId) => heardOnA.push([change, nodeId]));
    // A subscription is in place once the server has seen it: flush both connections' writes.
    await new Promise((resolve) => setTimeout(resolve, 100));

    nodeA.publish({ kind: "revoke", userId: 12_345_678_901_234_567n, tokenHash: "ab".repeat(32) });
    nodeA.publish({ kind: "revoke", userId: 7n });
    nodeA.publish({ kind: "mode", userId: 7n, tokenHash: "cd".repeat(32) });
    // An operator's sign-out: a session token hash, no user.
    nodeA.publish({ kind: "operator_revoke", tokenHash: "ef".repeat(32) });
    await until(() => heardOnB.length === 4 && heardOnA.length === 4, "four messages on both");
    expect(heardOnB).toEqual([
      [
        { kind: "revoke", userId: 12_345_678_901_234_567n, tokenHash: "ab".repeat(32) },
        nodeA.nodeId,
      ],
      [{ kind: "revoke", userId: 7n }, nodeA.nodeId],
      [{ kind: "mode", userId: 7n, tokenHash: "cd".repeat(32) }, nodeA.nodeId],
      [{ kind: "operator_revoke", tokenHash: "ef".repeat(32) }, nodeA.nodeId],
    ]);
    // NATS echoes a node's own messages: they carry its id, and `Sessions` drops them.
    expect(heardOnA.map(([, nodeId]) => nodeId)).toEqual([
      nodeA.nodeId,
      nodeA.nodeId,
      nodeA.nodeId,
      nodeA.nodeId,
    ]);

    await nodeA.stop();
    await nodeB.stop();
    // Publishing after stop fails quietly (the caches' 3 s bound is the fallback).
    expect(() => nodeA.publish({ kind: "revoke", userId: 1n })).not.toThrow();
  });

  it("drops malformed messages and survives a failing listener", async () => {
    const connection = await connect({ servers });
    connections.push(connection);
    const errors: string[] = [];
    const logger = {
      info() {},
      warn() {},
      error: (_object: object, message?: string) => errors.push(message ?? ""),
    };
    const bus = natsSessionBus({
      connection,
      subject: sessionsSubject(`${prefix}_b`),
      nodeId: "b",
      logger,
    });
    const heard: SessionChange[] = [];
    bus.subscribe(() => {
      throw new Error("listener bug");
    });
    bus.subscribe((change) => heard.push(change));
    const raw = await connect({ servers });
    connections.push(raw);
    await connection.flush();
    const subject = sessionsSubject(`${prefix}_b`);
    for (const payload of [
      "not json",
      "null",
      JSON.stringify({ nodeId: "x", kind: "revoke", userId: "-1" }),
      JSON.stringify({ nodeId: "x", kind: "mode", userId: "1" }), // A mode switch names its session.
      JSON.stringify({ nodeId: "x", kind: "delete", userId: "1" }),
      JSON.stringify({ nodeId: "x", kind: "revoke", userId: "1", tokenHash: 5 }),
      JSON.stringify({ nodeId: "x", kind: "operator_revoke" }), // Names the session it ends.
      JSON.stringify({ nodeId: "x", kind: "operator_revoke", userId: "1", tokenHash: "ab" }),
      JSON.stringify({ nodeId: "x", kind: "revoke", userId: "42" }),
    ]) {
      raw.publish(subject, new TextEncoder().encode(payload));
    }
    await until(() => heard.length === 1, "the one well-formed message");
    expect(heard).toEqual([{ kind: "revoke", userId: 42n }]);
    expect(errors.filter((e) => e.includes("malformed"))).toHaveLength(8);
    expect(errors.filter((e) => e.includes("listener failed"))).toHaveLength(1);
    await bus.stop();
  });
});
