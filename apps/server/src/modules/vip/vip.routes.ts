import { configureVipLevel, myVipLevel, operatorVipLevels } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { defineRoute } from "../../http/define-route.ts";
import { VipService } from "./vip.service.ts";

/** Options of the VIP module. */
export interface VipModuleOptions {
  /** The engine; without it VIP is shown as not configured and cannot be set. */
  engine?: EngineSubmitQuery;
  now?: () => number;
}

/** The signed-in user's VIP level; the operator's level configuration. */
export const vipModule: FastifyPluginAsync<VipModuleOptions> = async (app, options) => {
  const service = new VipService(options.engine, options.now ?? Date.now);

  defineRoute(app, myVipLevel, { perUser: { max: 60, windowMs: 60_000 } }, ({ user }) =>
    service.me(String(user.id), user.mode),
  );

  defineRoute(app, operatorVipLevels, {}, () => service.operatorLevels());

  defineRoute(app, configureVipLevel, { bodyBytes: 1_024 }, ({ body, request }) =>
    service.configure(body, request.operatorAccount?.id ?? null),
  );
};
