import type { Instrument, Tick } from "@candor/market";

/**
 * Where market data enters the kernel. Every tick becomes a `record_tick` command (the price
 * tape that fills, settlements and triggers cite) and every session change a
 * `set_market_session` command. The engine (apps/server/src/engine) implements this; the
 * market module only calls it.
 */
export interface TapeSink {
  /** Records one tick on the tape. Price and quantity are in the instrument's scales. */
  recordTick(instrument: Instrument, tick: Tick): void;
  /** Records that an instrument's market opened or closed at `atMs`. */
  setSession(instrument: Instrument, open: boolean, atMs: number): void;
}

/** A tape that keeps the last ticks in memory: for tests, and until the engine is wired. */
export class MemoryTapeSink implements TapeSink {
  readonly ticks: Tick[] = [];
  readonly sessions: { instrumentId: string; open: boolean; atMs: number }[] = [];

  constructor(private readonly ticksMax = 10_000) {}

  recordTick(_instrument: Instrument, tick: Tick): void {
    this.ticks.push(tick);
    if (this.ticks.length > this.ticksMax) this.ticks.splice(0, this.ticks.length - this.ticksMax);
  }

  setSession(instrument: Instrument, open: boolean, atMs: number): void {
    this.sessions.push({ instrumentId: instrument.id, open, atMs });
  }
}
