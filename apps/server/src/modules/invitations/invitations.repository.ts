import type { Database } from "../../db/database.ts";

/** An invited user as the records show it: enough to mask the account, nothing more. */
export interface InviteeRow {
  kind: string;
  email: string | null;
  phone: string | null;
  wallet_address: string | null;
  created_at: Date;
}

/** The only file of the invitations module that speaks SQL. */
export class InvitationsRepository {
  constructor(private readonly database: Database) {}

  async inviteCode(userId: bigint): Promise<string> {
    const row = await this.database.db
      .selectFrom("users")
      .select("invite_code")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return row.invite_code;
  }

  async inviteeCount(inviterId: bigint): Promise<number> {
    const row = await this.database.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("inviter_id", "=", inviterId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The newest `limit` users `inviterId` invited. */
  async invitees(inviterId: bigint, limit: number): Promise<InviteeRow[]> {
    return this.database.db
      .selectFrom("users")
      .select(["kind", "email", "phone", "wallet_address", "created_at"])
      .where("inviter_id", "=", inviterId)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
  }
}
