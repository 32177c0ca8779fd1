// Reporting events. Handlers `emit` into a per-kernel scratch array; `apply` hands the caller an
// exact-size copy. (A fresh `[]` per command grew a 17-slot backing store on its first push, and
// truncating a reused array to length 0 frees its backing store in V8, so neither saves.)

import type { KernelState } from "./state.ts";
import type { Event } from "./types.ts";

/** Appends an event of the command being applied. */
export function emit(state: KernelState, event: Event): void {
  state.events[state.eventCount++] = event;
}

/** The command's events so far, oldest first (a fresh array). */
export function emittedEvents(state: KernelState): Event[] {
  const e = state.events;
  // Array literals for the usual counts: allocated inline, cheaper than a `slice` call.
  switch (state.eventCount) {
    case 1:
      return [e[0]!];
    case 2:
      return [e[0]!, e[1]!];
    case 3:
      return [e[0]!, e[1]!, e[2]!];
    case 4:
      return [e[0]!, e[1]!, e[2]!, e[3]!];
    default:
      return e.slice(0, state.eventCount);
  }
}
