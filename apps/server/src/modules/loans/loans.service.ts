import type { LoanProductView, LoanQuoteView, LoanView } from "@candor/contract";
import {
  formatAmount,
  getAssets,
  getLastTick,
  getLoan,
  getLoanFigures,
  getLoanPool,
  getLoanProducts,
  getLoans,
  getNowMs,
  getPendingLoans,
  LOANS_GRACE_DAYS,
  loansCollateralFor,
  loansCollateralValue,
  loansDayInterest,
  loansLimitPrice18,
  loansLtvBps,
  loansPrice18,
  parseAmount,
  systemOwners,
  type Command,
  type KernelState,
  type LoanView as KernelLoan,
  type LoansProductView,
  type Mode,
} from "@candor/kernel";
import type { CandorApplied, CandorCommand, CandorFirst } from "../../engine/kernel-port.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { LoanProductConfig } from "./loans.products.ts";

/** What the loans module needs from the engine. */
export interface LoansEngine {
  submit(command: CandorCommand): Promise<CandorApplied>;
  query<T>(fn: (state: KernelState) => T): T;
  recall(id: string): CandorFirst | undefined;
}

export interface LoansSession {
  ownerId: string;
  mode: Mode;
}

export interface LoansServiceOptions {
  engine: LoansEngine;
  /** The tape price used may be at most this old, ms (default 60,000). */
  tickAgeMaxMs?: number;
  /**
   * Demo only: the demo pool is topped up from the demo faucet to this many whole units when a
   * demo application finds it below half. Demo money, never real.
   */
  demoPool?: Readonly<Record<string, string>>;
}

type ApplyCommand = Extract<Command, { type: "loans_apply" }>;

const terms = (p: {
  termDays: number;
  dailyRatePpm: number;
  ltvInitialBps: number;
  ltvMarginCallBps: number;
  ltvLiquidationBps: number;
}) => ({
  termDays: p.termDays,
  dailyRatePpm: p.dailyRatePpm,
  overdueRateBps: 11_000,
  lateFeeBpsPerDay: 100,
  graceDays: LOANS_GRACE_DAYS,
  earlyRepaymentBps: 5_000,
  ltvInitialBps: p.ltvInitialBps,
  ltvMarginCallBps: p.ltvMarginCallBps,
  ltvLiquidationBps: p.ltvLiquidationBps,
});

/** Loans: products, quotes, borrowing, repayment and collateral, all through the journal. */
export class LoansService {
  constructor(private readonly options: LoansServiceOptions) {}

  private scaleOf(assetId: string): number {
    return (
      this.options.engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId)?.scale ?? 0
    );
  }

  private amount(text: string, assetId: string): bigint {
    const parsed = parseAmount(text, this.scaleOf(assetId));
    if (!parsed.ok) throw new AppError(errorCodeOf(parsed.code));
    return parsed.value;
  }

  private product(productId: string): LoansProductView {
    const product = this.options.engine
      .query((s) => getLoanProducts(s))
      .find((p) => p.productId === productId);
    if (!product) throw new AppError("loan_product_not_found");
    return product;
  }

  products(mode: Mode): LoanProductView[] {
    return this.options.engine.query((state) =>
      getLoanProducts(state).map((p) => this.productView(state, p, mode)),
    );
  }

  private productView(state: KernelState, p: LoansProductView, mode: Mode): LoanProductView {
    const loanScale = this.scaleOf(p.loanAssetId);
    const tick = getLastTick(state, p.instrumentId);
    return {
      productId: p.productId,
      loanAsset: p.loanAssetId,
      loanAssetDecimals: loanScale,
      collateralAsset: p.collateralAssetId,
      collateralAssetDecimals: this.scaleOf(p.collateralAssetId),
      instrumentId: p.instrumentId,
      amountMin: formatAmount(p.amountMin, loanScale),
      amountMax: formatAmount(p.amountMax, loanScale),
      terms: terms(p),
      reviewRequired: p.reviewRequired,
      open: p.open,
      poolAvailable: formatAmount(getLoanPool(state, mode, p.loanAssetId).available, loanScale),
      lastPrice: tick?.price ?? null,
      lastTickId: tick?.tickId ?? null,
    };
  }

  async quote(
    session: LoansSession,
    input: { productId: string; amount: string; collateral: string },
  ): Promise<LoanQuoteView> {
    const p = this.product(input.productId);
    // Demo: the demo pool is filled with demo money before the first demo quote shows it.
    if (session.mode === "demo") await this.topUpDemoPool(p.loanAssetId);
    const amount = this.amount(input.amount, p.loanAssetId);
    const collateral = this.amount(input.collateral, p.collateralAssetId);
    const ls = this.scaleOf(p.loanAssetId);
    const cs = this.scaleOf(p.collateralAssetId);
    const money = (v: bigint) => formatAmount(v, ls);
    const interestForTerm = loansDayInterest(amount, p.dailyRatePpm, false) * BigInt(p.termDays);
    const price18 = (v: bigint | null) => (v === null ? null : formatAmount(v, 18));
    return this.options.engine.query((state) => {
      const tick = getLastTick(state, p.instrumentId);
      const pool = getLoanPool(state, session.mode, p.loanAssetId).available;
      let refusal: string | null = null;
      let ltv: number | null = null;
      let required: string | null = null;
      if (amount < p.amountMin || amount > p.amountMax) refusal = "loan_amount_invalid";
      if (!p.open) refusal = "loan_product_closed";
      if (tick === undefined) refusal ??= "no_reference_price";
      else {
        const price = loansPrice18(tick.price);
        const bps = loansLtvBps(amount, loansCollateralValue(collateral, price, cs, ls));
        ltv = bps > 1_000_000n ? 1_000_000 : Number(bps);
        // Collateral the initial LTV requires: debt × 10,000 / LTV, in collateral units.
        const neededValue =
          (amount * 10_000n + BigInt(p.ltvInitialBps) - 1n) / BigInt(p.ltvInitialBps);
        required = formatAmount(loansCollateralFor(neededValue, price, cs, ls), cs);
        if (bps > BigInt(p.ltvInitialBps)) refusal ??= "loan_ltv_too_high";
        if (getNowMs(state) - tick.tickAtMs > (this.options.tickAgeMaxMs ?? 60_000)) {
          refusal ??= "reference_price_stale";
        }
      }
      if (pool < amount) refusal ??= "loan_pool_insufficient";
      return {
        refusal,
        ltvBps: ltv,
        interestForTerm: money(interestForTerm),
        dueAtMaturity: money(amount + interestForTerm),
        marginCallPrice: price18(loansLimitPrice18(amount, collateral, p.ltvMarginCallBps, cs, ls)),
        liquidationPrice: price18(
          loansLimitPrice18(amount, collateral, p.ltvLiquidationBps, cs, ls),
        ),
        collateralRequired: required,
        price: tick?.price ?? null,
        tickId: tick?.tickId ?? null,
      };
    });
  }

  async apply(
    session: LoansSession,
    input: { requestId: string; productId: string; amount: string; collateral: string },
  ): Promise<{ loan: LoanView; duplicate: boolean }> {
    const engine = this.options.engine;
    const p = this.product(input.productId);
    const command: Omit<ApplyCommand, "atMs"> = {
      type: "loans_apply",
      // No colons: the id travels in paths (`/loans/:loanId`).
      id: `loan-${session.ownerId}-${input.requestId}`,
      ownerId: session.ownerId,
      mode: session.mode,
      productId: p.productId,
      amount: this.amount(input.amount, p.loanAssetId),
      collateral: this.amount(input.collateral, p.collateralAssetId),
    };
    const first = engine.recall(command.id);
    const known = first ? undefined : engine.query((s) => getLoan(s, command.id));
    if (first || known) {
      const c = first?.command;
      const same = c
        ? c.type === "loans_apply" &&
          c.ownerId === command.ownerId &&
          c.mode === command.mode &&
          c.productId === command.productId &&
          c.amount === command.amount &&
          c.collateral === command.collateral
        : known!.ownerId === command.ownerId &&
          known!.mode === command.mode &&
          known!.productId === command.productId &&
          known!.principalLent === command.amount;
      if (!same) throw new AppError("client_order_id_reused");
      if (first && !first.result.ok) throw new AppError(errorCodeOf(first.result.code));
      return { loan: this.detail(session, command.id), duplicate: true };
    }
    await ensureAccounts(engine, session.ownerId, session.mode);
    if (session.mode === "demo") await this.topUpDemoPool(p.loanAssetId);
    const applied = await submit(engine, command);
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return { loan: this.detail(session, command.id), duplicate: applied.duplicate };
  }

  private async topUpDemoPool(assetId: string): Promise<void> {
    const text = (this.options.demoPool ?? { USDT: "1000000" })[assetId];
    if (text === undefined) return;
    const target = parseAmount(text, this.scaleOf(assetId));
    if (!target.ok) return;
    const { available, nowMs } = this.options.engine.query((s) => ({
      available: getLoanPool(s, "demo", assetId).available,
      nowMs: getNowMs(s),
    }));
    if (available * 2n >= target.value) return;
    await submit(this.options.engine, {
      type: "loans_fund_pool",
      id: `loans:pool:demo:${assetId}:${nowMs}`,
      mode: "demo",
      assetId,
      amount: target.value - available,
      operatorId: null,
    });
  }

  list(session: LoansSession, status?: string): LoanView[] {
    return this.options.engine.query((state) =>
      getLoans(state, session.ownerId, session.mode)
        .filter((l) => status === undefined || l.status === status)
        .map((l) => this.view(state, l)),
    );
  }

  detail(session: LoansSession, loanId: string): LoanView {
    return this.options.engine.query((state) => {
      const loan = getLoan(state, loanId);
      // Another user's loan answers exactly as a missing one.
      if (!loan || loan.ownerId !== session.ownerId || loan.mode !== session.mode) {
        throw new AppError("loan_not_found");
      }
      return this.view(state, loan);
    });
  }

  async repay(
    session: LoansSession,
    loanId: string,
    input: { requestId: string; amount: string },
    type: "loans_repay" | "loans_add_collateral",
  ): Promise<LoanView> {
    const loan = this.detail(session, loanId);
    const asset = type === "loans_repay" ? loan.loanAsset : loan.collateralAsset;
    const amount = this.amount(input.amount, asset);
    const applied = await submit(this.options.engine, {
      type,
      id: `${type}-${session.ownerId}-${input.requestId}`,
      ownerId: session.ownerId,
      mode: session.mode,
      loanId,
      amount,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return this.detail(session, loanId);
  }

  async configure(
    config: LoanProductConfig & { open: boolean },
    suffix: string,
    operatorId: string | null = null,
  ): Promise<LoanProductView> {
    const engine = this.options.engine;
    const loanScale = engine
      .query((s) => getAssets(s))
      .find((a) => a.assetId === config.loanAsset)?.scale;
    const known = engine
      .query((s) => getAssets(s))
      .some((a) => a.assetId === config.collateralAsset);
    if (loanScale === undefined || !known) throw new AppError("asset_not_found");
    const amount = (text: string) => {
      const parsed = parseAmount(text, loanScale);
      if (!parsed.ok) throw new AppError(errorCodeOf(parsed.code));
      return parsed.value;
    };
    const applied = await submit(engine, {
      type: "loans_configure",
      id: `loans:configure:${config.productId}:${suffix}`,
      productId: config.productId,
      loanAssetId: config.loanAsset,
      collateralAssetId: config.collateralAsset,
      instrumentId: config.instrumentId,
      ltvInitialBps: config.ltvInitialBps,
      ltvMarginCallBps: config.ltvMarginCallBps,
      ltvLiquidationBps: config.ltvLiquidationBps,
      amountMin: amount(config.amountMin),
      amountMax: amount(config.amountMax),
      termDays: config.termDays,
      dailyRatePpm: config.dailyRatePpm,
      reviewRequired: config.reviewRequired,
      tickAgeMaxMs: this.options.tickAgeMaxMs ?? 60_000,
      open: config.open,
      operatorId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return engine.query((state) =>
      this.productView(
        state,
        getLoanProducts(state).find((p) => p.productId === config.productId)!,
        "real",
      ),
    );
  }

  /** Configures the start-up products the kernel does not have yet (assets that exist only). */
  async setup(products: readonly LoanProductConfig[]): Promise<void> {
    const engine = this.options.engine;
    const have = new Set(engine.query((s) => getLoanProducts(s)).map((p) => p.productId));
    const assets = new Set(engine.query((s) => getAssets(s)).map((a) => a.assetId));
    for (const config of products) {
      if (have.has(config.productId)) continue;
      if (!assets.has(config.loanAsset) || !assets.has(config.collateralAsset)) continue;
      await this.configure({ ...config, open: true }, "setup");
    }
  }

  /**
   * Operator: funds the pool. Real: the money the operator put in is journaled as a deposit to
   * `system:treasury` (with its reference), then moved into the pool; demo: demo money from the
   * faucet.
   */
  async fundPool(
    input: {
      id: string;
      mode: Mode;
      assetId: string;
      amount: string;
      reference: string;
    },
    operatorId: string,
  ): Promise<string> {
    const engine = this.options.engine;
    if (!engine.query((s) => getAssets(s)).some((a) => a.assetId === input.assetId)) {
      throw new AppError("asset_not_found");
    }
    const amount = this.amount(input.amount, input.assetId);
    if (input.mode === "real") {
      const deposited = await submit(engine, {
        type: "credit_deposit",
        id: `loans:pool:deposit:${input.id}`,
        ownerId: systemOwners.treasury,
        mode: "real",
        assetId: input.assetId,
        amount,
        reference: input.reference,
        operatorId,
      });
      if (!deposited.result.ok) throw new AppError(errorCodeOf(deposited.result.code));
    }
    const funded = await submit(engine, {
      type: "loans_fund_pool",
      id: `loans:pool:fund:${input.id}`,
      mode: input.mode,
      assetId: input.assetId,
      amount,
      operatorId,
    });
    if (!funded.result.ok) throw new AppError(errorCodeOf(funded.result.code));
    return formatAmount(
      engine.query((s) => getLoanPool(s, input.mode, input.assetId).available),
      this.scaleOf(input.assetId),
    );
  }

  pending(): (LoanView & { ownerId: string })[] {
    return this.options.engine.query((state) =>
      getPendingLoans(state).map((l) => ({ ...this.view(state, l), ownerId: l.ownerId })),
    );
  }

  async decide(
    loanId: string,
    approve: boolean,
    reason: string | null,
    suffix: string,
    operatorId: string,
  ): Promise<LoanView> {
    const engine = this.options.engine;
    const loan = engine.query((s) => getLoan(s, loanId));
    if (!loan) throw new AppError("loan_not_found");
    const applied = await submit(engine, {
      type: "loans_decide",
      id: `loans:decide:${loanId}:${suffix}`,
      loanId,
      approve,
      // The borrower sees a rejection's reason; an approval's stays in the audit log.
      reason: approve ? null : reason,
      operatorId,
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return engine.query((state) => this.view(state, getLoan(state, loanId)!));
  }

  view(state: KernelState, l: KernelLoan): LoanView {
    const ls = this.scaleOf(l.loanAssetId);
    const cs = this.scaleOf(l.collateralAssetId);
    const money = (v: bigint) => formatAmount(v, ls);
    const coll = (v: bigint) => formatAmount(v, cs);
    const f = getLoanFigures(state, l);
    return {
      loanId: l.loanId,
      mode: l.mode,
      productId: l.productId,
      loanAsset: l.loanAssetId,
      collateralAsset: l.collateralAssetId,
      instrumentId: l.instrumentId,
      terms: terms(l),
      status: l.status,
      principalLent: money(l.principalLent),
      principal: money(l.principal),
      interest: money(l.interest),
      lateFees: money(l.lateFees),
      debt: money(f.debt),
      repayNow: money(f.repayNow),
      earlyFee: money(f.earlyFee),
      interestPaid: money(l.interestPaid),
      lateFeesPaid: money(l.lateFeesPaid),
      principalPaid: money(l.principalPaid),
      collateral: coll(l.collateral),
      ltvBps: f.ltvBps,
      marginCallPrice: f.marginCallPrice,
      liquidationPrice: f.liquidationPrice,
      marginCall: l.marginCall,
      forcedClose: l.forcedClose,
      appliedAtMs: l.appliedAtMs,
      startedAtMs: l.startedAtMs,
      dueAtMs: l.dueAtMs,
      daysAccrued: l.daysAccrued,
      openTickId: l.openTickId,
      openPrice: l.openPrice,
      closeTickId: l.closeTickId,
      closePrice: l.closePrice,
      collateralSeized: coll(l.collateralSeized),
      shortfall: money(l.shortfall),
      closedAtMs: l.closedAtMs,
      reason: l.reason,
    };
  }
}
