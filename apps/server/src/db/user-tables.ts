import type { Generated } from "kysely";

/** Tables of users, sessions and sign-in (migration 0003). */
export interface UserTables {
  users: {
    id: Generated<bigint>;
    kind: "email" | "phone" | "wallet" | "demo";
    email: string | null;
    phone: string | null;
    wallet_address: string | null;
    demo_name: string | null;
    password_hash: string | null;
    trade_password_hash: string | null;
    email_verified: Generated<boolean>;
    nickname: string;
    avatar: Generated<number>;
    invite_code: string;
    inviter_id: bigint | null;
    demo_only: Generated<boolean>;
    verification: Generated<"unverified" | "under_review" | "passed" | "not_approved">;
    /** Set while an operator has frozen the user (migration 0025). */
    frozen_at: Generated<Date | null>;
    frozen_by: Generated<string | null>;
    frozen_reason: Generated<string | null>;
    created_at: Date;
    /** Migration 0026: country of residence, anti-phishing code, uploaded avatar. */
    country: Generated<string | null>;
    anti_phishing_code: Generated<string | null>;
    avatar_upload_id: Generated<string | null>;
  };
  sessions: {
    token_hash: string;
    user_id: bigint;
    mode: "real" | "demo";
    created_at: Date;
    expires_at: Date;
    revoked_at: Date | null;
  };
  captchas: { id: string; answer_hash: string; expires_at: Date; used_at: Date | null };
  email_codes: {
    id: Generated<bigint>;
    email: string;
    purpose: "register" | "reset_password";
    code_hash: string;
    created_at: Date;
    expires_at: Date;
    used_at: Date | null;
    attempts: Generated<number>;
  };
  login_failures: { id: Generated<bigint>; account: string; at: Date };
  wallet_nonces: {
    nonce: string;
    address: string;
    chain_id: number;
    issued_at: Date;
    expires_at: Date;
    used_at: Date | null;
  };
  outbox_emails: {
    id: Generated<bigint>;
    to_address: string;
    subject: string;
    body_text: string;
    delivery: "outbox" | "smtp" | "sms";
    created_at: Date;
  };
}
