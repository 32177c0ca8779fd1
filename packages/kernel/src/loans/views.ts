// Queries of the loans product: what the server reads to answer requests.

import { formatAmount, SCALE_MAX } from "../amount/amount.ts";
import type { KernelState } from "../state.ts";
import { systemOwners, type Mode } from "../types.ts";
import { debtOf, fullRepaymentOf, loanView } from "./loans.ts";
import { collateralValue, limitPrice18, ltvBps, price18 } from "./math.ts";
import type { LoanView, LoansProductView } from "./types.ts";

/** Every product, by id. */
export function getLoanProducts(state: KernelState): LoansProductView[] {
  return [...state.loans.products.values()]
    .map((p) => ({ ...p }))
    .sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
}

/** A loan by id, or undefined. */
export function getLoan(state: KernelState, loanId: string): LoanView | undefined {
  const loan = state.loans.loans.get(loanId);
  return loan === undefined ? undefined : loanView(loan);
}

/** An owner's loans in one mode, newest first. */
export function getLoans(state: KernelState, ownerId: string, mode: Mode): LoanView[] {
  const out: LoanView[] = [];
  for (const loan of state.loans.loans.values()) {
    if (loan.ownerId === ownerId && loan.mode === mode) out.push(loanView(loan));
  }
  return out.reverse();
}

/** Applications waiting for an operator, oldest first. */
export function getPendingLoans(state: KernelState): LoanView[] {
  return [...state.loans.loans.values()].filter((l) => l.status === "pending").map(loanView);
}

/** The lending pool of one mode and asset: free to lend, and reserved for applications. */
export function getLoanPool(
  state: KernelState,
  mode: Mode,
  assetId: string,
): { available: bigint; reserved: bigint } {
  const treasury = (mode === "real" ? state.ledger.ownersReal : state.ledger.ownersDemo).get(
    systemOwners.treasury,
  );
  const account = treasury?.accounts.get("contract|" + assetId);
  return { available: account?.available ?? 0n, reserved: account?.held ?? 0n };
}

/** A loan measured at the instrument's last tick: what the screens show. */
export interface LoanFigures {
  debt: bigint;
  /** Full repayment now, and the early-repayment compensation inside it. */
  repayNow: bigint;
  earlyFee: bigint;
  /** At the last tick (null without one). */
  tickId: string | null;
  price: string | null;
  ltvBps: number | null;
  /** Prices at which the margin call and liquidation happen (decimal strings). */
  marginCallPrice: string | null;
  liquidationPrice: string | null;
}

export function getLoanFigures(state: KernelState, loan: LoanView): LoanFigures {
  const collateralScale = state.reference.assets.get(loan.collateralAssetId)?.scale ?? 0;
  const loanScale = state.reference.assets.get(loan.loanAssetId)?.scale ?? 0;
  const debt = loan.status === "pending" ? loan.principalLent : debtOf(loan);
  const { due, earlyFee } = fullRepaymentOf(loan);
  const tick = state.reference.ticks.get(loan.instrumentId);
  const live = loan.status === "pending" || loan.status === "active";
  const priceAt = (limit: number): string | null => {
    if (!live) return null;
    const p = limitPrice18(debt, loan.collateral, limit, collateralScale, loanScale);
    return p === null ? null : formatAmount(p, SCALE_MAX);
  };
  let ltv: number | null = null;
  if (tick !== undefined && live) {
    const value = collateralValue(loan.collateral, price18(tick.price), collateralScale, loanScale);
    const bps = ltvBps(debt, value);
    ltv = bps > 1_000_000n ? 1_000_000 : Number(bps);
  }
  return {
    debt,
    repayNow: loan.status === "active" ? due : 0n,
    earlyFee: loan.status === "active" ? earlyFee : 0n,
    tickId: tick?.tickId ?? null,
    price: tick?.price ?? null,
    ltvBps: ltv,
    marginCallPrice: priceAt(loan.ltvMarginCallBps),
    liquidationPrice: priceAt(loan.ltvLiquidationBps),
  };
}
