import type { KernelState } from "@candor/kernel";
import type { Database } from "../db/database.ts";
import { kernelPort } from "../engine/kernel-port.ts";
import type { Journal } from "../journal/journal.ts";
import {
  clearReadModels,
  compareBalances,
  ReadModelProjector,
  type BalanceDifference,
} from "./projector.ts";

/** Every account's total (available + held) as the kernel holds it. */
export function kernelTotals(state: KernelState): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const [key, account] of state.ledger.accounts)
    totals.set(key, account.available + account.held);
  return totals;
}

/** Checks the read models' statement totals against a kernel state. */
export function checkReadModels(database: Database, state: KernelState) {
  const totals = kernelTotals(state);
  const nonZero = [...totals].filter(([, total]) => total !== 0n).map(([key]) => key);
  return compareBalances(database, (account) => totals.get(account) ?? 0n, nonZero);
}

/**
 * Recreates every read model from the journal: empties them, replays all records through a
 * fresh kernel with the projector attached, then compares balances with the kernel's.
 */
export async function rebuildReadModels(
  database: Database,
  journal: Journal,
): Promise<{ sequence: bigint; stateHash: string; differences: BalanceDifference[] }> {
  await clearReadModels(database);
  const projector = new ReadModelProjector(database, { batchEventsMax: 5_000 });
  await projector.load();
  const state = kernelPort.createState();
  let sequence = 0n;
  for await (const record of journal.read(1n)) {
    const command = kernelPort.decodeCommand(record.payload);
    const step = kernelPort.apply(state, command);
    projector.handle({
      sequence: record.sequence,
      events: step.events,
      command,
      result: step.result,
    });
    sequence = record.sequence;
  }
  await projector.flush();
  if (projector.failed) throw new Error("read models: a batch failed to write; see the log");
  kernelPort.checkInvariants(state);
  return {
    sequence,
    stateHash: kernelPort.stateHash(state),
    differences: await checkReadModels(database, state),
  };
}
