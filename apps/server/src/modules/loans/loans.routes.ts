import { randomBytes } from "node:crypto";
import {
  addLoanCollateral,
  applyLoan,
  configureLoanProduct,
  decideLoan,
  fundLoanPool,
  loanDetail,
  loanProducts,
  myLoans,
  pendingLoans,
  quoteLoan,
  repayLoan,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { AuthUser } from "../../http/authenticate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf, touchesUser } from "../../http/operator-audit.ts";
import type { ProductCountryCheck } from "../../http/country-product-gate.ts";
import { defaultLoanProducts, type LoanProductConfig } from "./loans.products.ts";
import { LoansService, type LoansEngine, type LoansSession } from "./loans.service.ts";

const minute = 60_000;

export interface LoansModuleOptions {
  engine: LoansEngine;
  /** The per-country product switches (COUNTRY_PRODUCT_BLOCKS): asked before opening. */
  countryGate?: ProductCountryCheck;
  /** Products configured at start-up when the kernel does not have them. */
  products?: readonly LoanProductConfig[];
  /** The tape price used may be at most this old, ms (default 60,000). */
  tickAgeMaxMs?: number;
}

/** `/api/v1/loans/*`: collateralised loans from an operator-funded pool (issue 22). */
export const loansModule: FastifyPluginAsync<LoansModuleOptions> = async (app, options) => {
  const service = new LoansService({
    engine: options.engine,
    tickAgeMaxMs: options.tickAgeMaxMs,
  });
  await service.setup(options.products ?? defaultLoanProducts);
  const session = (user: AuthUser): LoansSession => ({ ownerId: String(user.id), mode: user.mode });
  const suffix = () => randomBytes(9).toString("base64url");

  defineRoute(app, loanProducts, { perIp: { max: 600, windowMs: minute } }, async ({ query }) => ({
    items: service.products(query.mode),
  }));

  defineRoute(
    app,
    quoteLoan,
    { bodyBytes: 1_024, perUser: { max: 600, windowMs: minute } },
    async ({ body, user }) => ({ quote: await service.quote(session(user), body) }),
  );

  defineRoute(
    app,
    applyLoan,
    { bodyBytes: 1_024, perUser: { max: 60, windowMs: minute } },
    async ({ body, user }) => {
      await options.countryGate?.check(user.id, "loans");
      return service.apply(session(user), body);
    },
  );

  defineRoute(
    app,
    myLoans,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => ({
      items: service.list(session(user), query.status),
    }),
  );

  defineRoute(
    app,
    loanDetail,
    { perUser: { max: 1_200, windowMs: minute } },
    async ({ params, user }) => ({ loan: service.detail(session(user), params.loanId) }),
  );

  defineRoute(
    app,
    repayLoan,
    { bodyBytes: 1_024, perUser: { max: 120, windowMs: minute } },
    async ({ params, body, user }) => ({
      loan: await service.repay(session(user), params.loanId, body, "loans_repay"),
    }),
  );

  defineRoute(
    app,
    addLoanCollateral,
    { bodyBytes: 1_024, perUser: { max: 120, windowMs: minute } },
    async ({ params, body, user }) => ({
      loan: await service.repay(session(user), params.loanId, body, "loans_add_collateral"),
    }),
  );

  defineRoute(app, configureLoanProduct, { bodyBytes: 2_048 }, async ({ body, request }) => ({
    product: await service.configure(body, suffix(), operatorIdOf(request)),
  }));

  defineRoute(app, fundLoanPool, { bodyBytes: 2_048 }, async ({ body, request }) => ({
    poolAvailable: await service.fundPool(body, operatorIdOf(request)),
  }));

  defineRoute(app, pendingLoans, {}, async () => ({ items: service.pending() }));

  defineRoute(app, decideLoan, { bodyBytes: 2_048 }, async ({ params, body, request }) => {
    const ownerId = service.pending().find((loan) => loan.loanId === params.loanId)?.ownerId;
    if (ownerId) touchesUser(request, ownerId);
    return {
      loan: await service.decide(
        params.loanId,
        body.approve,
        body.reason,
        suffix(),
        operatorIdOf(request),
      ),
    };
  });
};
