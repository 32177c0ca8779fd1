import type { Command } from "@candor/kernel";
import { formatDecimalFixed } from "@candor/decimal";
import type { Instrument, Tick } from "@candor/market";
import type { Unstamped } from "../../engine/engine.ts";
import type { TapeSink } from "./tape-sink.ts";

/**
 * The tape as kernel commands: each tick becomes `record_tick` (the price every fill,
 * settlement and trigger cites), and session changes of instruments with a spot market become
 * `set_market_session`. `submit` is the engine's; failures go to `onRejected` (never thrown
 * into the price loop).
 */
export class KernelTapeSink implements TapeSink {
  private lastAtMs = new Map<string, { atMs: number; n: number }>();

  constructor(
    private readonly submit: (command: Unstamped<Command>) => Promise<unknown>,
    private readonly marketIdByInstrument: ReadonlyMap<string, string>,
    private readonly onRejected: (error: unknown) => void = () => {},
  ) {}

  recordTick(instrument: Instrument, tick: Tick): void {
    // Several prints may share a millisecond (real feeds): number them so tick ids stay unique.
    const last = this.lastAtMs.get(instrument.id);
    const n = last && last.atMs === tick.atMs ? last.n + 1 : 0;
    this.lastAtMs.set(instrument.id, { atMs: tick.atMs, n });
    const tickId = `${tick.source}-${tick.atMs}-${n}`;
    this.submit({
      type: "record_tick",
      id: `tick:${instrument.id}:${tickId}`,
      tickId,
      instrumentId: instrument.id,
      price: formatDecimalFixed(tick.price, instrument.priceScale),
      tickAtMs: tick.atMs,
      // The print's size travels with the tape, so API nodes' public trades show it too.
      quantity: formatDecimalFixed(tick.quantity, instrument.quantityScale),
    }).catch(this.onRejected);
  }

  setSession(instrument: Instrument, open: boolean, atMs: number): void {
    const marketId = this.marketIdByInstrument.get(instrument.id);
    if (!marketId) return;
    this.submit({
      type: "set_market_session",
      id: `session:${marketId}:${atMs}:${open ? "open" : "closed"}`,
      marketId,
      open,
    }).catch(this.onRejected);
  }
}
