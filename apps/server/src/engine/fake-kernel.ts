import { createHash } from "node:crypto";
import type { KernelPort } from "./engine.ts";

/**
 * A tiny double-entry ledger with the kernel's shape (ids, duplicates, snapshots, state hash),
 * for engine and crash tests that must not depend on the real kernel's rules.
 */
export type FakeCommand =
  | { type: "deposit"; id: string; atMs: number; account: string; amount: string }
  | { type: "transfer"; id: string; atMs: number; source: string; target: string; amount: string }
  | { type: "clock_tick"; id: string; atMs: number };

export type FakeResult = { ok: true } | { ok: false; code: string };
export type FakeEvent = { type: "posting"; debit: string; credit: string; amount: bigint };

export interface FakeState {
  balances: Map<string, bigint>;
  commands: Map<string, { fingerprint: string; result: FakeResult; atMs: number }>;
  nowMs: number;
}

// Like the real kernel, `atMs` is part of a command's content.
const fingerprint = (command: FakeCommand) => JSON.stringify(command);

export const fakeKernel: KernelPort<FakeState, FakeCommand, FakeResult, FakeEvent> = {
  createState: () => ({ balances: new Map(), commands: new Map(), nowMs: 0 }),
  apply(state, command) {
    const seen = state.commands.get(command.id);
    if (seen) {
      const same = seen.fingerprint === fingerprint(command);
      return {
        result: same ? seen.result : { ok: false, code: "command_id_reused" },
        events: [],
        duplicate: same,
      };
    }
    if (command.atMs < state.nowMs) throw new Error("time went backwards");
    state.nowMs = command.atMs;
    const events: FakeEvent[] = [];
    let result: FakeResult = { ok: true };
    const move = (debit: string, credit: string, amount: bigint) => {
      state.balances.set(debit, (state.balances.get(debit) ?? 0n) - amount);
      state.balances.set(credit, (state.balances.get(credit) ?? 0n) + amount);
      events.push({ type: "posting", debit, credit, amount });
    };
    if (command.type === "deposit") {
      move("world", command.account, BigInt(command.amount));
    } else if (command.type === "transfer") {
      const amount = BigInt(command.amount);
      if ((state.balances.get(command.source) ?? 0n) < amount) {
        result = { ok: false, code: "insufficient_balance" };
      } else {
        move(command.source, command.target, amount);
      }
    }
    state.commands.set(command.id, {
      fingerprint: fingerprint(command),
      result,
      atMs: command.atMs,
    });
    return { result, events, duplicate: false };
  },
  encodeCommand: (command) => Buffer.from(JSON.stringify(command)),
  decodeCommand: (bytes) => JSON.parse(Buffer.from(bytes).toString()) as FakeCommand,
  snapshot: (state) =>
    Buffer.from(
      JSON.stringify({
        balances: [...state.balances].map(([k, v]) => [k, v.toString()]),
        commands: [...state.commands],
        nowMs: state.nowMs,
      }),
    ),
  restore(bytes) {
    const parsed = JSON.parse(Buffer.from(bytes).toString()) as {
      balances: [string, string][];
      commands: [string, { fingerprint: string; result: FakeResult; atMs: number }][];
      nowMs: number;
    };
    return {
      balances: new Map(parsed.balances.map(([k, v]) => [k, BigInt(v)])),
      commands: new Map(parsed.commands),
      nowMs: parsed.nowMs,
    };
  },
  stateHash(state) {
    const balances = [...state.balances].sort(([a], [b]) => (a < b ? -1 : 1));
    const ids = [...state.commands.keys()].sort();
    return createHash("sha256")
      .update(JSON.stringify([balances.map(([k, v]) => [k, v.toString()]), ids, state.nowMs]))
      .digest("hex");
  },
  checkInvariants(state) {
    let total = 0n;
    for (const value of state.balances.values()) total += value;
    if (total !== 0n) throw new Error(`ledger does not balance: ${total}`);
    for (const [account, value] of state.balances) {
      if (account !== "world" && value < 0n) throw new Error(`${account} is negative`);
    }
  },
  clockTick: (id, atMs) => ({ type: "clock_tick", id, atMs }),
  rememberedAtMs: (state, id) => state.commands.get(id)?.atMs,
};
