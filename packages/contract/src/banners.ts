import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { locales } from "./locales.ts";
import { OperatorReason } from "./operator-reason.ts";

/**
 * Banners on the home page (issue 17, back-office content): a title, an optional link, one
 * language or every language, and a time window; an operator publishes and withdraws them.
 * No image: the uploads pipeline serves images to their owner and compliance only, never to the
 * public, so a banner is text (a public image store is not built).
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
      reason: OperatorReason,
    })
    .refine((b) => b.endsAtMs === null || b.startsAtMs === undefined || b.endsAtMs > b.startsAtMs, {
      message: "must end after it starts",
      path: ["endsAtMs"],
    }),
  response: z.object({ banner: OperatorBannerView }),
});

export const withdrawBanner = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/banners/:bannerId/withdraw",
  summary: "Operator: stop showing a banner now",
  tag: "operator",
  auth: "operator",
  params: z.strictObject({ bannerId: z.string().regex(/^[1-9]\d{0,17}$/) }),
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ banner: OperatorBannerView }),
  errors: ["not_found"],
});
