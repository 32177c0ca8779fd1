// The schedule: a due-time queue that clock_tick works through. Products add entries (funding
// payments, seconds-contract expiry, savings payouts, loan deadlines); when kernel time reaches
// an entry's due time, the next clock_tick hands it to its module's `runScheduled`. Order is
// deterministic: due time, then the order entries were added (`seq`). The queue is part of the
// snapshot and so of the state hash, but only once something was ever scheduled: the states of
// kernels that never scheduled anything hash as they did before the schedule existed.

import { assert } from "./assert.ts";
import type { Handler, Json, KernelModule } from "./module.ts";
import { DONE } from "./results.ts";
import type { KernelState } from "./state.ts";

/** One scheduled entry. */
export interface ScheduledEntry {
  /** Order of scheduling, 1, 2, 3, …: breaks ties between equal due times. */
  seq: number;
  /** Runs at the first clock_tick at or after this kernel time (ms). */
  dueMs: number;
  /** The module that runs it (its `name`). */
  module: string;
  /** What to do, in the module's words (e.g. "expiry"). */
  kind: string;
  /** The module's data for it (ids, amounts as decimal strings): JSON, as snapshots hold it. */
  payload: Json;
}

/** The schedule's slice: `state.schedule`. A binary min-heap on (dueMs, seq). */
export interface ScheduleState {
  heap: ScheduledEntry[];
  /** The next `seq`; 1 while nothing was ever scheduled. */
  seqNext: number;
}

export function createScheduleState(): ScheduleState {
  return { heap: [], seqNext: 1 };
}

function before(a: ScheduledEntry, b: ScheduledEntry): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}

function push(heap: ScheduledEntry[], entry: ScheduledEntry): void {
  heap.push(entry);
  let index = heap.length - 1;
  while (index > 0) {
    const parent = (index - 1) >> 1;
    if (!before(heap[index]!, heap[parent]!)) break;
    [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
    index = parent;
  }
}

function pop(heap: ScheduledEntry[]): ScheduledEntry | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (top === undefined || last === undefined || heap.length === 0) return top;
  heap[0] = last;
  let index = 0;
  for (;;) {
    const left = 2 * index + 1;
    const right = left + 1;
    let smallest = index;
    if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
    if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
    if (smallest === index) break;
    [heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!];
    index = smallest;
  }
  return top;
}

/** Adds an entry; returns its `seq`. */
export function scheduleEntry(
  state: KernelState,
  entry: { dueMs: number; module: string; kind: string; payload: Json },
): number {
  assert(Number.isSafeInteger(entry.dueMs) && entry.dueMs >= 0, "due time must be a time");
  assert(
    state.modules.some((module) => module.name === entry.module && module.runScheduled),
    "scheduled for a module that cannot run it",
  );
  const seq = state.schedule.seqNext++;
  push(state.schedule.heap, { seq, ...entry });
  return seq;
}

/** Removes and returns the earliest entry due at or before `nowMs`, if any. */
export function takeDue(state: KernelState, nowMs: number): ScheduledEntry | undefined {
  const heap = state.schedule.heap;
  const top = heap[0];
  if (top === undefined || top.dueMs > nowMs) return undefined;
  return pop(heap);
}

/** Every entry in run order (for snapshots and queries). */
export function scheduledEntries(state: KernelState): ScheduledEntry[] {
  return [...state.schedule.heap].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}

/** Runs every entry due by now, in order, each by its module; entries added meanwhile too. */
export function runDue(state: KernelState): void {
  for (let entry = takeDue(state, state.nowMs); entry; entry = takeDue(state, state.nowMs)) {
    const module = state.modules.find((candidate) => candidate.name === entry!.module);
    assert(module?.runScheduled !== undefined, "a scheduled entry's module is gone");
    module.runScheduled(state, entry);
  }
}

/**
 * clock_tick: runs the due scheduled entries, then every module's `onClock`. (The idempotency
 * window is pruned by `apply` after every command, completely on a clock tick.)
 */
const clockTick: Handler<"clock_tick"> = (state) => {
  runDue(state);
  for (const module of state.modules) module.onClock?.(state);
  return DONE;
};

/** The kernel's schedule as a module: clock_tick, its slice and snapshot section. */
export const scheduleModule = {
  name: "schedule",
  createState: createScheduleState,
  commands: { clock_tick: { typeCode: 17, fields: [], result: [] } },
  handlers: { clock_tick: clockTick },
  snapshot: {
    write(state) {
      const schedule = state.schedule;
      // Nothing ever scheduled: no field, so such states hash as before the schedule existed.
      if (schedule.seqNext === 1) return { schedule: undefined };
      const entries = scheduledEntries(state).map((e): Json => [
        e.seq,
        e.dueMs,
        e.module,
        e.kind,
        e.payload,
      ]);
      return { schedule: [schedule.seqNext, entries] };
    },
    read(state, json) {
      const section = json.schedule;
      if (section === undefined) return;
      const [seqNext, entries] = section as [number, [number, number, string, string, Json][]];
      for (const [seq, dueMs, module, kind, payload] of entries) {
        push(state.schedule.heap, { seq, dueMs, module, kind, payload });
      }
      state.schedule.seqNext = seqNext;
    },
  },
} satisfies KernelModule;
