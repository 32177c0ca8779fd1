import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { decimalString, defineEndpoint } from "./endpoint.ts";
import { DecimalString } from "./market.ts";
import { AssetId } from "./wallet.ts";

/**
 * Uploads (images checked by content, re-encoded without metadata, stored outside the web root)
 * and bank deposits: the user asks for a deposit with a payment-proof image, an operator
 * credits it through the journaled operator deposit or rejects it with a reason (issue 16).
 */

/** What an upload is for; each purpose decides who may see it besides its owner (operators). */
export const UploadPurpose = z.enum([
  "bank_deposit_proof",
  "identity_document",
  "avatar",
  "support_image",
  /** An operator's image for a home-page banner: public while its banner is shown. */
  "banner_image",
]);
export type UploadPurpose = z.infer<typeof UploadPurpose>;
/** What a user may upload: every purpose but an operator's banner image. */
export const UserUploadPurpose = UploadPurpose.exclude(["banner_image"]);
/** What an operator may upload: a banner's image, or an image in a support answer. */
export const OperatorUploadPurpose = UploadPurpose.extract(["banner_image", "support_image"]);
export type OperatorUploadPurpose = z.infer<typeof OperatorUploadPurpose>;

/** A random 32-hex-digit id: names the stored file and says nothing about its owner. */
export const UploadId = z.string().regex(/^[0-9a-f]{32}$/, "must be an upload id");

export const UploadView = z.object({
  uploadId: z.string(),
  purpose: UploadPurpose,
  /** The re-encoded file's type: `image/jpeg` or `image/png`, whatever the client declared. */
  contentType: z.enum(["image/jpeg", "image/png"]),
  byteSize: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  createdAtMs: z.number().int(),
});
export type UploadView = z.infer<typeof UploadView>;

const uploadErrors = [
  "unsupported_media_type",
  "upload_not_an_image",
  "upload_too_large",
  "upload_too_many_pixels",
] as const;

export const uploadImageEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/uploads",
  summary: "Upload an image (multipart field `file`): checked by content, re-encoded, stored",
  tag: "uploads",
  auth: "user",
  query: z.strictObject({ purpose: UserUploadPurpose }),
  response: z.object({ upload: UploadView }),
  errors: uploadErrors,
  description:
    "A `multipart/form-data` body with one file part named `file`. The file is recognised by " +
    "its first bytes (JPEG or PNG; the name and declared type are ignored), refused when it is " +
    "larger than the configured bytes or pixels, decoded and re-encoded in the same format " +
    "without any metadata (EXIF, GPS, comments, trailing data), and stored under a random name.",
});

const UploadParams = z.strictObject({ uploadId: UploadId });

export const uploadFileEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/uploads/:uploadId",
  summary: "The re-encoded image of one of the user's uploads",
  tag: "uploads",
  auth: "user",
  params: UploadParams,
  response: z.unknown(),
  errors: ["upload_not_found"],
  description:
    "The stored bytes with the re-encoded type, `X-Content-Type-Options: nosniff`, an inline " +
    "disposition with a generated name and a CSP that allows no script. Another user's upload " +
    "answers `upload_not_found`, as one that does not exist.",
});

export const operatorUploadImageEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/uploads",
  summary: "Operator: upload a banner or support-answer image (multipart field `file`)",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({ purpose: OperatorUploadPurpose }),
  response: z.object({ upload: UploadView }),
  errors: uploadErrors,
  description:
    "As `POST /api/v1/uploads`, for the operator: the image is recorded as the operator's. A " +
    "`banner_image` becomes public only through a banner that shows it, while that banner is " +
    "shown; a `support_image` is seen only by the conversation it is sent in.",
});

export const operatorUploadFileEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/uploads/:uploadId",
  summary: "Any upload's re-encoded image (operator)",
  tag: "operator",
  auth: "operator",
  params: UploadParams,
  response: z.unknown(),
  errors: ["upload_not_found"],
});

export const BankDepositState = z.enum(["pending", "crediting", "credited", "rejected"]);
export type BankDepositState = z.infer<typeof BankDepositState>;

export const BankDepositView = z.object({
  depositId: z.string(),
  assetId: z.string(),
  amount: DecimalString,
  /** `crediting` is the short step between the operator's click and the ledger's posting. */
  state: BankDepositState,
  proofUploadId: z.string(),
  rejectReason: z.string().nullable(),
  /** Ledger posting of the credit, once credited. */
  postingSeq: z.number().int().nullable(),
  createdAtMs: z.number().int(),
  decidedAtMs: z.number().int().nullable(),
});
export type BankDepositView = z.infer<typeof BankDepositView>;

export const BankDetailsView = z.object({
  bankName: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  /** SWIFT/BIC, sort code or routing number, when configured. */
  bankCode: z.string().nullable(),
  /** The operator's instruction, e.g. what to write in the transfer's reference. */
  note: z.string().nullable(),
});
export type BankDetailsView = z.infer<typeof BankDetailsView>;

export const bankDepositOptionsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/bank-deposits/options",
  summary: "Where to send a bank transfer and which assets can be deposited",
  tag: "wallet",
  auth: "user",
  response: z.object({
    /** Null when the operator has not configured bank details: bank deposits are off. */
    bank: BankDetailsView.nullable(),
    assets: z.array(z.object({ assetId: z.string(), decimals: z.number().int() })),
    /** Largest upload accepted, in bytes. */
    maxUploadBytes: z.number().int(),
  }),
});

export const CreateBankDepositBody = z.strictObject({
  assetId: AssetId,
  amount: decimalString(18, { positive: true }),
  proofUploadId: UploadId,
});

export const createBankDepositEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/bank-deposits",
  summary: "Ask for a bank deposit to be credited (real money only)",
  tag: "wallet",
  auth: "user",
  body: CreateBankDepositBody,
  response: z.object({ deposit: BankDepositView }),
  errors: [
    "demo_deposit_not_allowed",
    "bank_deposit_unavailable",
    "asset_not_found",
    "amount_too_many_decimals",
    "upload_not_found",
    "bank_deposit_proof_used",
  ],
  description:
    "Records a pending request; nothing is credited until an operator credits it. The proof " +
    "must be the caller's own `bank_deposit_proof` upload, used by no other request.",
});

export const listBankDepositsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/bank-deposits",
  summary: "The user's bank deposit requests, newest first",
  tag: "wallet",
  auth: "user",
  response: z.object({ items: z.array(BankDepositView) }),
});

export const OperatorBankDepositView = BankDepositView.extend({
  ownerId: z.string(),
  /** Path of the proof image for operators. */
  proofUrl: z.string(),
});

export const operatorListBankDepositsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/bank-deposits",
  summary: "Bank deposit requests in one state (default pending), oldest first",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({ state: BankDepositState.optional() }),
  response: z.object({ items: z.array(OperatorBankDepositView) }),
});

const DepositParams = z.strictObject({
  depositId: z.string().regex(/^[1-9]\d{0,18}$/, "must be a deposit id"),
});

export const operatorCreditBankDepositEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/bank-deposits/:depositId/credit",
  summary: "Credit a bank deposit request (exactly once, however often it is called)",
  tag: "operator",
  auth: "operator",
  params: DepositParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ deposit: OperatorBankDepositView, duplicate: z.boolean() }),
  errors: ["bank_deposit_not_found", "bank_deposit_closed", "command_rejected"],
  description:
    "Credits through the journaled operator deposit (`credit_deposit`, command id and " +
    "reference `bank_deposit:<id>`, operator named on the posting). A second call answers " +
    "the credited request with `duplicate: true` and credits nothing; a rejected request " +
    "answers `bank_deposit_closed`.",
});

export const operatorRejectBankDepositEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/bank-deposits/:depositId/reject",
  summary: "Reject a pending bank deposit request with a reason the user sees",
  tag: "operator",
  auth: "operator",
  params: DepositParams,
  body: z.strictObject({ reason: OperatorReason }),
  response: z.object({ deposit: OperatorBankDepositView }),
  errors: ["bank_deposit_not_found", "bank_deposit_closed"],
});
