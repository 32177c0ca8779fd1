import { useQuery } from "@tanstack/react-query";
import { callEndpoint } from "../../../lib/api-client.ts";
import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints of crypto deposits (contract: chain-deposits.ts). */
export const chainDepositEndpoints = endpointTable({
  depositAddresses: { method: "GET", path: "/api/v1/wallet/deposit-addresses", auth: "user" },
  chainDepositRecords: { method: "GET", path: "/api/v1/wallet/chain-deposits", auth: "user" },
});

export const chainDepositKeys = {
  addresses: ["wallet", "chain-deposits", "addresses"] as const,
  list: ["wallet", "chain-deposits", "list"] as const,
};

export function useDepositAddresses(enabled: boolean) {
  return useQuery({
    queryKey: chainDepositKeys.addresses,
    queryFn: () => callEndpoint(chainDepositEndpoints.depositAddresses),
    enabled,
  });
}

/** Refreshed every few seconds while a deposit is confirming. */
export function useChainDeposits(enabled: boolean) {
  return useQuery({
    queryKey: chainDepositKeys.list,
    queryFn: () => callEndpoint(chainDepositEndpoints.chainDepositRecords, { query: {} }),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => d.state === "confirming") ? 3_000 : 15_000,
  });
}
