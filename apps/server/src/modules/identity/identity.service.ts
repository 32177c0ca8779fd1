import type {
  EndpointBody,
  IdentityOverview,
  IdentityRejectReason,
  IdentityState,
  IdentitySubmissionView,
  IdentityTier,
  OperatorIdentityView,
  submitAdvancedIdentityEndpoint,
  submitBasicIdentityEndpoint,
} from "@candor/contract";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import { IdentityRepository, type IdentityRow } from "./identity.repository.ts";

export interface IdentityOptions {
  database: Database;
  now: () => number;
  uploads: UploadsService;
}

const tierRank: Record<IdentityTier, number> = { basic: 1, advanced: 2 };

/** True when `passed` is at least `needed`. */
export function tierCovers(passed: IdentityTier | null, needed: IdentityTier): boolean {
  return passed !== null && tierRank[passed] >= tierRank[needed];
}

function splitReason(stored: string | null): {
  rejectReason: IdentityRejectReason | null;
  rejectText: string | null;
} {
  if (stored === null) return { rejectReason: null, rejectText: null };
  if (stored.startsWith("other:")) return { rejectReason: "other", rejectText: stored.slice(6) };
  return { rejectReason: stored as IdentityRejectReason, rejectText: null };
}

function maskNumber(number: string | null): string | null {
  if (number === null) return null;
  const visible = number.slice(-4);
  return `${"*".repeat(Math.max(0, Math.min(number.length - 4, 8)))}${visible}`;
}

function userView(row: IdentityRow): IdentitySubmissionView {
  return {
    submissionId: row.id,
    tier: row.tier,
    state: row.state,
    country: row.country,
    realName: row.realName,
    documentType: row.documentType,
    documentNumberMasked: maskNumber(row.documentNumber),
    frontUploadId: row.frontUploadId,
    backUploadId: row.backUploadId,
    selfieUploadId: row.selfieUploadId,
    ...splitReason(row.rejectReason),
    createdAtMs: row.createdAtMs,
    decidedAtMs: row.decidedAtMs,
    // An advanced submission always carries a front image until its owner deletes them.
    documentsDeleted: row.tier === "advanced" && row.frontUploadId === null,
  };
}

function operatorView(row: IdentityRow): OperatorIdentityView {
  return {
    ...userView(row),
    userId: String(row.userId),
    documentNumber: row.documentNumber,
    operatorId: row.operatorId,
  };
}

/**
 * Identity verification (issue 17): the user submits the basic tier (nationality, real name,
 * document type and number), then the advanced tier (document photos through the uploads
 * pipeline); an operator passes or refuses each with a reason, recorded with the operator's id.
 * A refused tier can be submitted again; one under review cannot be changed.
 */
export class IdentityService {
  private readonly repository: IdentityRepository;

  constructor(private readonly options: IdentityOptions) {
    this.repository = new IdentityRepository(options.database);
  }

  async overview(userId: bigint): Promise<IdentityOverview> {
    const rows = await this.repository.ofUser(userId);
    const passed = rows.filter((row) => row.state === "passed").map((row) => row.tier);
    const passedTier: IdentityTier | null = passed.includes("advanced")
      ? "advanced"
      : passed.includes("basic")
        ? "basic"
        : null;
    return {
      state: rows[0]?.state ?? "unverified",
      passedTier,
      history: rows.map(userView),
    };
  }

  async submitBasic(
    user: AuthUser,
    body: EndpointBody<typeof submitBasicIdentityEndpoint>,
  ): Promise<IdentityOverview> {
    await this.checkCanSubmit(user, "basic");
    await this.insert({
      userId: user.id,
      tier: "basic",
      country: body.country,
      realName: body.realName,
      documentType: body.documentType,
      documentNumber: body.documentNumber.replace(/\s+/g, " ").toUpperCase(),
    });
    return this.overview(user.id);
  }

  async submitAdvanced(
    user: AuthUser,
    body: EndpointBody<typeof submitAdvancedIdentityEndpoint>,
  ): Promise<IdentityOverview> {
    await this.checkCanSubmit(user, "advanced");
    if (!tierCovers(await this.repository.passedTier(user.id), "basic")) {
      throw new AppError("identity_basic_required");
    }
    const ids = [body.frontUploadId, body.backUploadId, body.selfieUploadId].filter(
      (id): id is string => id !== undefined,
    );
    if (new Set(ids).size !== ids.length) throw new AppError("upload_not_found");
    for (const id of ids) {
      const upload = await this.options.uploads.ownedBy(id, String(user.id));
      if (!upload || upload.purpose !== "identity_document") {
        throw new AppError("upload_not_found");
      }
    }
    await this.insert({
      userId: user.id,
      tier: "advanced",
      frontUploadId: body.frontUploadId,
      backUploadId: body.backUploadId,
      ...(body.selfieUploadId ? { selfieUploadId: body.selfieUploadId } : {}),
    });
    return this.overview(user.id);
  }

  /**
   * The owner deletes the document images of a decided submission (issue 17): the decision
   * (state, reason, operator, dates) stays, the files and their upload records go. Refused while
   * under review; another user's submission is "not found". Returns the upload ids removed
   * (none when there was nothing left to delete) for the audit entry.
   */
  async deleteDocuments(
    userId: bigint,
    submissionId: string,
  ): Promise<{ overview: IdentityOverview; removed: string[] }> {
    const found = await this.repository.find(submissionId);
    if (!found || found.userId !== userId) throw new AppError("identity_submission_not_found");
    if (found.state === "under_review") throw new AppError("identity_under_review");
    const before = await this.repository.clearDocuments(submissionId, userId);
    if (!before) throw new AppError("identity_under_review");
    const ids = [before.frontUploadId, before.backUploadId, before.selfieUploadId].filter(
      (id): id is string => id !== null,
    );
    // A resubmission may show the same images: those stay until it is deleted too.
    const inUse = await this.repository.uploadsInUse(userId, ids);
    const removed: string[] = [];
    for (const id of ids) {
      if (inUse.has(id)) continue;
      if (await this.options.uploads.remove(id, String(userId))) removed.push(id);
    }
    return { overview: await this.overview(userId), removed };
  }

  /** The highest tier the user has passed (for limits tied to a tier). */
  passedTier(userId: bigint): Promise<IdentityTier | null> {
    return this.repository.passedTier(userId);
  }

  // The operator's review.

  async queue(state: IdentityRow["state"] | undefined, limit: number) {
    return { items: (await this.repository.inState(state, limit)).map(operatorView) };
  }

  async detail(id: string) {
    const row = await this.repository.find(id);
    if (!row) throw new AppError("identity_submission_not_found");
    const history = await this.repository.ofUser(row.userId);
    return { submission: operatorView(row), history: history.map(operatorView) };
  }

  async approve(id: string, operatorId: string) {
    return this.decide(id, { state: "passed", reason: null, operatorId });
  }

  async reject(
    id: string,
    reason: IdentityRejectReason,
    text: string | undefined,
    operatorId: string,
  ) {
    const stored = reason === "other" ? `other:${text ?? ""}` : reason;
    return this.decide(id, { state: "not_approved", reason: stored, operatorId });
  }

  private async decide(
    id: string,
    decision: { state: "passed" | "not_approved"; reason: string | null; operatorId: string },
  ) {
    const decided = await this.repository.decide(id, decision, this.options.now());
    if (!decided) {
      const found = await this.repository.find(id);
      throw new AppError(found ? "identity_submission_decided" : "identity_submission_not_found");
    }
    await this.syncUser(decided.userId);
    return { submission: operatorView(decided) };
  }

  private async checkCanSubmit(user: AuthUser, tier: IdentityTier): Promise<void> {
    if (user.demoOnly) throw new AppError("demo_not_allowed");
    const rows = await this.repository.ofUser(user.id);
    if (rows.some((row) => row.tier === tier && row.state === "under_review")) {
      throw new AppError("identity_under_review");
    }
    if (rows.some((row) => row.tier === tier && row.state === "passed")) {
      throw new AppError("identity_already_passed");
    }
  }

  private async insert(input: Omit<Parameters<IdentityRepository["insert"]>[0], "atMs">) {
    const row = await this.repository.insert({ ...input, atMs: this.options.now() });
    if (!row) throw new AppError("identity_under_review");
    await this.syncUser(input.userId);
  }

  /** The profile's verification state: the latest submission's, or `unverified`. */
  private async syncUser(userId: bigint): Promise<void> {
    const latest = (await this.repository.ofUser(userId, 1))[0];
    const state: IdentityState = latest?.state ?? "unverified";
    await this.repository.setUserVerification(userId, state);
  }
}
