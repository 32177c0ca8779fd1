import {
  broadcastWithdrawal,
  chainDepositRecords,
  depositAddresses,
  localChainMint,
} from "@candor/contract";
import type { Hex } from "viem";
import type { FastifyPluginAsync } from "fastify";
import { AppError } from "../../http/app-error.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf, touchesUser } from "../../http/operator-audit.ts";
import type { ChainDeposits } from "./chain-deposits.ts";
import type { ChainWithdrawals } from "./chain-withdrawals.ts";
import type { LocalChain } from "./local/local-chain.ts";

const minute = 60_000;

export interface ChainModuleOptions {
  /** Unset: this deployment watches no chain (the address list is empty). */
  deposits?: ChainDeposits;
  /** How often the watcher reads the chains, ms (CHAIN_POLL_MS, default 4,000); 0: never by itself. */
  pollMs?: number;
  onDeposits?: (deposits: ChainDeposits) => void;
  /** The in-process chain (CHAIN_MODE=local): enables the operator's test-token faucet. */
  localChain?: LocalChain;
  /** On-chain payouts and their completion (with the deposits). */
  payouts?: ChainWithdrawals;
  onPayouts?: (payouts: ChainWithdrawals) => void;
}

/** `/api/v1/wallet/deposit-addresses` and `/api/v1/wallet/chain-deposits`, and the watcher. */
export const chainModule: FastifyPluginAsync<ChainModuleOptions> = async (app, options) => {
  const deposits = options.deposits;
  if (deposits) options.onDeposits?.(deposits);
  const session = (user: AuthUser) => ({
    ownerId: String(user.id),
    mode: user.mode,
    demoOnly: user.demoOnly,
  });
  defineRoute(app, depositAddresses, { perUser: { max: 120, windowMs: minute } }, ({ user }) => {
    if (!deposits) {
      if (user.demoOnly || user.mode === "demo") return demoRefusal();
      return Promise.resolve({ items: [] });
    }
    return deposits.addresses(session(user));
  });
  defineRoute(
    app,
    chainDepositRecords,
    { perUser: { max: 600, windowMs: minute } },
    ({ user, query }) => {
      if (!deposits) {
        if (user.demoOnly || user.mode === "demo") return demoRefusal();
        return Promise.resolve({ items: [] });
      }
      return deposits.list(session(user), query.limit);
    },
  );
  const payouts = options.payouts;
  if (payouts) options.onPayouts?.(payouts);
  defineRoute(app, broadcastWithdrawal, { bodyBytes: 2_048 }, async ({ params, request }) => {
    if (!payouts?.canSign) throw new AppError("withdraw_not_supported");
    const view = (await payouts.broadcast(params.withdrawalId, operatorIdOf(request))) as {
      userId?: string;
    };
    if (view.userId) touchesUser(request, view.userId);
    return view as never;
  });
  const local = options.localChain;
  if (local) {
    defineRoute(app, localChainMint, { bodyBytes: 512 }, async ({ body }) => ({
      txHash: await local.mint(body.address.toLowerCase() as Hex, BigInt(body.amount) * 10n ** 6n),
    }));
  }
  const pollMs = options.pollMs ?? 4_000;
  if (deposits && pollMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const loop = () => {
      timer = setTimeout(() => {
        deposits
          .pollAll()
          .then(() => payouts?.pollSent())
          .catch((error: unknown) => app.log.warn({ err: error }, "chain watcher round failed"))
          .finally(() => {
            if (!stopped) loop();
          });
      }, pollMs);
    };
    app.addHook("onReady", async () => loop());
    app.addHook("onClose", async () => {
      stopped = true;
      clearTimeout(timer);
    });
  }
};

function demoRefusal(): Promise<never> {
  return Promise.reject(new AppError("demo_deposit_not_allowed"));
}
