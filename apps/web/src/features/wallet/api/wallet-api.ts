import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { callEndpoint } from "../../../lib/api-client.ts";
import { walletEndpoints } from "./endpoints.ts";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";

/*
 * The fund wallet (contract: packages/contract/src/spot.ts, "Funds"): balances per asset, the
 * statement of postings, and demo funds.
 */

/** Every query key of the wallet. */
export const walletKeys = {
  all: ["wallet"] as const,
  balances: () => [...walletKeys.all, "balances"] as const,
  statement: () => [...walletKeys.all, "statement"] as const,
};

/** Demo money a tap on "Get demo funds" asks for (the server caps grants). */
export const demoGrantAmount = "10000";

/** GET /api/v1/spot/balances: available, held and total per asset, in the session's mode. */
export function fetchBalances() {
  return callEndpoint(walletEndpoints.spotBalances);
}

/** GET /api/v1/spot/statement: postings as lines, newest first, paged by cursor. */
export function fetchStatement(input: { asset?: string; cursor?: string; limit?: number }) {
  return callEndpoint(walletEndpoints.spotStatement, { query: input });
}

/** The fund balances of the session's mode; `refetchIntervalMs` while a screen trades on them. */
export function useBalances(options: { enabled?: boolean; refetchIntervalMs?: number } = {}) {
  return useQuery({
    queryKey: walletKeys.balances(),
    queryFn: fetchBalances,
    enabled: options.enabled ?? true,
    ...(options.refetchIntervalMs === undefined
      ? {}
      : { refetchInterval: options.refetchIntervalMs }),
  });
}

/** Marks the balances stale, so every screen showing them loads them again. */
export function useRefreshBalances(): () => void {
  const queryClient = useQueryClient();
  return useCallback(
    () => void queryClient.invalidateQueries({ queryKey: walletKeys.balances() }),
    [queryClient],
  );
}

/** Asks the demo faucet for demo money (demo mode only), with the usual wait and result toasts. */
export function useGrantDemoFunds(): (asset: string) => Promise<void> {
  const refreshBalances = useRefreshBalances();
  return useCallback(
    async (asset: string) => {
      try {
        await withLoading(
          callEndpoint(walletEndpoints.grantDemoFunds, {
            body: { requestId: newIdempotencyKey(), asset, amount: demoGrantAmount },
          }),
        );
        showSuccess();
      } catch (error) {
        showError(error);
      }
      refreshBalances();
    },
    [refreshBalances],
  );
}
