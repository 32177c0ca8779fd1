// The server's native UTF-8 and SHA-256 must give exactly the kernel's bytes, commands and
// hashes: the state hash is compared across machines and with the browser's kernel.
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  apply,
  createKernelState,
  decodeCommand,
  encodeCommand,
  snapshot,
  stateHash,
  type Command,
} from "@candor/kernel";
import { createOrderBook } from "@candor/kernel/book/order-book";
import { describe, expect, it } from "vitest";
import {
  decodeCommandNative,
  encodeCommandNative,
  kernelPort,
  snapshotNative,
  stateHashNative,
} from "./kernel-port.ts";

const fixture = path.join(
  import.meta.dirname,
  "../../../../packages/kernel/fixtures/journal-2026-11-24.jsonl",
);

describe("kernel port: native UTF-8 and SHA-256", () => {
  it("decodes, snapshots and hashes the compatibility journal exactly as the kernel does", () => {
    const lines = readFileSync(fixture, "utf8").split("\n").filter(Boolean);
    const state = createKernelState({}, createOrderBook);
    for (const [index, line] of lines.entries()) {
      const bytes = Buffer.from(line, "utf8");
      const command: Command = decodeCommandNative(bytes);
      expect(command).toEqual(decodeCommand(bytes));
      expect(
        Buffer.from(encodeCommandNative(command)).equals(Buffer.from(encodeCommand(command))),
      ).toBe(true);
      apply(state, command);
      if (index % 500 === 0 || index === lines.length - 1) {
        expect(Buffer.from(snapshotNative(state)).equals(Buffer.from(snapshot(state)))).toBe(true);
        expect(stateHashNative(state)).toBe(stateHash(state));
      }
    }
  });

  it("rejects invalid UTF-8 like the kernel's decoder", () => {
    const bytes = Buffer.from([0x5b, 0x22, 0xc3, 0x28, 0x22, 0x5d]);
    expect(() => decodeCommand(bytes)).toThrow();
    expect(() => decodeCommandNative(bytes)).toThrow();
  });

  it("hashes non-ASCII text and lone surrogates to the kernel's bytes", () => {
    const state = createKernelState({}, createOrderBook);
    const command = {
      type: "open_accounts",
      id: "Überweisung-\ud800-名前-\udfff",
      atMs: 1,
      ownerId: "100001",
      mode: "real",
    } as Command;
    expect(
      Buffer.from(encodeCommandNative(command)).equals(Buffer.from(encodeCommand(command))),
    ).toBe(true);
    expect(() => encodeCommandNative({ ...command, ownerId: 5 } as unknown as Command)).toThrow(
      /malformed command/,
    );
    expect(() => encodeCommand({ ...command, ownerId: 5 } as unknown as Command)).toThrow(
      /malformed command/,
    );
    apply(state, command);
    expect(Buffer.from(snapshotNative(state)).equals(Buffer.from(snapshot(state)))).toBe(true);
    expect(stateHashNative(state)).toBe(stateHash(state));
  });

  it("a quiet replay reaches the same results, answers and state hash without balance views", () => {
    const lines = readFileSync(fixture, "utf8").split("\n").filter(Boolean);
    const loud = kernelPort.createState();
    const quiet = kernelPort.createState();
    let views = 0;
    for (const line of lines) {
      const command = decodeCommandNative(Buffer.from(line, "utf8"));
      const a = kernelPort.apply(loud, command);
      const b = kernelPort.applyQuiet!(quiet, command);
      expect(b.result).toEqual(a.result);
      expect(b.duplicate).toBe(a.duplicate);
      expect(b.events).toEqual(a.events.filter((e) => e.type !== "balances_changed"));
      views += a.events.length - b.events.length;
      // What the engine keeps to answer a retry is the same.
      expect(kernelPort.answerEvents!(command, b.result, b.events)).toEqual(
        kernelPort.answerEvents!(command, a.result, a.events),
      );
    }
    expect(views).toBeGreaterThan(0);
    expect(stateHashNative(quiet)).toBe(stateHashNative(loud));
  });
});
