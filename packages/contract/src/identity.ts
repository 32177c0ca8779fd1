import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { UploadId } from "./bank-deposits.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Identity verification (spec §1, §2 `assets/auth` and `index/CertificationInformation`, §3,
 * §4, §6; issue 17): a basic tier (nationality, real name, document type and number) and an
 * advanced tier (front and back photos of the document, a selfie if the user wishes), each
 * decided by an operator: unverified → under review → passed, or not approved with a reason
 * and resubmission.
 */

export const IdentityTier = z.enum(["basic", "advanced"]);
export type IdentityTier = z.infer<typeof IdentityTier>;
export const IdentityDocumentType = z.enum(["id_card", "driving_licence", "passport"]);
export type IdentityDocumentType = z.infer<typeof IdentityDocumentType>;
export const IdentityState = z.enum(["unverified", "under_review", "passed", "not_approved"]);
export type IdentityState = z.infer<typeof IdentityState>;
export const IdentitySubmissionState = z.enum(["under_review", "passed", "not_approved"]);

/** The reasons an operator picks from; `other` goes with free text. */
export const IdentityRejectReason = z.enum([
  "document_unreadable",
  "document_expired",
  "name_mismatch",
  "number_mismatch",
  "selfie_mismatch",
  "document_not_accepted",
  "other",
]);
export type IdentityRejectReason = z.infer<typeof IdentityRejectReason>;

/** ISO 3166-1 alpha-2, upper case. */
export const CountryCode = z.string().regex(/^[A-Z]{2}$/, "must be a country code");

export const IdentitySubmissionView = z.object({
  submissionId: z.string(),
  tier: IdentityTier,
  state: IdentitySubmissionState,
  country: z.string().nullable(),
  realName: z.string().nullable(),
  documentType: IdentityDocumentType.nullable(),
  /** Only the last four characters, for the owner's history. */
  documentNumberMasked: z.string().nullable(),
  frontUploadId: z.string().nullable(),
  backUploadId: z.string().nullable(),
  selfieUploadId: z.string().nullable(),
  rejectReason: IdentityRejectReason.nullable(),
  /** The operator's own words when the reason is `other`. */
  rejectText: z.string().nullable(),
  createdAtMs: z.number().int(),
  decidedAtMs: z.number().int().nullable(),
  /** The owner deleted this submission's document images after the decision (kept: the rest). */
  documentsDeleted: z.boolean(),
});
export type IdentitySubmissionView = z.infer<typeof IdentitySubmissionView>;

export const IdentityOverview = z.object({
  /** The state the app shows: of the latest submission, or `unverified`. */
  state: IdentityState,
  /** The highest tier passed, or null. */
  passedTier: IdentityTier.nullable(),
  /** Newest first. */
  history: z.array(IdentitySubmissionView),
});
export type IdentityOverview = z.infer<typeof IdentityOverview>;

export const myIdentityEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/me/identity",
  summary: "The user's identity verification: state, tier passed and every decision",
  tag: "me",
  auth: "user",
  response: IdentityOverview,
});

const Text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // No control characters: what is typed here is shown to operators.
    .regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

export const submitBasicIdentityEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/me/identity/basic",
  summary: "Submit (or resubmit) basic identity details for review",
  tag: "me",
  auth: "user",
  body: z.strictObject({
    country: CountryCode,
    realName: Text(100),
    documentType: IdentityDocumentType,
    documentNumber: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9 -]{4,32}$/, "must be 4 to 32 letters or digits"),
  }),
  response: IdentityOverview,
  errors: ["identity_under_review", "identity_already_passed", "demo_not_allowed"],
});

export const submitAdvancedIdentityEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/me/identity/advanced",
  summary: "Submit (or resubmit) the document photos for the advanced tier",
  tag: "me",
  auth: "user",
  body: z.strictObject({
    frontUploadId: UploadId,
    backUploadId: UploadId,
    selfieUploadId: UploadId.optional(),
  }),
  response: IdentityOverview,
  errors: [
    "identity_basic_required",
    "identity_under_review",
    "identity_already_passed",
    "upload_not_found",
    "demo_not_allowed",
  ],
  description:
    "Each image must be one of the caller's own `identity_document` uploads " +
    "(POST /api/v1/uploads?purpose=identity_document), and the basic tier must have passed.",
});

export const deleteIdentityDocumentsEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/me/identity/:submissionId/documents",
  summary: "Delete the document images of one of the caller's decided identity submissions",
  tag: "me",
  auth: "user",
  params: z.strictObject({
    submissionId: z.string().regex(/^[1-9]\d{0,17}$/, "must be a submission id"),
  }),
  response: IdentityOverview,
  errors: ["identity_submission_not_found", "identity_under_review"],
  description:
    "Only after a decision (passed or not approved); the decision (state, reason, dates) stays " +
    "and the tier passed is kept. The stored files are removed, so nobody (the owner, an " +
    "operator) can open them afterwards. Nothing to delete (a basic submission, already " +
    "deleted) answers the overview unchanged. Another user's submission: not found.",
});

export const OperatorIdentityView = IdentitySubmissionView.extend({
  userId: z.string(),
  /** The full number, for the reviewer. */
  documentNumber: z.string().nullable(),
  /** Who decided. */
  operatorId: z.string().nullable(),
});
export type OperatorIdentityView = z.infer<typeof OperatorIdentityView>;

const SubmissionParams = z.strictObject({
  submissionId: z.string().regex(/^[1-9]\d{0,17}$/, "must be a submission id"),
});

export const operatorListIdentityEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/identity",
  summary: "Identity submissions by state, oldest first (operator review queue)",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({
    state: IdentitySubmissionState.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  response: z.object({ items: z.array(OperatorIdentityView) }),
});

export const operatorIdentityDetailEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/identity/:submissionId",
  summary:
    "One identity submission with its document ids (images: GET /api/v1/operator/uploads/:id)",
  tag: "operator",
  auth: "operator",
  params: SubmissionParams,
  response: z.object({ submission: OperatorIdentityView, history: z.array(OperatorIdentityView) }),
  errors: ["identity_submission_not_found"],
});

export const operatorApproveIdentityEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/identity/:submissionId/approve",
  summary: "Pass an identity submission under review",
  tag: "operator",
  auth: "operator",
  params: SubmissionParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ submission: OperatorIdentityView }),
  errors: ["identity_submission_not_found", "identity_submission_decided"],
});

export const operatorRejectIdentityEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/identity/:submissionId/reject",
  summary: "Refuse an identity submission with a reason from the list, or `other` and free text",
  tag: "operator",
  auth: "operator",
  params: SubmissionParams,
  body: z
    .strictObject({ reason: IdentityRejectReason, text: Text(500).optional() })
    .refine((b) => b.reason !== "other" || b.text !== undefined, {
      message: "text is required when the reason is other",
      path: ["text"],
    }),
  response: z.object({ submission: OperatorIdentityView }),
  errors: ["identity_submission_not_found", "identity_submission_decided"],
});
