import { randomBytes } from "node:crypto";
import {
  operatorCountryProducts,
  operatorLimits,
  operatorMarketTerms,
  operatorSetLimit,
  operatorSetCountryProducts,
  operatorSetPerpTerms,
  operatorSetSpotFees,
  locales,
  publicSettings,
  SwitchableProduct,
  type CountryProductBlock,
} from "@candor/contract";
import { getMarkets, getPerpMarketTerms, type KernelState } from "@candor/kernel";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { submit, type EngineSubmitQuery } from "../../engine/submit.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { AppError } from "../../http/app-error.ts";
import type { CountryProductBlocks, CountryProductGate } from "../../http/country-product-gate.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { CountryProductsRepository } from "./country-products.repository.ts";
import type { LimitsStore } from "./limits-store.ts";
import { changedLimits, limitsView } from "./limits.ts";

export interface ProductConfigOptions {
  database: Database;
  /** The one guard of the per-country switches; its memory is refreshed after each change. */
  gate: CountryProductGate;
  /** COUNTRY_PRODUCT_BLOCKS: written into the table once (the seed). */
  seedBlocks: CountryProductBlocks;
  /** The kernel; absent in API-only tests (market terms are then empty, changes refused). */
  engine?: EngineSubmitQuery;
  /** The limits in force (the deployment's settings until an operator changes one). */
  limits: LimitsStore;
  now: () => number;
}

const suffix = () => randomBytes(9).toString("base64url");

/**
 * Product configuration in the back office (issue 17): spot and perpetual fees, perpetual
 * leverage caps (journaled kernel commands carrying the operator's id; later orders only), the
 * per-country product switches (the database, seeded once from COUNTRY_PRODUCT_BLOCKS) and the
 * limits (`LimitsStore`, seeded once from the settings; one change at a time). The audit hook of `defineRoute` records every change with the
 * operator and the reason. Nothing here sets a balance, a price, a fill or a result.
 */
export const productConfigModule: FastifyPluginAsync<ProductConfigOptions> = async (
  app,
  options,
) => {
  const repository = new CountryProductsRepository(options.database);
  await repository.seedOnce(options.seedBlocks, options.now());
  options.gate.setBlocks(await repository.all());
  const engine = options.engine;

  const spotTerms = (state: KernelState) =>
    getMarkets(state)
      .map((m) => ({
        marketId: m.marketId,
        feeBpsMaker: m.feeBpsMaker,
        feeBpsTaker: m.feeBpsTaker,
      }))
      .sort((a, b) => (a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : 0));

  const needEngine = (): EngineSubmitQuery => {
    if (!engine) throw new AppError("service_unavailable");
    return engine;
  };

  defineRoute(app, operatorMarketTerms, {}, () =>
    engine
      ? engine.query((state) => ({ spot: spotTerms(state), perp: getPerpMarketTerms(state) }))
      : { spot: [], perp: [] },
  );

  defineRoute(app, operatorSetSpotFees, { bodyBytes: 2_048 }, async ({ params, body, request }) => {
    const kernel = needEngine();
    const applied = await submit(kernel, {
      type: "set_market_fees",
      id: `fees:${params.marketId}:${suffix()}`,
      marketId: params.marketId,
      feeBpsMaker: body.feeBpsMaker,
      feeBpsTaker: body.feeBpsTaker,
      operatorId: operatorIdOf(request),
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const market = kernel.query(spotTerms).find((m) => m.marketId === params.marketId);
    if (!market) throw new AppError("internal_error");
    return { market };
  });

  defineRoute(
    app,
    operatorSetPerpTerms,
    { bodyBytes: 2_048 },
    async ({ params, body, request }) => {
      const kernel = needEngine();
      const applied = await submit(kernel, {
        type: "set_perp_market_terms",
        id: `perp-terms:${params.marketId}:${suffix()}`,
        marketId: params.marketId,
        feeBpsMaker: body.feeBpsMaker,
        feeBpsTaker: body.feeBpsTaker,
        leverageMax: body.leverageMax,
        operatorId: operatorIdOf(request),
      });
      if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
      const market = kernel.query(getPerpMarketTerms).find((m) => m.marketId === params.marketId);
      if (!market) throw new AppError("internal_error");
      return { market };
    },
  );

  defineRoute(app, operatorCountryProducts, {}, () => ({
    countries: byCountry(options.gate.currentBlocks()),
  }));

  defineRoute(app, operatorSetCountryProducts, { bodyBytes: 2_048 }, async ({ params, body }) => {
    const blocked = SwitchableProduct.options.filter((p) => body.blocked.includes(p));
    await repository.replace(params.country, blocked);
    options.gate.setBlocks(await repository.all());
    return { country: params.country, blocked };
  });

  defineRoute(app, operatorLimits, {}, () => limitsView(options.limits.current()));
  defineRoute(app, operatorSetLimit, { bodyBytes: 2_048 }, async ({ body, request }) => {
    const kernel = needEngine();
    const changed = await options.limits.change(
      (limits) => changedLimits(kernel, limits, body),
      operatorIdOf(request),
    );
    return limitsView(changed);
  });

  // The spec's getsetting: what every user meets, from the limits the server enforces.
  defineRoute(app, publicSettings, {}, () => {
    const blocks = options.gate.currentBlocks();
    const limits = limitsView(options.limits.current());
    return {
      products: (["spot", ...SwitchableProduct.options] as const).map((product) => ({
        product,
        offered: product === "spot" || !options.gate.deploymentOff(product),
        closedIn: product === "spot" ? [] : [...(blocks[product] ?? [])].sort(),
      })),
      languages: [...locales],
      withdrawals: limits.withdrawals,
      transferDailyLimits: limits.transferDailyLimits,
      withdrawRequiresIdentity: limits.withdrawRequiresIdentity,
      withdrawAdvancedAbove: limits.withdrawAdvancedAbove,
    };
  });
};

/** product → countries, turned into one row per country (sorted) as the back office lists them. */
function byCountry(blocks: CountryProductBlocks): CountryProductBlock[] {
  const rows = new Map<string, SwitchableProduct[]>();
  for (const product of SwitchableProduct.options) {
    for (const country of blocks[product] ?? []) {
      let list = rows.get(country);
      if (!list) rows.set(country, (list = []));
      list.push(product);
    }
  }
  return [...rows.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([country, blocked]) => ({ country, blocked }));
}
