import type { BalanceUpdateView, SpotBalanceView, StatementLineView } from "@candor/contract";
import {
  formatAmount,
  getAssets,
  getBalances,
  type AccountBalance,
  type Amount,
  type KernelState,
  type Mode,
} from "@candor/kernel";
import type { StatementRow } from "./wallet.repository.ts";

/*
 * The wallet module's contract views, built in one place for the REST answers and the private
 * `balances` stream: smallest units in, decimal strings at the asset's decimals out.
 */

/** One asset's balance: available and held smallest units at the asset's `scale`. */
export function balanceView(
  assetId: string,
  scale: number,
  available: bigint,
  held: bigint,
): SpotBalanceView {
  return {
    asset: assetId,
    decimals: scale,
    available: formatAmount(available as Amount, scale),
    held: formatAmount(held as Amount, scale),
    total: formatAmount((available + held) as Amount, scale),
  };
}

/** The fund wallet of an owner and mode: every defined asset, zero where nothing is held. */
export function fundBalances(state: KernelState, ownerId: string, mode: Mode): SpotBalanceView[] {
  const fund = new Map<string, AccountBalance>();
  for (const b of getBalances(state, ownerId, mode))
    if (b.wallet === "fund") fund.set(b.assetId, b);
  return getAssets(state).map((asset) => {
    const b = fund.get(asset.assetId);
    return balanceView(asset.assetId, asset.scale, b?.available ?? 0n, b?.held ?? 0n);
  });
}

/** One account as a command left it (the private `balances` stream). */
export function balanceUpdateView(b: AccountBalance, scale: number): BalanceUpdateView {
  return {
    ownerId: b.ownerId,
    mode: b.mode,
    wallet: b.wallet,
    ...balanceView(b.assetId, scale, b.available, b.held),
  };
}

/** One statement line; `self` is the owner reading it. */
export function statementLineView(r: StatementRow, scale: number, self: string): StatementLineView {
  return {
    postingSeq: String(r.postingSeq),
    asset: r.assetId,
    amount: formatAmount(r.amount as Amount, scale),
    fromHeld: r.fromHeld,
    reason: r.reason as StatementLineView["reason"],
    counterparty: counterpartyLabel(r.counterOwnerId, self),
    orderId: r.orderId === null ? null : String(r.orderId),
    fillId: r.fillId === null ? null : String(r.fillId),
    tickId: r.tickId,
    operatorId: r.operatorId,
    operatorIds: r.operatorId === null ? [] : r.operatorId.split("+"),
    reference: r.reference,
    sequence: String(r.sequence),
    atMs: r.atMs,
  };
}

/** A system account keeps its label; another user is just "user"; the own account is "self". */
function counterpartyLabel(ownerId: string | null, self: string): string {
  if (ownerId === null) return "unknown";
  if (ownerId.startsWith("system:")) return ownerId;
  return ownerId === self ? "self" : "user";
}
