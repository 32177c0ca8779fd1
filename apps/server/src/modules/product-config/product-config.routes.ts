import { randomBytes } from "node:crypto";
import {
  operatorCountryProducts,
  operatorLimits,
  operatorMarketTerms,
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

/** The limits in force, as configuration set them (shown read-only in the back office). */
export interface ConfiguredLimits {
  /** The wallet module's `WithdrawalConfig` (WITHDRAW_TERMS, …), as app.ts passes it. */
  withdrawals: {
    terms: Readonly<Record<string, Readonly<Record<string, { minimum: string; fee: string }>>>>;
    twoApprovalsAbove: Readonly<Record<string, string>>;
    bankTerms?: Readonly<Record<string, { minimum: string; fee: string }>>;
  };
  adjustmentTwoApprovalsAbove: Readonly<Record<string, string>>;
  transferDailyLimits: Readonly<Record<string, string>>;
  withdrawRequiresIdentity: "none" | "basic" | "advanced";
  /** WITHDRAW_ADVANCED_ABOVE: asset → amount above which the advanced tier is needed. */
  withdrawAdvancedAbove: Readonly<Record<string, string>>;
}

export interface ProductConfigOptions {
  database: Database;
  /** The one guard of the per-country switches; its memory is refreshed after each change. */
  gate: CountryProductGate;
  /** COUNTRY_PRODUCT_BLOCKS: written into the table once (the seed). */
  seedBlocks: CountryProductBlocks;
  /** The kernel; absent in API-only tests (market terms are then empty, changes refused). */
  engine?: EngineSubmitQuery;
  limits: ConfiguredLimits;
  now: () => number;
}

const suffix = () => randomBytes(9).toString("base64url");

/**
 * Product configuration in the back office (issue 17): spot and perpetual fees, perpetual
 * leverage caps (journaled kernel commands carrying the operator's id; later orders only), the
 * per-country product switches (the database, seeded once from COUNTRY_PRODUCT_BLOCKS) and the
 * configured limits (read-only). The audit hook of `defineRoute` records every change with the
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

  const { withdrawals, transferDailyLimits, withdrawRequiresIdentity } = options.limits;
  const withdrawalTerms = [
    ...Object.entries(withdrawals.terms).flatMap(([asset, networks]) =>
      Object.entries(networks).map(([network, terms]) => ({
        asset,
        network,
        minimum: terms.minimum,
        fee: terms.fee,
      })),
    ),
    ...Object.entries(withdrawals.bankTerms ?? {}).map(([asset, terms]) => ({
      asset,
      network: "bank",
      minimum: terms.minimum,
      fee: terms.fee,
    })),
  ];

  defineRoute(app, operatorLimits, {}, () => ({
    withdrawals: withdrawalTerms,
    withdrawalTwoApprovalsAbove: amounts(withdrawals.twoApprovalsAbove),
    adjustmentTwoApprovalsAbove: amounts(options.limits.adjustmentTwoApprovalsAbove),
    transferDailyLimits: amounts(transferDailyLimits),
    withdrawRequiresIdentity,
    withdrawAdvancedAbove: amounts(options.limits.withdrawAdvancedAbove),
  }));

  // The spec's getsetting: what every user meets, from the configuration the server enforces.
  defineRoute(app, publicSettings, {}, () => {
    const blocks = options.gate.currentBlocks();
    return {
      products: (["spot", ...SwitchableProduct.options] as const).map((product) => ({
        product,
        offered: product === "spot" || !options.gate.deploymentOff(product),
        closedIn: product === "spot" ? [] : [...(blocks[product] ?? [])].sort(),
      })),
      languages: [...locales],
      withdrawals: withdrawalTerms,
      transferDailyLimits: amounts(transferDailyLimits),
      withdrawRequiresIdentity,
      withdrawAdvancedAbove: amounts(options.limits.withdrawAdvancedAbove),
    };
  });
};

/** asset → amount, as a list sorted by asset. */
function amounts(table: Readonly<Record<string, string>>) {
  return Object.entries(table)
    .map(([asset, amount]) => ({ asset, amount }))
    .sort((a, b) => (a.asset < b.asset ? -1 : 1));
}

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
