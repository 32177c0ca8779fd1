// `apply(state, command)`: the kernel's one entry point for change. It checks the command's id,
// shape, idempotency and time, then dispatches to the handler of its type (see `registry.ts`).
// Handlers validate before they change anything and change balances only through the ledger,
// so a rejection changes nothing; a broken invariant throws.

import { assert } from "./assert.ts";
import { commandShapeCode } from "./command-codec.ts";
import { emittedEvents } from "./events.ts";
import { reportBalances } from "./ledger/module.ts";
import type { Handler } from "./module.ts";
import { fail, type RejectCode } from "./reject-codes.ts";
import { handlers } from "./registry.ts";
import type { KernelState } from "./state.ts";
import type { ApplyOutput, Command, CommandType, Event } from "./types.ts";

/**
 * Handlers by command type. A Map: `handlers[type]` with a different key on every call is a
 * megamorphic keyed lookup, dearer than a Map's (the type strings cache their hash). Only
 * types `commandShapeCode` knows reach it.
 */
const handlerByType = new Map<string, Handler<CommandType>>(
  Object.entries(handlers) as [string, Handler<CommandType>][],
);

/** The events of rejections and duplicates: shared, frozen, empty. */
const NO_EVENTS = Object.freeze([]) as unknown as Event[];

function rejected(code: RejectCode): ApplyOutput<never> {
  return { result: fail(code), events: NO_EVENTS, duplicate: false };
}

function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

/**
 * Applies one command. Mutates `state` in place; deterministic. A repeated id returns the
 * first result with `duplicate: true` and changes nothing. Rejection results and empty event
 * arrays are shared and frozen.
 *
 * `quiet` (a replay nobody subscribes to): the same state, result and events except the closing
 * `balances_changed` view, which only subscribers (read models, streams) read. Live callers
 * leave it false.
 */
export function apply<C extends Command>(
  state: KernelState,
  command: C,
  quiet = false,
): ApplyOutput<C> {
  if (typeof command !== "object" || command === null) return rejected("command_malformed");
  // Commands of every type pass here, so each read of one of their fields is a megamorphic
  // lookup: `id`, `type` and `atMs` are read once and handed on.
  const id = command.id;
  if (typeof id !== "string") return rejected("command_malformed");
  if (id.length === 0 || id.length > 128 || !isPrintableAscii(id)) {
    return rejected("command_id_invalid");
  }
  const type = command.type;
  const shapeCode = commandShapeCode(command, type);
  if (shapeCode !== null) return rejected(shapeCode);
  const memory = state.memory;
  const seen = memory.find(id);
  if (seen !== -1) {
    if (memory.sameContent(seen, command)) {
      return {
        result: memory.result(seen) as ApplyOutput<C>["result"],
        events: NO_EVENTS,
        duplicate: true,
      };
    }
    return rejected("command_id_reused");
  }
  const atMs = command.atMs;
  if (!Number.isSafeInteger(atMs) || atMs < 0) return rejected("timestamp_invalid");
  if (atMs < state.nowMs) return rejected("time_went_backwards");

  state.nowMs = atMs;
  // Forget expired ids a few at a time on every command (a steady index, no bursts), and all
  // of them on a clock tick. Handlers never read the memory, and the command's id is
  // remembered after this, so pruning before the handler or after it gives the same state.
  memory.prune(
    atMs - state.options.idempotencyWindowMs,
    type === "clock_tick" ? Number.MAX_SAFE_INTEGER : 2,
  );
  state.commandSerial++;
  state.command = command;
  state.eventCount = 0;
  state.ledger.touchedCount = 0;
  const handler = handlerByType.get(type)!;
  const result = handler(state, command) as ApplyOutput<C>["result"];
  let events: Event[];
  if (!result.ok) {
    assert(onlyRestorable(state), "a rejection emitted events");
    events = NO_EVENTS;
  } else {
    if (!quiet) reportBalances(state);
    events = emittedEvents(state);
  }
  state.command = null;

  memory.remember(command, result, id, atMs, type);
  return { result, events, duplicate: false };
}

// Rejections must leave no events; `order_accepted` (or `order_replaced`) pushed before a book
// rejection is the only event a rejected command may have produced, and it is dropped.
function onlyRestorable(state: KernelState): boolean {
  for (let i = 0; i < state.eventCount; i++) {
    const type = state.events[i]!.type;
    if (type !== "order_accepted" && type !== "order_replaced") return false;
  }
  return true;
}
