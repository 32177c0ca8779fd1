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
  return state.events.slice(0, state.eventCount);
}
