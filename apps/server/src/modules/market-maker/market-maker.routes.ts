import { marketMakerFundingEndpoint } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { MarketMakerFunding, type KernelGateway } from "./market-maker.service.ts";

export interface MarketMakerModuleOptions {
  /** The engine the market maker quotes through. */
  engine: KernelGateway;
}

/** `POST /api/v1/operator/market-maker/funding`: the operator credits real inventory. */
export const marketMakerModule: FastifyPluginAsync<MarketMakerModuleOptions> = async (
  app,
  options,
) => {
  const service = new MarketMakerFunding(options.engine);
  defineRoute(app, marketMakerFundingEndpoint, { bodyBytes: 2_048 }, ({ body, request }) =>
    service.fund(body, operatorIdOf(request)),
  );
};
