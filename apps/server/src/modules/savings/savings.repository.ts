import { sql } from "kysely";
import type { SavingsSubscriptionView as KernelSubscription } from "@candor/kernel";
import type { Database } from "../../db/database.ts";

const bigFields = [
  "amount",
  "interestTotal",
  "interestPaid",
  "principalReturned",
  "interestForfeited",
  "penalty",
] as const;

/** The kernel's view back from the JSON the projector stored (amounts were decimal strings). */
function subscriptionOf(data: string): KernelSubscription {
  const raw = JSON.parse(data) as Record<string, unknown>;
  for (const field of bigFields) {
    const value = raw[field];
    raw[field] = value === null || value === undefined ? null : BigInt(value as string);
  }
  return raw as unknown as KernelSubscription;
}

/** Ended savings subscriptions (projected from `savings_subscription_ended`). */
export class SavingsRepository {
  constructor(private readonly database: Database) {}

  async ended(ownerId: string, mode: string, limit: number): Promise<KernelSubscription[]> {
    const rows = await sql<{ data: string }>`SELECT data FROM rm_savings_subscriptions
      WHERE owner_id = ${ownerId} AND mode = ${mode}
      ORDER BY id DESC LIMIT ${limit}`.execute(this.database.db);
    return rows.rows.map((r) => subscriptionOf(r.data));
  }

  async subscription(subscriptionId: string): Promise<KernelSubscription | undefined> {
    const rows = await sql<{ data: string }>`SELECT data FROM rm_savings_subscriptions
      WHERE subscription_id = ${subscriptionId} ORDER BY id DESC LIMIT 1`.execute(this.database.db);
    return rows.rows[0] ? subscriptionOf(rows.rows[0].data) : undefined;
  }
}
