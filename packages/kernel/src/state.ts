// The kernel's state: a few fields of the kernel itself, plus one slice per module
// (`state.ledger`, `state.reference`, `state.spot`, …). Only the kernel's own modules touch
// these records; everyone else reads through the queries in `queries.ts`.

import { createOrderBook } from "./book/order-book.ts";
import type { OrderBookFactory } from "./book/types.ts";
import { CommandMemory } from "./command-memory.ts";
import { openSystemOwners } from "./ledger/accounts.ts";
import type { LedgerState } from "./ledger/state.ts";
import type { KernelModule } from "./module.ts";
import { kernelModules } from "./registry.ts";
import type { ScheduleState } from "./schedule.ts";
import type { Command, Event, KernelOptions } from "./types.ts";

export { accountKey, ownerKey } from "./ledger/state.ts";

/**
 * The modules' slices of state, by module name. Each product adds its own slice by
 * declaration merging in its `module.ts` (`declare module "../state.ts"`).
 */
export interface KernelSlices {
  ledger: LedgerState;
  schedule: ScheduleState;
}

export interface KernelState extends KernelSlices {
  options: KernelOptions;
  /** Makes the books of new markets (the fast book unless a test passes the reference book). */
  bookFactory: OrderBookFactory;
  /** The modules, in registry order: hooks run in this order. */
  modules: readonly KernelModule[];
  /** Kernel time: the latest `atMs` applied. */
  nowMs: number;
  /** Remembered commands and their first results, for idempotency. */
  memory: CommandMemory;
  // Per-command scratch, reset by `apply`.
  /** Serial number of the command being applied. */
  commandSerial: number;
  /** Scratch: the first `eventCount` are the events of the command being applied (see events.ts). */
  events: Event[];
  eventCount: number;
  /** The command being applied, null between commands. */
  command: Command | null;
}

export const defaultKernelOptions: KernelOptions = {
  openOrdersPerOwnerMax: 200,
  openOrdersMarketMakerMax: 100_000,
  levelsPerSideMax: 1_000,
  ordersPerBookMax: 100_000,
  idempotencyWindowMs: 600_000,
  statementPostingsMax: 1_000,
  demoGrants: [{ assetId: "USDT", amount: "100000" }],
};

/**
 * Builds an empty kernel (system accounts exist; no assets, markets or users: those arrive as
 * commands). `options` is a partial `KernelOptions`; the book factory makes every market's
 * books (default: the fast book).
 */
export function createKernelState(
  options: Partial<KernelOptions> = {},
  bookFactory: OrderBookFactory | null = null,
): KernelState {
  const merged: KernelOptions = { ...defaultKernelOptions, ...options };
  merged.demoGrants = merged.demoGrants.map((grant) => ({ ...grant }));
  const state = {
    options: merged,
    bookFactory: bookFactory ?? createOrderBook,
    modules: kernelModules,
    nowMs: 0,
    memory: new CommandMemory(),
    commandSerial: 0,
    events: [],
    eventCount: 0,
    command: null,
  } as unknown as KernelState;
  const slices = state as unknown as Record<string, unknown>;
  for (const module of kernelModules) {
    if (module.createState) slices[module.name] = module.createState(state);
  }
  openSystemOwners(state);
  return state;
}
