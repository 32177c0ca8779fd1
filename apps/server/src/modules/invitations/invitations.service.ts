import { randomUUID } from "node:crypto";
import type { InvitationsMe, RebateProduct } from "@candor/contract";
import { formatAmount, getAssets, referralShares, type Mode } from "@candor/kernel";
import QRCode from "qrcode";
import { AppError } from "../../http/app-error.ts";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { submit } from "../../engine/submit.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { maskName } from "../auth/auth.service.ts";
import type { InvitationsRepository, InviteeRow } from "./invitations.repository.ts";

/**
 * An invited account as the inviter sees it: the e-mail's name masked (domain kept), a phone
 * number's first three and last two digits, a wallet's first six and last four characters.
 */
export function maskAccount(row: Pick<InviteeRow, "email" | "phone" | "wallet_address">): string {
  if (row.email) {
    const at = row.email.lastIndexOf("@");
    return `${maskName(row.email.slice(0, at))}${row.email.slice(at)}`;
  }
  if (row.phone) return `${row.phone.slice(0, 3)}****${row.phone.slice(-2)}`;
  if (row.wallet_address) {
    return `${row.wallet_address.slice(0, 6)}…${row.wallet_address.slice(-4)}`;
  }
  return "***";
}

/** The registration link of an invite code at `origin` (the web app routes by hash). */
export function inviteLink(origin: string, inviteCode: string): string {
  return `${origin.replace(/\/+$/, "")}/#/register?invite=${encodeURIComponent(inviteCode)}`;
}

const dayMs = 86_400_000;

/** The start of the UTC day and of the UTC month of `nowMs`. */
export function periodStarts(nowMs: number): { dayMs: number; monthMs: number } {
  const now = new Date(nowMs);
  return {
    dayMs: Math.floor(nowMs / dayMs) * dayMs,
    monthMs: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
  };
}

/** My invite code, link, the users who registered with it, and the rebates paid to me. */
export class InvitationsService {
  constructor(
    private readonly repository: InvitationsRepository,
    private readonly engine: EngineSubmitQuery | undefined,
    private readonly now: () => number,
  ) {}

  private scales(): Map<string, number> {
    const assets = this.engine?.query((s) => getAssets(s)) ?? [];
    return new Map(assets.map((a) => [a.assetId, a.scale]));
  }

  async me(userId: bigint, mode: Mode, origin: string, limit: number): Promise<InvitationsMe> {
    const inviteCode = await this.repository.inviteCode(userId);
    const link = inviteLink(origin, inviteCode);
    const { dayMs: today, monthMs } = periodStarts(this.now());
    const [invitedCount, invitees, qrSvg, totals, rebates] = await Promise.all([
      this.repository.inviteeCount(userId),
      this.repository.invitees(userId, limit),
      QRCode.toString(link, { type: "svg", errorCorrectionLevel: "M", margin: 2 }),
      this.repository.rebateTotals(userId, mode, today, monthMs),
      this.repository.rebates(userId, mode, limit),
    ]);
    const scales = this.scales();
    const amount = (assetId: string, units: string) =>
      formatAmount(BigInt(units), scales.get(assetId) ?? 0);
    return {
      userId: String(userId),
      inviteCode,
      link,
      qrSvg,
      invitedCount,
      records: invitees.map((row) => ({
        account: maskAccount(row),
        joinedAt: row.created_at.toISOString(),
      })),
      rebateTotals: totals.map((row) => ({
        asset: row.asset_id,
        total: amount(row.asset_id, row.total),
        today: amount(row.asset_id, row.today),
        month: amount(row.asset_id, row.month),
      })),
      rebateRecords: rebates.map((row) => ({
        account: maskAccount(row),
        product: row.product,
        asset: row.asset_id,
        fee: amount(row.asset_id, row.fee),
        rebate: amount(row.asset_id, row.rebate),
        paidAt: new Date(Number(row.at_ms)).toISOString(),
      })),
      rebateShares: this.shares(mode),
    };
  }

  private shares(mode: Mode): Record<RebateProduct, number> {
    return this.engine?.query((s) => referralShares(s, mode)) ?? { spot: 0, perp: 0, stocks: 0 };
  }

  /** Operator: sets one product's rebate share in one mode (through the kernel). */
  async configure(
    input: { mode: Mode; product: RebateProduct; rebateBps: number; reason: string },
    operatorId: string | null,
  ): Promise<{ mode: Mode; rebateShares: Record<RebateProduct, number> }> {
    if (!this.engine) throw new AppError("service_unavailable");
    const applied = await submit(this.engine, {
      type: "referral_configure",
      // Each change is its own command: the time alone repeats within a millisecond (or under a
      // fixed clock), and the journal refuses a repeated id as client_order_id_reused.
      id: `referral-configure-${input.mode}-${input.product}-${this.now()}-${randomUUID()}`,
      mode: input.mode,
      product: input.product,
      rebateBps: input.rebateBps,
      operatorId: operatorId ?? "operator",
    });
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    return { mode: input.mode, rebateShares: this.shares(input.mode) };
  }
}
