import {
  apply,
  checkInvariants,
  createKernelState,
  decodeCommand,
  encodeCommand,
  restore,
  snapshot,
  stateHash,
  type Command,
  type CommandResult,
  type Event,
  type KernelState,
} from "@candor/kernel";
import { createOrderBook } from "@candor/kernel/book/order-book";
import type { Engine } from "./engine.ts";
import { type Applied, type KernelPort, type Unstamped } from "./engine.ts";

/** The real kernel behind the engine's port: every kernel call the server makes goes here. */
export const kernelPort: KernelPort<KernelState, Command, CommandResult, Event> = {
  // The fast book, named explicitly so the server never depends on a process-wide default.
  createState: () => createKernelState({}, createOrderBook),
  apply,
  encodeCommand,
  decodeCommand,
  snapshot,
  restore: (bytes) => restore(bytes, createOrderBook),
  stateHash,
  checkInvariants,
  clockTick: (id, atMs) => ({ type: "clock_tick", id, atMs }),
  rememberedAtMs,
};

/**
 * Reads the stamp of a remembered command id from the kernel state. The kernel compares `atMs`
 * as part of a command's content, and has no query for this yet, so this reads its idempotency
 * index (both layouts it has had). TODO: replace with a kernel query when it exports one.
 */
function rememberedAtMs(state: KernelState, id: string): number | undefined {
  const internal = state as unknown as {
    idempotency?: Map<string, { command: { atMs: number } }>;
    idPositions?: Map<string, number>;
    idCommands?: { atMs: number }[];
    idBase?: number;
  };
  if (internal.idempotency instanceof Map) return internal.idempotency.get(id)?.command.atMs;
  if (internal.idPositions instanceof Map && internal.idCommands) {
    const position = internal.idPositions.get(id);
    if (position === undefined) return undefined;
    return internal.idCommands[position - (internal.idBase ?? 0)]?.atMs;
  }
  return undefined;
}

/** The server's engine: the kernel's state, commands, results and events. */
export type CandorEngine = Engine<KernelState, Command, CommandResult, Event>;
/** A command as the server submits it (the engine stamps `atMs`). */
export type CandorCommand = Unstamped<Command>;
/** One applied command on the events bus. */
export type CandorApplied = Applied<Command, CommandResult, Event>;
