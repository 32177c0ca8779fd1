import { isIP } from "node:net";
import { sql } from "kysely";
import type { SignInRecord } from "@candor/contract";
import type { Database } from "../../db/database.ts";
import { cleanUserAgent } from "./session-directory.ts";

/** Where a sign-in came from, as the HTTP layer saw it. */
export interface SignInClient {
  ip: string;
  userAgent: string | undefined;
}

/** One sign-in attempt of a known user. */
export interface SignInAttempt {
  method: SignInRecord["method"];
  succeeded: boolean;
  failure?: "password" | "two_factor";
}

/**
 * An address with its last part hidden: IPv4 keeps three octets (`203.0.113.*`), IPv6 its
 * first three groups (`2001:db8:85a3:*`). Enough for a user to recognise their network, not
 * enough to locate them; only the masked form is stored.
 */
export function maskIp(ip: string): string | null {
  const v4 = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  if (isIP(v4) === 4) return `${v4.split(".").slice(0, 3).join(".")}.*`;
  if (isIP(ip) === 6) {
    const [head = ""] = ip.split("::");
    const groups = head.split(":").filter((group) => group.length > 0);
    return `${[...groups, "0", "0", "0"].slice(0, 3).join(":")}:*`;
  }
  return null;
}

/** How many sign-ins the security centre lists (and each user keeps at most a few more). */
export const signInHistoryShown = 50;
const kept = 200;

/**
 * Every sign-in of a known user, failed attempts included (wrong password, wrong second factor),
 * for the security centre (issue 17). Attempts at unknown accounts name nobody and are not kept.
 */
export class SignInHistory {
  constructor(
    private readonly database: Database,
    private readonly now: () => number,
  ) {}

  private get db() {
    return this.database.db;
  }

  async record(userId: bigint, attempt: SignInAttempt, client: SignInClient | undefined) {
    await sql`
      INSERT INTO sign_in_history (user_id, at, method, succeeded, failure, user_agent, ip_masked)
      VALUES (${userId}, ${new Date(this.now())}, ${attempt.method}, ${attempt.succeeded},
        ${attempt.failure ?? null}, ${cleanUserAgent(client?.userAgent)},
        ${client ? maskIp(client.ip) : null})`.execute(this.db);
    // A user's history stays bounded however often someone guesses at the account.
    await sql`
      DELETE FROM sign_in_history WHERE user_id = ${userId} AND id <= (
        SELECT id FROM sign_in_history WHERE user_id = ${userId}
        ORDER BY id DESC OFFSET ${kept} LIMIT 1)`.execute(this.db);
  }

  async list(userId: bigint): Promise<SignInRecord[]> {
    const rows = await sql<Record<string, unknown>>`
      SELECT id, at, method, succeeded, failure, user_agent, ip_masked FROM sign_in_history
      WHERE user_id = ${userId} ORDER BY id DESC LIMIT ${signInHistoryShown}`.execute(this.db);
    return rows.rows.map((row) => ({
      id: String(row.id),
      at: new Date(row.at as string).toISOString(),
      method: row.method as SignInRecord["method"],
      succeeded: Boolean(row.succeeded),
      failure: (row.failure ?? null) as SignInRecord["failure"],
      userAgent: row.user_agent === null ? null : String(row.user_agent),
      ipMasked: row.ip_masked === null ? null : String(row.ip_masked),
    }));
  }
}
