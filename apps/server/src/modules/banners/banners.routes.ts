import {
  bannerImage,
  listBanners,
  operatorBanners,
  publishBanner,
  withdrawBanner,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { imageReply, type UploadsService } from "../uploads/uploads.service.ts";
import { BannersRepository } from "./banners.repository.ts";

export interface BannersModuleOptions {
  database: Database;
  now: () => number;
  /** The uploads (banner images); absent on a server without the engine: text banners only. */
  uploads?: () => UploadsService | undefined;
}

/** How long a browser or proxy may keep a shown banner's image (a withdrawal shows within it). */
const imageCacheSeconds = 300;

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
      image: b.image,
    })),
  }));

  // Public only while the banner is shown; anything else (never shown, ended, withdrawn, text
  // only) is not found.
  defineRoute(
    app,
    bannerImage,
    { perIp: { max: 600, windowMs: 60_000 } },
    async ({ params, reply }) => {
      const uploadId = await repository.shownImage(params.bannerId, options.now());
      const uploads = options.uploads?.();
      if (uploadId === undefined || !uploads) throw new AppError("not_found");
      // A file gone from disk or changed since it was checked is not found, like a text banner;
      // any other failure (the database) stays an error.
      const file = await uploads.forOperator(uploadId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "upload_not_found") return undefined;
        throw error;
      });
      if (!file) throw new AppError("not_found");
      return imageReply(reply, file, `public, max-age=${imageCacheSeconds}`);
    },
  );

  defineRoute(app, operatorBanners, {}, async () => ({ items: await repository.all(200) }));

  defineRoute(app, publishBanner, { bodyBytes: 4_096 }, async ({ body, request }) => {
    const nowMs = options.now();
    const startsAtMs = body.startsAtMs ?? nowMs;
    if (body.endsAtMs !== null && body.endsAtMs <= startsAtMs) {
      throw new AppError("validation_failed");
    }
    const imageUploadId = body.imageUploadId ?? null;
    if (
      imageUploadId !== null &&
      !(await options.uploads?.()?.withPurpose(imageUploadId, "banner_image"))
    ) {
      throw new AppError("upload_not_found");
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
      imageUploadId,
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
