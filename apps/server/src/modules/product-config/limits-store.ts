import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import type { WithdrawalConfig } from "../wallet/wallet.service.ts";

/** The limits in force: the deployment's settings at first, then the back office's changes. */
export interface Limits {
  withdrawals: WithdrawalConfig;
  adjustmentTwoApprovalsAbove: Readonly<Record<string, string>>;
  /** Per user and day, transfers to other users (absent asset: not allowed). */
  transferDailyLimits: Readonly<Record<string, string>>;
  withdrawRequiresIdentity: "none" | "basic" | "advanced";
  /** Asset → amount above which a withdrawal needs the advanced tier passed. */
  withdrawAdvancedAbove: Readonly<Record<string, string>>;
}

/** How often each node reads the row again, to see changes made on other API nodes. */
const defaultReloadEveryMs = 5_000;

/**
 * The limits (migration 0038), one document. `start` writes the deployment's settings the first
 * time, loads the row and reads it again every five seconds, so a change made on another API
 * node applies on this one within five seconds; `current` answers from memory. `change` updates
 * the row in a transaction and this node's memory at once.
 */
export class LimitsStore {
  private limits: Limits;
  private version = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Database,
    seed: Limits,
    private readonly now: () => number,
    private readonly reloadEveryMs = defaultReloadEveryMs,
  ) {
    this.limits = seed;
  }

  async start(): Promise<void> {
    await sql`INSERT INTO operator_limits (id, limits, version, updated_at_ms)
      VALUES (1, ${JSON.stringify(this.limits)}::json, 0, ${this.now()})
      ON CONFLICT (id) DO NOTHING`.execute(this.database.db);
    await this.reload();
    this.timer = setInterval(() => void this.reload().catch(() => undefined), this.reloadEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  current(): Limits {
    return this.limits;
  }

  /** Applies `update` to the stored limits (it throws to refuse) and returns the new ones. */
  async change(update: (limits: Limits) => Limits, operatorId: string): Promise<Limits> {
    const next = await this.database.db.transaction().execute(async (trx) => {
      const row = await sql<{ limits: Limits; version: string }>`SELECT limits,
          version::text AS version FROM operator_limits WHERE id = 1 FOR UPDATE`.execute(trx);
      const stored = row.rows[0];
      if (!stored) throw new Error("limits: the row is missing (start was not called)");
      const limits = update(stored.limits);
      const version = Number(stored.version) + 1;
      await sql`UPDATE operator_limits SET limits = ${JSON.stringify(limits)}::json,
          version = ${version}, updated_at_ms = ${this.now()}, updated_by = ${operatorId}
        WHERE id = 1`.execute(trx);
      return { limits, version };
    });
    this.remember(next.limits, next.version);
    return next.limits;
  }

  private async reload(): Promise<void> {
    const row = await sql<{ limits: Limits; version: string }>`SELECT limits,
        version::text AS version FROM operator_limits WHERE id = 1`.execute(this.database.db);
    const stored = row.rows[0];
    if (stored) this.remember(stored.limits, Number(stored.version));
  }

  /** Keeps the newer of what is held and what was read (a slow reload never rolls back). */
  private remember(limits: Limits, version: number): void {
    if (version < this.version) return;
    this.limits = limits;
    this.version = version;
  }
}
