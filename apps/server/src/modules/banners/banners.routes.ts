import { listBanners, operatorBanners, publishBanner, withdrawBanner } from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { BannersRepository } from "./banners.repository.ts";

export interface BannersModuleOptions {
  database: Database;
  now: () => number;
}

/** Most banners the home page shows at once. */
const SHOWN_MAX = 5;

/**
 * Home-page banners (issue 17, back-office content): the public list of those shown now in the
 * request's language, and the operator's publish, list and withdraw (audited by the hook).
 */
export const bannersModule: FastifyPluginAsync<BannersModuleOptions> = async (app, options) => {
  const repository = new BannersRepository(options.database);

  defineRoute(app, listBanners, { perIp: { max: 120, windowMs: 60_000 } }, async ({ request }) => ({
    items: (await repository.active(request.locale, options.now(), SHOWN_MAX)).map((b) => ({
      id: b.id,
      title: b.title,
      link: b.link,
    })),
  }));

  defineRoute(app, operatorBanners, {}, async () => ({ items: await repository.all(200) }));

  defineRoute(app, publishBanner, { bodyBytes: 4_096 }, async ({ body, request }) => {
    const nowMs = options.now();
    const startsAtMs = body.startsAtMs ?? nowMs;
    if (body.endsAtMs !== null && body.endsAtMs <= startsAtMs) {
      throw new AppError("validation_failed");
    }
    const banner = await repository.insert(
      {
        title: body.title,
        link: body.link,
        locale: body.locale,
        startsAtMs,
        endsAtMs: body.endsAtMs,
        operatorId: operatorIdOf(request),
      },
      nowMs,
    );
    return { banner };
  });

  defineRoute(app, withdrawBanner, { bodyBytes: 2_048 }, async ({ params }) => {
    const banner = await repository.withdraw(params.bannerId, options.now());
    if (!banner) throw new AppError("not_found");
    return { banner };
  });
};
