import {
  operatorCountryHistoryEndpoint,
  productAvailabilityEndpoint,
  setAntiPhishingEndpoint,
  setCountryEndpoint,
  signInHistoryEndpoint,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import { AppError } from "../../http/app-error.ts";
import type { CountryProductGate } from "../../http/country-product-gate.ts";
import { defineRoute } from "../../http/define-route.ts";
import type { AuthService } from "./auth.service.ts";

const minute = 60_000;

export interface ResidenceModuleOptions {
  auth: AuthService;
  /** The per-country product switches (COUNTRY_PRODUCT_BLOCKS) and the deployment's own. */
  gate: CountryProductGate;
}

/**
 * The rest of the security centre (issue 17): country of residence and the products it opens,
 * the operator's view of its history, the anti-phishing code and sign-in history.
 */
export const residenceModule: FastifyPluginAsync<ResidenceModuleOptions> = async (app, options) => {
  const { auth, gate } = options;
  const residence = auth.residence;
  const history = auth.signInHistory;
  if (!residence || !history) return;

  defineRoute(
    app,
    setCountryEndpoint,
    { bodyBytes: 1024, perUser: { max: 20, windowMs: 60 * minute } },
    async ({ body, user }) => {
      await residence.change(user.id, body.country, body.reason);
      return auth.me(user);
    },
  );

  defineRoute(app, productAvailabilityEndpoint, {}, ({ user }) => gate.availability(user.id));

  defineRoute(app, operatorCountryHistoryEndpoint, {}, async ({ params }) => {
    const items = await residence.history(BigInt(params.userId));
    if (!items) throw new AppError("not_found");
    return { userId: params.userId, items };
  });

  defineRoute(
    app,
    setAntiPhishingEndpoint,
    { bodyBytes: 512, perUser: { max: 10, windowMs: 15 * minute } },
    async ({ body, user }) => {
      if (user.demoOnly) throw new AppError("demo_not_allowed");
      // With two-factor on, the authenticator confirms; otherwise the trade password does.
      if (auth.twoFactor && (await auth.twoFactor.enabled(user.id))) {
        if (body.totpCode === undefined) throw new AppError("two_factor_required");
        await auth.twoFactor.verify(user.id, body.totpCode);
      } else {
        if (body.tradePassword === undefined) throw new AppError("trade_password_required");
        await auth.tradePassword.verify(user.id, body.tradePassword);
      }
      return auth.setAntiPhishingCode(user, body.code);
    },
  );

  defineRoute(app, signInHistoryEndpoint, {}, async ({ user }) => ({
    items: await history.list(user.id),
  }));
};
