// The operator funds the labelled market maker's REAL contract wallet (type code 42). Real
// perpetual quotes need margin; a user-style `transfer_wallet` by a system owner stays refused in
// real mode (journals hold such refusals and must replay to them), so the operator moves the
// market maker's own operator-funded spot inventory (`credit_deposit` → its real fund wallet)
// into its contract wallet by this separate, journaled command, naming the operator, a reference
// and a reason on the posting. No money is created: it is one balanced posting between two
// accounts of `system:market_maker`.

import { accountOf, availableOf, systemOwner } from "../ledger/accounts.ts";
import { amountCode, post } from "../ledger/post.ts";
import type { Handler } from "../module.ts";
import { fail } from "../reject-codes.ts";
import { ok } from "../results.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type CommandBase } from "../types.ts";

/**
 * Moves `amount` of `assetId` from the market maker's real fund wallet (only ever credited by
 * operator deposits and its own trading) to its real contract wallet. Refused when the fund
 * wallet's available balance is short, when the asset is not a perpetual's quote asset, or
 * without a reference and a reason.
 */
export interface FundPerpMarketMakerCommand extends CommandBase {
  type: "fund_perp_market_maker";
  assetId: string;
  amount: bigint;
  /** The operator's reference (the funding deposit, a ticket), on the posting. */
  reference: string;
  /** Why the operator moves it (audit), journaled with the command. */
  reason: string;
  operatorId: string | null;
}

declare module "../types.ts" {
  interface CommandMap {
    fund_perp_market_maker: FundPerpMarketMakerCommand;
  }
  interface ResultMap {
    fund_perp_market_maker: { postingSeq: number };
  }
}

export const fundPerpMarketMakerCodec = {
  typeCode: 42,
  fields: [
    ["assetId", "string"],
    ["amount", "bigint"],
    ["reference", "string"],
    ["reason", "string"],
    ["operatorId", "string?"],
  ],
  result: ["postingSeq"],
} as const;

function isPerpQuoteAsset(state: KernelState, assetId: string): boolean {
  for (const market of state.perp.markets.values()) {
    if (market.params.quoteAssetId === assetId) return true;
  }
  return false;
}

export const fundPerpMarketMaker: Handler<"fund_perp_market_maker"> = (state, command) => {
  const asset = state.reference.assets.get(command.assetId);
  if (asset === undefined || !isPerpQuoteAsset(state, command.assetId)) {
    return fail("asset_not_found");
  }
  const code = amountCode(asset, command.amount);
  if (code !== null) return fail(code);
  if (command.reference.trim().length === 0 || command.reason.trim().length === 0) {
    return fail("reference_missing");
  }
  const owner = systemOwner(state, "real", systemOwners.marketMaker);
  if (availableOf(owner, "fund", asset.assetId) < command.amount) {
    return fail("insufficient_balance");
  }
  const source = accountOf(state, owner, "fund", asset.assetId);
  for (const module of state.modules) {
    const refused = module.outflowCode?.(state, source, command.amount) ?? null;
    if (refused !== null) return fail(refused);
  }
  const postingSeq = post(state, {
    debit: source,
    credit: accountOf(state, owner, "contract", asset.assetId),
    amount: command.amount,
    reason: "transfer_wallet",
    refs: { operatorId: command.operatorId, reference: command.reference },
  });
  for (const module of state.modules) module.afterOutflow?.(state, source);
  return ok({ postingSeq });
};
