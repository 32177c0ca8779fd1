import { randomBytes } from "node:crypto";
import {
  defineSavingsPlan,
  fundSavingsYield,
  redeemSavingsEarly,
  savingsPlans,
  savingsSubscriptions,
  subscribeSavings,
  type DefineSavingsPlanBody,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import type { ProductCountryCheck } from "../../http/country-product-gate.ts";
import { defaultSavingsPlans } from "./savings.plans.ts";
import { SavingsRepository } from "./savings.repository.ts";
import { SavingsService, type SavingsEngine, type SavingsSession } from "./savings.service.ts";

const minute = 60_000;

export interface SavingsModuleOptions {
  engine: SavingsEngine;
  database: Database;
  now?: () => number;
  /** The per-country product switches (COUNTRY_PRODUCT_BLOCKS): asked before opening. */
  countryGate?: ProductCountryCheck;
  /** Plans defined at start-up when the kernel does not have them (default: two savings plans and an example mining product). */
  plans?: readonly DefineSavingsPlanBody[];
  /** False switches the product off for this deployment (SAVINGS_ENABLED=false). Default true. */
  enabled?: boolean;
  /** Demo yield top-up target per asset, whole units (default USDT 1,000,000 demo). */
  yieldDemoFunding?: Readonly<Record<string, string>>;
}

/** `/api/v1/savings/*`: savings plans and mining products, every promise reserved (issue 22). */
export const savingsModule: FastifyPluginAsync<SavingsModuleOptions> = async (app, options) => {
  const now = options.now ?? Date.now;
  const service = new SavingsService({
    engine: options.engine,
    repository: new SavingsRepository(options.database),
    now,
    yieldDemoFunding: options.yieldDemoFunding,
  });
  app.addHook("onClose", async () => service.stop());
  await service.setup(options.plans ?? defaultSavingsPlans);
  const session = (user: AuthUser): SavingsSession => ({
    ownerId: String(user.id),
    mode: user.mode,
  });

  const enabled = options.enabled ?? true;
  defineRoute(app, savingsPlans, { perIp: { max: 600, windowMs: minute } }, async ({ query }) => ({
    enabled,
    items: enabled ? service.plans(query.mode, query.kind) : [],
  }));

  defineRoute(
    app,
    subscribeSavings,
    { bodyBytes: 1_024, perUser: { max: 120, windowMs: minute } },
    async ({ body, user }) => {
      // Switched off: no new promises; active subscriptions still pay out and can be redeemed.
      if (!enabled) throw new AppError("savings_disabled");
      await options.countryGate?.check(user.id, "savings");
      return service.subscribe(session(user), body);
    },
  );

  defineRoute(
    app,
    savingsSubscriptions,
    { perUser: { max: 600, windowMs: minute } },
    async ({ query, user }) => ({ items: await service.list(session(user), query.limit) }),
  );

  defineRoute(
    app,
    redeemSavingsEarly,
    { perUser: { max: 60, windowMs: minute } },
    async ({ params, user }) => ({
      subscription: await service.redeemEarly(session(user), params.subscriptionId),
    }),
  );

  defineRoute(app, defineSavingsPlan, { bodyBytes: 4_096 }, async ({ body, request }) => ({
    plan: await service.definePlan(
      body,
      randomBytes(9).toString("base64url"),
      operatorIdOf(request),
    ),
  }));

  defineRoute(app, fundSavingsYield, { bodyBytes: 2_048 }, async ({ body, request }) =>
    service.fundYield(body, operatorIdOf(request)),
  );
};
