// The compatibility promise: a journal written by the kernel of 2026-11-24 replays on this
// kernel to the same results, events and state hashes. The fixture was written once by
// `fixtures/make-journal-fixture.ts` and is never regenerated.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventsJson, resultTuple } from "../../fixtures/journal-fixture-format.ts";
import { createOrderBook } from "../book/order-book.ts";
import { createReferenceBook } from "../book/order-book.reference.ts";
import type { OrderBookFactory } from "../book/types.ts";
import { checkInvariants } from "../invariants.ts";
import { apply, createKernelState, decodeCommand, encodeCommand, stateHash } from "../index.ts";
import { restore, snapshot } from "../snapshot.ts";

const directory = path.join(import.meta.dirname, "../../fixtures");

interface Expected {
  commands: number;
  checkpoints: { index: number; stateHash: string; eventsHash: string }[];
  results: unknown[][];
}

function load(name: string): { lines: string[]; expected: Expected } {
  const text = readFileSync(path.join(directory, `${name}.jsonl`), "utf8");
  const lines = text.split("\n");
  expect(lines.pop()).toBe("");
  const expected = JSON.parse(
    readFileSync(path.join(directory, `${name}.expected.json`), "utf8"),
  ) as Expected;
  return { lines, expected };
}

function replay(name: string, bookFactory: OrderBookFactory): void {
  const { lines, expected } = load(name);
  expect(lines.length).toBe(expected.commands);
  const state = createKernelState({}, bookFactory);
  let events = createHash("sha256");
  let checkpoint = 0;
  let snapshotBytes: Uint8Array | null = null;
  for (let index = 0; index < lines.length; index++) {
    const bytes = new TextEncoder().encode(lines[index]!);
    const command = decodeCommand(bytes);
    // The kernel still writes the very bytes it reads.
    expect(new TextDecoder().decode(encodeCommand(command))).toBe(lines[index]);
    const out = apply(state, command);
    const got = [...resultTuple(out.result), out.duplicate ? 1 : 0, out.events.length];
    if (JSON.stringify(got) !== JSON.stringify(expected.results[index])) {
      expect({ index, line: lines[index], result: got }).toEqual({
        index,
        line: lines[index],
        result: expected.results[index],
      });
    }
    events.update(eventsJson(out.events));
    events.update("\n");
    const mark = expected.checkpoints[checkpoint];
    if (mark !== undefined && mark.index === index) {
      checkInvariants(state);
      expect({ index, stateHash: stateHash(state), eventsHash: events.digest("hex") }).toEqual(
        mark,
      );
      events = createHash("sha256");
      checkpoint++;
      if (checkpoint === 8) snapshotBytes = snapshot(state);
    }
  }
  expect(checkpoint).toBe(expected.checkpoints.length);
  // A snapshot taken midway, restored, plus the rest of the journal gives the same hash.
  const copy = restore(snapshotBytes!, bookFactory);
  for (let index = expected.checkpoints[7]!.index + 1; index < lines.length; index++) {
    apply(copy, decodeCommand(new TextEncoder().encode(lines[index]!)));
  }
  expect(stateHash(copy)).toBe(expected.checkpoints.at(-1)!.stateHash);
}

describe("journal fixture of 2026-11-24", () => {
  it("replays to the same results, events and state hashes (fast book)", () => {
    replay("journal-2026-11-24", createOrderBook);
  });

  it("replays to the same results, events and state hashes (reference book)", () => {
    replay("journal-2026-11-24", createReferenceBook);
  });
});
