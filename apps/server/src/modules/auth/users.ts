import { createHash, randomInt } from "node:crypto";
import type { UserInfo } from "@candor/contract";

/** The columns of a user that the app shows (see `AuthRepository.user`). */
export interface UserRow {
  id: bigint;
  kind: "email" | "phone" | "wallet" | "demo";
  email: string | null;
  phone: string | null;
  wallet_address: string | null;
  nickname: string;
  avatar: number;
  demo_only: boolean;
  email_verified: boolean;
  verification: "unverified" | "under_review" | "passed" | "not_approved";
  trade_password_hash: string | null;
  invite_code: string;
  created_at: Date;
  country: string | null;
  anti_phishing_code: string | null;
  avatar_upload_id: string | null;
}

/** A user as the app shows it, in a session of `mode` (demo-only users are always in demo). */
export function toUserInfo(row: UserRow, mode: "real" | "demo"): UserInfo {
  const sessionMode = row.demo_only ? "demo" : mode;
  return {
    id: String(row.id),
    username: row.email ?? row.phone ?? row.wallet_address ?? `demo-${row.id}`,
    kind: row.kind,
    email: row.email,
    phone: row.phone,
    walletAddress: row.wallet_address,
    nickname: row.nickname,
    avatar: row.avatar,
    isVirtual: sessionMode === "demo",
    mode: sessionMode,
    demoOnly: row.demo_only,
    emailVerified: row.email_verified,
    verification: row.verification,
    tradePasswordSet: row.trade_password_hash !== null,
    inviteCode: row.invite_code,
    createdAt: row.created_at.toISOString(),
    country: row.country,
    antiPhishingCode: row.anti_phishing_code,
    avatarUploadId: row.avatar_upload_id,
  };
}

/** Eight characters from an alphabet without look-alikes (0/O, 1/I). */
export function newInviteCode(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from({ length: 8 }, () => alphabet[randomInt(0, alphabet.length)]).join("");
}

/** SHA-256, hex: how tokens, codes and resume keys are stored. */
export function sha256Hex(text: string) {
  return createHash("sha256").update(text).digest("hex");
}
