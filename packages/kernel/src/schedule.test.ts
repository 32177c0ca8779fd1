import { describe, expect, it } from "vitest";
import { apply } from "./apply.ts";
import type { KernelModule } from "./module.ts";
import { runDue, scheduledEntries, scheduleEntry, type ScheduledEntry } from "./schedule.ts";
import { restore, snapshot, stateHash } from "./snapshot.ts";
import { createKernelState, type KernelState } from "./state.ts";

/** A kernel with one extra module that records the entries it runs. */
function kernelWithRecorder(): { state: KernelState; ran: ScheduledEntry[] } {
  const ran: ScheduledEntry[] = [];
  const recorder: KernelModule = {
    name: "recorder",
    runScheduled(_state, entry) {
      ran.push(entry);
    },
  };
  const state = createKernelState();
  state.modules = [...state.modules, recorder];
  return { state, ran };
}

describe("schedule", () => {
  it("runs due entries at clock ticks, by due time and then scheduling order", () => {
    const { state, ran } = kernelWithRecorder();
    const add = (dueMs: number, kind: string) =>
      scheduleEntry(state, { dueMs, module: "recorder", kind, payload: null });
    add(300, "c");
    add(100, "a");
    add(300, "d");
    add(200, "b");
    add(1_000, "later");
    apply(state, { type: "clock_tick", id: "t1", atMs: 50 });
    expect(ran).toEqual([]);
    apply(state, { type: "clock_tick", id: "t2", atMs: 300 });
    expect(ran.map((entry) => entry.kind)).toEqual(["a", "b", "c", "d"]);
    expect(scheduledEntries(state).map((entry) => entry.kind)).toEqual(["later"]);
    // Other commands do not run the schedule; only clock_tick does.
    apply(state, {
      type: "define_asset",
      id: "asset",
      atMs: 2_000,
      assetId: "USDT",
      scale: 6,
      amountMax: null,
    });
    expect(ran).toHaveLength(4);
    runDue(state);
    expect(ran.map((entry) => entry.kind)).toEqual(["a", "b", "c", "d", "later"]);
  });

  it("is part of the snapshot once used, and absent before, so older hashes stay", () => {
    const { state } = kernelWithRecorder();
    const fresh = createKernelState();
    expect(stateHash(state)).toBe(stateHash(fresh));
    expect(new TextDecoder().decode(snapshot(state))).not.toContain("schedule");
    scheduleEntry(state, { dueMs: 500, module: "recorder", kind: "x", payload: ["1", 2] });
    scheduleEntry(state, { dueMs: 400, module: "recorder", kind: "y", payload: { a: "b" } });
    expect(stateHash(state)).not.toBe(stateHash(fresh));
    const copy = restore(snapshot(state));
    expect(stateHash(copy)).toBe(stateHash(state));
    expect(scheduledEntries(copy)).toEqual(scheduledEntries(state));
    // Used once and now empty still differs from never used: the sequence moved on.
    copy.modules = state.modules;
    runDue(Object.assign(copy, { nowMs: 1_000 }));
    expect(scheduledEntries(copy)).toEqual([]);
    expect(stateHash(copy)).not.toBe(stateHash(fresh));
  });

  it("refuses entries for a module that cannot run them", () => {
    const state = createKernelState();
    expect(() =>
      scheduleEntry(state, { dueMs: 1, module: "nobody", kind: "x", payload: null }),
    ).toThrow("scheduled for a module that cannot run it");
  });
});
