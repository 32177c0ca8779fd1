import type { PurchaseSecondsBody, SecondsContractView } from "@candor/contract";
import { callEndpoint } from "../../../lib/api-client.ts";
import { secondsEndpoints } from "./endpoints.ts";

/*
 * Seconds contracts of issue 20 (contract: packages/contract/src/seconds.ts): products with the
 * disclosure, purchases, and the user's contracts.
 */

export const secondsKeys = {
  all: ["seconds"] as const,
  products: (mode: "real" | "demo") => [...secondsKeys.all, "products", mode] as const,
  contractsAll: () => [...secondsKeys.all, "contracts"] as const,
  contracts: (filter: object) => [...secondsKeys.contractsAll(), filter] as const,
  contract: (contractId: string) => [...secondsKeys.all, "contract", contractId] as const,
};

export function fetchSecondsProducts(mode: "real" | "demo") {
  return callEndpoint(secondsEndpoints.secondsProducts, { query: { mode } });
}

export function purchaseSecondsContract(body: PurchaseSecondsBody) {
  return callEndpoint(secondsEndpoints.purchaseSecondsContract, { body });
}

export function fetchSecondsContracts(query: {
  status?: "open" | "settled";
  instrumentId?: string;
  outcome?: "win" | "loss" | "tie" | "no_tick";
  cursor?: string;
  limit?: number;
}) {
  return callEndpoint(secondsEndpoints.secondsContracts, { query });
}

export function fetchSecondsContract(contractId: string) {
  return callEndpoint(secondsEndpoints.secondsContractDetail, { params: { contractId } });
}

/** The route of the public tape's page of one tick. */
export function tickRoute(instrumentId: string, tickId: string): string {
  return `/tape/${encodeURIComponent(instrumentId)}/${encodeURIComponent(tickId)}`;
}

export type { SecondsContractView };
