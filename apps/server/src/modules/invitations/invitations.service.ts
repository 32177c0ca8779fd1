import type { InvitationsMe } from "@candor/contract";
import QRCode from "qrcode";
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

/** My invite code, link and the users who registered with it. */
export class InvitationsService {
  constructor(private readonly repository: InvitationsRepository) {}

  async me(userId: bigint, origin: string, limit: number): Promise<InvitationsMe> {
    const inviteCode = await this.repository.inviteCode(userId);
    const link = inviteLink(origin, inviteCode);
    const [invitedCount, invitees, qrSvg] = await Promise.all([
      this.repository.inviteeCount(userId),
      this.repository.invitees(userId, limit),
      QRCode.toString(link, { type: "svg", errorCorrectionLevel: "M", margin: 2 }),
    ]);
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
    };
  }
}
