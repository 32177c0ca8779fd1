import type { Health } from "@candor/contract";
import { version } from "../../version.ts";
import type { HealthRepository } from "./health.repository.ts";

/** The liveness answer: version, uptime, database engine and how often the server started. */
export class HealthService {
  private readonly startedAtMs: number;

  constructor(
    private readonly repository: HealthRepository,
    /** Milliseconds since the epoch. */
    private readonly now: () => number,
  ) {
    this.startedAtMs = now();
  }

  async health(): Promise<Health> {
    const starts = await this.repository.startCount();
    return {
      status: "ok",
      version,
      uptimeSeconds: Math.floor((this.now() - this.startedAtMs) / 1000),
      database: this.repository.databaseKind,
      starts,
    };
  }
}
