import type { CandorEngine } from "./kernel-port.ts";

/**
 * Opens a user's ledger accounts through the journal (`AppDeps.accounts`). Idempotent: a second
 * open is refused by the kernel with `accounts_already_open`, which is success here.
 */
export function engineAccounts(engine: CandorEngine) {
  return {
    async open(userId: bigint, mode: "real" | "demo"): Promise<void> {
      const applied = await engine.submit({
        type: "open_accounts",
        id: `open_accounts:${userId}:${mode}`,
        ownerId: userId.toString(),
        mode,
      });
      if (!applied.result.ok && applied.result.code !== "accounts_already_open") {
        throw new Error(
          `opening ${mode} accounts of user ${userId} failed: ${applied.result.code}`,
        );
      }
    },
  };
}
