import type {
  AdjustmentView,
  EndpointBody,
  EndpointData,
  operatorDepositEndpoint,
} from "@candor/contract";
import { getAssets, isOpen, parseAmount } from "@candor/kernel";
import type { z } from "zod";
import { submit, type EngineSubmitQuery } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { AdjustmentRow, AdjustmentsRepository } from "./adjustments.repository.ts";

/**
 * Who may receive a real deposit: the auth module's answer (`AuthService.holdsRealMoney`), so
 * this module never reads the users table itself.
 */
export interface RealMoneyUsers {
  /** True when the user exists and is not a demo-only user. */
  holdsRealMoney(userId: bigint): Promise<boolean>;
}

/** A credit as the operator deposit asks for it (the reason is the audit log's). */
export type DepositInput = Omit<EndpointBody<typeof operatorDepositEndpoint>, "reason">;

/** The two-person rule for manual adjustments (ADJUSTMENT_TWO_APPROVALS_ABOVE). */
export interface AdjustmentRule {
  repository: AdjustmentsRepository;
  /** Asset → amount in whole units above which a second, different operator approves. */
  twoApprovalsAbove: () => Readonly<Record<string, string>>;
  now: () => number;
}

/** How several operators are named on one journaled command: `7+9` (requester, approver). */
export const operatorIdsJoiner = "+";

/**
 * What the operator does by hand, always as journaled kernel commands (never a direct write):
 * crediting a user's real deposit, at once or, above the two-person limit, once a second
 * operator approves. No SQL here: the adjustments' records are in their repository.
 */
export class OperatorService {
  constructor(
    private readonly engine: EngineSubmitQuery,
    private readonly users: RealMoneyUsers,
    private readonly adjustments?: AdjustmentRule,
  ) {}

  /**
   * A manual adjustment by `operatorId`: credited at once up to the two-person limit; above it,
   * recorded as a pending request (nothing credited) that a second, different operator
   * approves. A repeated id answers the first result.
   */
  async adjust(
    body: DepositInput,
    operatorId: string,
    reason: string,
  ): Promise<EndpointData<typeof operatorDepositEndpoint>> {
    const { amount } = this.checked(body);
    await this.requireUser(body.ownerId);
    const above = this.adjustments?.twoApprovalsAbove()[body.assetId];
    const asset = this.assetOf(body.assetId);
    const limit = above === undefined ? undefined : parseAmount(above, asset.scale);
    if (this.adjustments && limit?.ok && amount > limit.value) {
      const { row, duplicate } = await this.adjustments.repository.request({
        requestKey: body.id,
        ownerId: body.ownerId,
        assetId: body.assetId,
        amount: body.amount,
        reference: body.reference,
        reason,
        requestedBy: operatorId,
        atMs: this.adjustments.now(),
      });
      const sameRequest =
        row.ownerId === body.ownerId &&
        row.assetId === body.assetId &&
        row.amount === body.amount &&
        row.reference === body.reference;
      if (!sameRequest) {
        throw new AppError("command_rejected", [{ path: "body.id", message: "command_id_reused" }]);
      }
      return {
        sequence: "",
        duplicate,
        postingSeq: row.postingSeq,
        pendingAdjustmentId: row.id,
      };
    }
    return this.deposit(body, operatorId);
  }

  /**
   * Credits a real deposit once per `body.id`; a repeat answers the first result, and a repeat
   * with different fields is refused by the kernel (`command_id_reused`). Only an existing user
   * whose real accounts are open can be credited: ids are sequential, so crediting an id nobody
   * holds yet would hand the money to whoever registers next (issue 14, item 4).
   */
  async deposit(
    body: DepositInput,
    operatorId: string,
  ): Promise<EndpointData<typeof operatorDepositEndpoint>> {
    const { amount } = this.checked(body);
    await this.requireUser(body.ownerId);
    const applied = await submit(this.engine, {
      type: "credit_deposit",
      id: `operator_deposit:${body.id}`,
      ownerId: body.ownerId,
      mode: "real",
      assetId: body.assetId,
      amount,
      reference: body.reference,
      operatorId,
    });
    if (!applied.result.ok) {
      throw new AppError("command_rejected", [{ path: "body", message: applied.result.code }]);
    }
    return {
      sequence: applied.sequence.toString(),
      duplicate: applied.duplicate,
      postingSeq: applied.result.value.postingSeq,
      pendingAdjustmentId: null,
    };
  }

  /** Pending (or decided) adjustment requests, oldest first. */
  async listAdjustments(status: AdjustmentRow["status"], limit: number) {
    const rows = await this.rule().repository.inStatus(status, limit);
    return { items: rows.map(adjustmentView) };
  }

  /** The adjustment request of `id` (for the audit hook's affected user). */
  async adjustment(id: string): Promise<AdjustmentRow> {
    const row = await this.rule().repository.byId(id);
    if (!row) throw new AppError("adjustment_not_found");
    return row;
  }

  /**
   * The second approval: a different operator than the requester. Only then is the credit
   * issued, as one journaled command that names both (`requester+approver`).
   */
  async approveAdjustment(id: string, operatorId: string, reason: string) {
    const rule = this.rule();
    const row = await this.adjustment(id);
    if (row.status !== "pending") throw new AppError("adjustment_state_invalid");
    if (row.requestedBy === operatorId) throw new AppError("approval_same_operator");
    // Claim it first, so two approvers at once cannot both credit.
    const claimed = await rule.repository.decide(id, "credited", {
      operatorId,
      reason,
      atMs: rule.now(),
    });
    if (!claimed) throw new AppError("adjustment_state_invalid");
    try {
      const applied = await this.deposit(
        {
          id: row.requestKey,
          ownerId: row.ownerId,
          assetId: row.assetId,
          amount: row.amount,
          reference: row.reference,
        },
        `${row.requestedBy}${operatorIdsJoiner}${operatorId}`,
      );
      await rule.repository.credited(id, applied.postingSeq, applied.sequence);
    } catch (error) {
      await rule.repository.reopen(id);
      throw error;
    }
    return { adjustment: adjustmentView((await rule.repository.byId(id))!) };
  }

  /** Refuses a pending request (any finance operator, the requester included: it withdraws). */
  async rejectAdjustment(id: string, operatorId: string, reason: string) {
    const rule = this.rule();
    const row = await this.adjustment(id);
    if (row.status !== "pending") throw new AppError("adjustment_state_invalid");
    const decided = await rule.repository.decide(id, "rejected", {
      operatorId,
      reason,
      atMs: rule.now(),
    });
    if (!decided) throw new AppError("adjustment_state_invalid");
    return { adjustment: adjustmentView((await rule.repository.byId(id))!) };
  }

  private rule(): AdjustmentRule {
    if (!this.adjustments) throw new AppError("not_found");
    return this.adjustments;
  }

  private assetOf(assetId: string) {
    const asset = this.engine.query((state) => getAssets(state).find((a) => a.assetId === assetId));
    if (!asset)
      throw new AppError("command_rejected", [
        { path: "body.assetId", message: "asset_not_found" },
      ]);
    return asset;
  }

  private checked(body: DepositInput): { amount: bigint } {
    const asset = this.assetOf(body.assetId);
    const amount = parseAmount(body.amount, asset.scale);
    if (!amount.ok)
      throw new AppError("command_rejected", [{ path: "body.amount", message: amount.code }]);
    return { amount: amount.value };
  }

  private async requireUser(ownerId: string): Promise<void> {
    // Accounts are opened by the auth module at registration and sign-in, never here.
    const opened = this.engine.query((state) => isOpen(state, ownerId, "real"));
    if (!opened || !(await this.users.holdsRealMoney(BigInt(ownerId)))) {
      throw new AppError("user_not_found");
    }
  }
}

function adjustmentView(row: AdjustmentRow): z.infer<typeof AdjustmentView> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    adjustmentId: row.id,
    requestKey: row.requestKey,
    userId: row.ownerId,
    asset: row.assetId,
    amount: row.amount,
    reference: row.reference,
    reason: row.reason,
    status: row.status,
    requestedBy: row.requestedBy,
    requestedAt: new Date(row.requestedAtMs).toISOString(),
    decidedBy: row.decidedBy,
    decidedReason: row.decidedReason,
    decidedAt: iso(row.decidedAtMs),
    postingSeq: row.postingSeq,
  };
}
