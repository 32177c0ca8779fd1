import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Proof of liabilities (issue 24): a Merkle sum tree over every real user's balances per asset
 * (available + held) at one journal sequence, built by `@candor/proof`. The root is public; each
 * user fetches their own inclusion proof and checks it in the browser or with
 * `scripts/verify-liabilities.ts`. The JSON shapes are `@candor/proof`'s `RootJson` and
 * `ProofJson` (amounts as decimal strings of smallest units); the verifier decodes them strictly,
 * so these schemas only describe them.
 */

const hash = z.string().regex(/^[0-9a-f]{64}$/);
const amounts = z.array(z.string());

export const LiabilityRootJson = z.object({
  version: z.literal(1),
  assets: z.array(z.string()),
  bits: z.number().int(),
  leafCount: z.number().int().nonnegative(),
  hash,
  sums: amounts,
});

export const LiabilityProofJson = z.object({
  version: z.literal(1),
  assets: z.array(z.string()),
  bits: z.number().int(),
  leafCount: z.number().int().nonnegative(),
  leaf: z.object({ id: hash, salt: z.string(), values: amounts }),
  path: z.array(z.object({ side: z.enum(["left", "right"]), hash, sums: amounts })),
});

/** One published root: which journal sequence it covers and when it was published. */
export const LiabilityPublication = z.object({
  /** Journal sequence whose kernel state the tree was built from. */
  sequence: z.string(),
  /** Milliseconds since the epoch. */
  publishedAtMs: z.number().int(),
  root: LiabilityRootJson,
  /** Decimals of each asset of `root.assets` (same order), to show amounts; not part of the proof. */
  scales: z.array(z.number().int().nonnegative()),
});
export type LiabilityPublication = z.infer<typeof LiabilityPublication>;

/** Most publications one page of the history holds. */
export const liabilityPublicationsMax = 100;

export const LiabilityHistoryQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(liabilityPublicationsMax).default(20),
});

export const LiabilityHistory = z.object({
  /** Newest first. */
  items: z.array(LiabilityPublication),
});

/** The signed-in user's inclusion proof in the latest publication. */
export const MyLiabilityProof = z.object({
  publication: LiabilityPublication,
  /** The user id the leaf was built for (the verifier hashes it with the salt). */
  userId: z.string(),
  proof: LiabilityProofJson,
});
export type MyLiabilityProof = z.infer<typeof MyLiabilityProof>;

/** GET /api/v1/proof/liabilities: the latest published root. */
export const latestLiabilitiesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/proof/liabilities",
  summary: "The latest published proof-of-liabilities root",
  tag: "proof",
  auth: "none",
  response: LiabilityPublication,
  errors: ["proof_not_published"],
  description:
    "The root hash, leaf count and per-asset totals (smallest units) of the latest Merkle sum " +
    "tree over real users' balances, and the journal sequence it was built at.",
});

/** GET /api/v1/proof/liabilities/history: earlier roots, newest first. */
export const liabilitiesHistoryEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/proof/liabilities/history",
  summary: "Published proof-of-liabilities roots, newest first",
  tag: "proof",
  auth: "none",
  query: LiabilityHistoryQuery,
  response: LiabilityHistory,
});

/** GET /api/v1/proof/liabilities/me: the caller's inclusion proof. */
export const myLiabilityProofEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/proof/liabilities/me",
  summary: "Your inclusion proof in the latest proof of liabilities",
  tag: "proof",
  auth: "user",
  response: MyLiabilityProof,
  errors: ["proof_not_published", "proof_not_included"],
  description:
    "Your leaf (salt and balances per asset) and the sibling hashes and sums up to the root. " +
    "Check it against the root from GET /api/v1/proof/liabilities, not against this answer.",
});

export const PublishLiabilitiesResult = LiabilityPublication;

/** POST /api/v1/operator/proof/liabilities: publish a new root now. */
export const publishLiabilitiesEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/proof/liabilities",
  summary: "Build and publish a proof of liabilities now (operator)",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({ reason: OperatorReason }),
  response: PublishLiabilitiesResult,
  description:
    "Builds the tree from the kernel state at the current journal sequence (off the main " +
    "thread) and publishes its root. Scheduled publication does the same.",
});

/** One system account's holding in one asset (decimal string in asset units). */
export const SystemHolding = z.object({
  /** `system:fees`, `system:market_maker`, `system:house`, `system:insurance_fund`, … */
  ownerId: z.string(),
  assetId: z.string(),
  amount: z.string(),
});

/** The public transparency page: figures read from the kernel's ledger, none typed in. */
export const Transparency = z.object({
  /** Journal sequence the figures were read at. */
  sequence: z.string(),
  /** What Candor owes its real-money users, per asset (decimal strings), right now. */
  liabilities: z.array(z.object({ assetId: z.string(), amount: z.string() })),
  /** Real-money users with an account. */
  users: z.number().int().nonnegative(),
  /**
   * Real-money system accounts. `system:external` is the clearing account of money that came
   * in from outside and left: it is negative by what users deposited net of withdrawals.
   */
  systemAccounts: z.array(SystemHolding),
  /** The latest proof of liabilities, if one was published. */
  proof: LiabilityPublication.nullable(),
  /**
   * Spot trading over the last `days` days, real money: accounts whose fills (and fees) in the
   * period changed their holdings, and how many of them lost money — the net change of every
   * asset valued in `valuationAsset` at the tape's last prices. Read from the ledger's postings.
   */
  spotResults: z.object({
    days: z.number().int().positive(),
    valuationAsset: z.string(),
    accounts: z.number().int().nonnegative(),
    lost: z.number().int().nonnegative(),
    /** Accounts left out because an asset they traded has no price on the tape. */
    unpriced: z.number().int().nonnegative(),
  }),
  /** Each real-money system account's balance at earlier times (postings up to then). */
  systemHistory: z.object({
    /** The times, oldest first (ms since the epoch). */
    atMs: z.array(z.number().int()),
    accounts: z.array(
      z.object({ ownerId: z.string(), assetId: z.string(), amounts: z.array(z.string()) }),
    ),
  }),
});
export type Transparency = z.infer<typeof Transparency>;

/** GET /api/v1/transparency */
export const transparencyEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/transparency",
  summary: "Figures from the ledger: liabilities, system accounts, the latest proof",
  tag: "proof",
  auth: "none",
  response: Transparency,
});
