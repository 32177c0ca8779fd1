import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { decimalString, defineEndpoint, issueKey } from "./endpoint.ts";
import { InstrumentId } from "./market.ts";

/**
 * The public tape (issue 4): every recorded price tick and every fill, by journal sequence, so
 * anyone can check fills and settlements against the prices the kernel used. Fills carry no
 * user ids; system accounts (market maker, house, …) are named, as DESIGN §1.7 asks.
 */

/** A journal sequence number in a query string: 1 to 18 digits. */
const SequenceParam = z.string().regex(/^[1-9]\d{0,17}$/, "must be a positive whole number");

export const TapeQuery = z
  .strictObject({
    /** First journal sequence to include. */
    from: SequenceParam,
    /** Last journal sequence to include (default: from + 9,999); at most 10,000 sequences. */
    to: SequenceParam.optional(),
    /** Fills of real or demo books (default real). */
    mode: z.enum(["real", "demo"]).optional(),
  })
  .refine((q) => rangeValid(q.from, q.to), { ...issueKey("range_invalid"), path: ["to"] });

function rangeValid(from: string, to: string | undefined) {
  if (to === undefined) return true;
  try {
    const span = BigInt(to) - BigInt(from);
    return span >= 0n && span < 10_000n;
  } catch {
    return true; // The field's own rule reports it.
  }
}

/** Most journal sequences one tape request covers. */
export const tapeSequencesMax = 10_000;

export const TapeTick = z.object({
  sequence: z.string(),
  instrumentId: z.string(),
  tickId: z.string(),
  /** Decimal string, as recorded. */
  price: z.string(),
  tickAtMs: z.number().int(),
});

export const TapeFill = z.object({
  sequence: z.string(),
  fillId: z.string(),
  marketId: z.string(),
  mode: z.enum(["real", "demo"]),
  takerSide: z.string(),
  priceTicks: z.string(),
  quantityLots: z.string(),
  /** Smallest units of the base asset, as a whole-number string. */
  baseAmount: z.string(),
  /** Smallest units of the quote asset, as a whole-number string. */
  quoteAmount: z.string(),
  /** `system:market_maker` etc. for system accounts, `user` for anyone else. */
  maker: z.string(),
  taker: z.string(),
  /** The tick the fill's price band used, or null. */
  tickId: z.string().nullable(),
  atMs: z.number().int(),
});

export const TapePage = z.object({
  from: z.string(),
  to: z.string(),
  /** Journal sequence up to which the tape is complete (the read models' cursor). */
  completeTo: z.string(),
  ticks: z.array(TapeTick),
  fills: z.array(TapeFill),
});
export type TapePage = z.infer<typeof TapePage>;

export const tapeEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/tape",
  summary: "Recorded price ticks and anonymised fills by journal sequence range",
  tag: "tape",
  auth: "none",
  query: TapeQuery,
  response: TapePage,
  description:
    "Pages through the public tape by journal sequence: `from` to `to` (at most 10,000 " +
    "sequences per request; continue with from = to + 1). Ticks and fills are read from the " +
    "read models, which are rebuilt from the journal; `completeTo` says how far they reach.",
});

/** Most neighbours on each side of a tick one request returns. */
export const tickNeighboursMax = 50;

/** GET /api/v1/tape/tick?instrumentId=&tickId=&around= */
export const TickQuery = z.strictObject({
  instrumentId: InstrumentId,
  tickId: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, "must be a tick id"),
  around: z.coerce.number().int().min(0).max(tickNeighboursMax).default(10),
});

/** One recorded tick with the ticks of its instrument just before and after it. */
export const TickNeighbourhood = z.object({
  tick: TapeTick,
  /** Oldest first, ending just before `tick`. */
  before: z.array(TapeTick),
  /** Oldest first, starting just after `tick`. */
  after: z.array(TapeTick),
});
export type TickNeighbourhood = z.infer<typeof TickNeighbourhood>;

export const tapeTickEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/v1/tape/tick",
  summary: "One recorded tick with its neighbours (the tape viewer)",
  tag: "tape",
  auth: "none",
  query: TickQuery,
  response: TickNeighbourhood,
  errors: ["not_found"],
  description:
    "The tick a fill or settlement cites, by instrument and tick id, with up to `around` ticks " +
    "of the same instrument on each side, in journal order.",
});

export const OperatorDepositBody = z.strictObject({
  /** Idempotency key: the same id credits at most once. 1–100 characters. */
  id: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, "must be 1–100 letters, digits or . _ : -"),
  /** The user id to credit (decimal digits). */
  ownerId: z.string().regex(/^[1-9]\d{0,18}$/, "must be a user id"),
  assetId: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, "must be an asset id"),
  /** Decimal string; more decimals than the asset has are rejected, never rounded. */
  amount: decimalString(18, { positive: true }),
  /** Chain transaction or bank reference, 1–200 characters. */
  reference: z.string().min(1).max(200),
  /** Why (audit log and the user's history). */
  reason: OperatorReason,
});

export const OperatorDepositResult = z.object({
  /** Journal sequence of the credit. */
  sequence: z.string(),
  /** True when this id was credited before: nothing changed this time. */
  duplicate: z.boolean(),
  /** Kernel posting sequence of the credit. */
  postingSeq: z.number().int().nullable(),
  /**
   * Set when the amount is above the two-person limit (`MANUAL_ADJUSTMENT_TWO_PERSON_ABOVE`):
   * nothing was credited yet; the request waits for a second, different operator
   * (POST /api/v1/operator/adjustments/:adjustmentId/approve). `sequence` is "" then.
   */
  pendingAdjustmentId: z.string().nullable(),
});

export const operatorDepositEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/deposits",
  summary: "Credit a user's real deposit (operator; idempotent by id)",
  tag: "operator",
  auth: "operator",
  body: OperatorDepositBody,
  response: OperatorDepositResult,
  errors: ["command_rejected", "user_not_found"],
  description:
    "Moves `amount` from external clearing into the user's real fund wallet, as a journaled " +
    "`credit_deposit` command with the operator named on the posting. Only an existing user " +
    "whose real accounts are open can be credited (`user_not_found` otherwise). Repeating an id " +
    "returns the first result and credits nothing; repeating an id with different fields is " +
    "refused (`command_rejected`, `command_id_reused`) and credits nothing.",
});
