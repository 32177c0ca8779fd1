// Queries of the seconds product: what the server reads to answer requests.

import { contractView } from "./contracts.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import type { SecondsContractView, SecondsProductView } from "./types.ts";

/** Every configured product, by instrument then period. */
export function getSecondsProducts(state: KernelState): SecondsProductView[] {
  return [...state.seconds.products.values()]
    .map((p) => ({ ...p }))
    .sort((a, b) =>
      a.instrumentId === b.instrumentId
        ? a.periodMs - b.periodMs
        : a.instrumentId < b.instrumentId
          ? -1
          : 1,
    );
}

/** An open contract by id, or undefined (settled contracts leave the kernel). */
export function getSecondsOpenContract(
  state: KernelState,
  contractId: string,
): SecondsContractView | undefined {
  const contract = state.seconds.open.get(contractId);
  return contract === undefined ? undefined : contractView(contract);
}

/** An owner's open contracts in one mode, newest first. */
export function getSecondsOpenContracts(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): SecondsContractView[] {
  const out: SecondsContractView[] = [];
  for (const contract of state.seconds.open.values()) {
    if (contract.ownerId === ownerId && contract.mode === mode) out.push(contractView(contract));
  }
  return out.reverse();
}
