/** How many hits a key may make per window. */
export interface RateRule {
  max: number;
  windowMs: number;
}

/**
 * A fixed-window counter per key, in memory. One API node is the embedded default; with
 * several nodes behind a balancer each node counts on its own (documented in decisions).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAtMs: number }>();
  private nextSweepMs = 0;

  constructor(
    private readonly now: () => number,
    /** Most keys kept at once. */
    private readonly keysMax = 200_000,
  ) {}

  /** How many keys are being counted, for tests and metrics. */
  get size(): number {
    return this.windows.size;
  }

  /** Counts one hit; false when the key is over its limit for the current window. */
  hit(key: string, rule: RateRule): boolean {
    const nowMs = this.now();
    this.sweep(nowMs);
    const window = this.windows.get(key);
    if (!window || window.resetAtMs <= nowMs) {
      this.windows.set(key, { count: 1, resetAtMs: nowMs + rule.windowMs });
      return true;
    }
    window.count += 1;
    return window.count <= rule.max;
  }

  /** Forgets a key, e.g. an account's failures after a successful sign-in. */
  reset(key: string) {
    this.windows.delete(key);
  }

  private sweep(nowMs: number) {
    // A bound on memory under a flood of distinct keys: drop the oldest windows first.
    if (this.windows.size >= this.keysMax) {
      for (const key of [...this.windows.keys()].slice(0, this.keysMax / 10)) {
        this.windows.delete(key);
      }
    }
    if (nowMs < this.nextSweepMs) return;
    this.nextSweepMs = nowMs + 60_000;
    for (const [key, window] of this.windows)
      if (window.resetAtMs <= nowMs) this.windows.delete(key);
  }
}
