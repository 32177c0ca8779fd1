import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { locales } from "./locales.ts";
import { UploadId } from "./bank-deposits.ts";
import { OperatorReason } from "./operator-reason.ts";

/**
 * Banners on the home page (issue 17, back-office content): a title, an optional link, one
 * language or every language, a time window, and an optional image; an operator publishes and
 * withdraws them. The image is an operator's upload of purpose `banner_image`, served to anyone
 * only while its banner is shown (`GET /api/v1/banners/:bannerId/image`); no other upload is
 * ever public.
 */

/** An app route (`#/savings`) or an https address; nothing else (no `javascript:`). */
export const BannerLink = z
  .string()
  .trim()
  .max(500)
  .regex(/^(#\/[A-Za-z0-9/_?=&.-]*|https:\/\/[^\s<>"]+)$/, "must be #/route or https://");

export const BannerView = z.object({
  id: z.string(),
  title: z.string(),
  link: z.string().nullable(),
  /** The banner's image (at `/api/v1/banners/:id/image`), or null for a text banner. */
  image: z.object({ width: z.number().int(), height: z.number().int() }).nullable(),
});

export const OperatorBannerView = BannerView.extend({
  /** Null: shown in every language. */
  locale: z.enum(locales).nullable(),
  startsAtMs: z.number().int(),
  endsAtMs: z.number().int().nullable(),
  withdrawnAtMs: z.number().int().nullable(),
  operatorId: z.string().nullable(),
});

export const listBanners = defineEndpoint({
  method: "GET",
  path: "/api/v1/banners",
  summary: "The banners shown now, in the request's language (newest first, at most 5)",
  tag: "content",
  auth: "none",
  response: z.object({ items: z.array(BannerView) }),
});

export const operatorBanners = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/banners",
  summary: "Operator: every banner, newest first, with its window and state",
  tag: "operator",
  auth: "operator",
  response: z.object({ items: z.array(OperatorBannerView) }),
});

export const publishBanner = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/banners",
  summary: "Operator: publish a banner on the home page for a time window",
  tag: "operator",
  auth: "operator",
  body: z
    .strictObject({
      title: z.string().trim().min(1).max(120),
      link: BannerLink.nullable(),
      locale: z.enum(locales).nullable(),
      /** When it starts showing; default now. */
      startsAtMs: z.number().int().min(0).max(8_640_000_000_000_000).optional(),
      /** When it stops showing; null: until withdrawn. */
      endsAtMs: z.number().int().min(0).max(8_640_000_000_000_000).nullable(),
      /** An operator's upload of purpose `banner_image` (`POST /api/v1/operator/uploads`). */
      imageUploadId: UploadId.nullable().optional(),
      reason: OperatorReason,
    })
    .refine((b) => b.endsAtMs === null || b.startsAtMs === undefined || b.endsAtMs > b.startsAtMs, {
      message: "must end after it starts",
      path: ["endsAtMs"],
    }),
  response: z.object({ banner: OperatorBannerView }),
  errors: ["upload_not_found"],
});

const BannerIdParams = z.strictObject({ bannerId: z.string().regex(/^[1-9]\d{0,17}$/) });

export const bannerImage = defineEndpoint({
  method: "GET",
  path: "/api/v1/banners/:bannerId/image",
  summary: "A shown banner's image (JPEG or PNG, re-encoded); not found once it is not shown",
  tag: "content",
  auth: "none",
  params: BannerIdParams,
  response: z.unknown(),
  errors: ["not_found"],
});

export const withdrawBanner = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/banners/:bannerId/withdraw",
  summary: "Operator: stop showing a banner now",
  tag: "operator",
  auth: "operator",
  params: BannerIdParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ banner: OperatorBannerView }),
  errors: ["not_found"],
});
