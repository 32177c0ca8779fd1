import type { Candle } from "./candles.ts";
import { roundToStep } from "@candor/decimal";
import { unitsOf } from "./units.ts";
import type { Tick } from "./feed.ts";
import type { Instrument } from "./instruments.ts";
import { isMarketOpen, marketStatus } from "./market-status.ts";
import { hashString, SeededRandom } from "./random.ts";

const minuteMs = 60_000;
const hourMs = 3_600_000;
const dayMs = 86_400_000;
const yearMs = 365.25 * dayMs;
/** Internal prices carry six more decimals than published ones, so small moves accumulate. */
const internalFactor = 1_000_000n;
const ppb = 1_000_000_000n;

const sigmaCache = new Map<string, number>();

/** Standard deviation of one step's return in parts per billion: σ·√(dt/year), rounded. */
function sigmaPpbOf(volatilityBpsYearly: number, dtMs: number): number {
  const key = `${volatilityBpsYearly}|${dtMs}`;
  let sigma = sigmaCache.get(key);
  if (sigma === undefined) {
    sigma = Math.round((volatilityBpsYearly / 10_000) * Math.sqrt(dtMs / yearMs) * 1e9);
    sigmaCache.set(key, sigma);
  }
  return sigma;
}

/** Options of the seeded price simulator. */
export interface PriceSimulatorOptions {
  seed: number;
  instruments: readonly Instrument[];
  /** Time from which `advanceTo` produces ticks (ms since the epoch). */
  startMs: number;
  /** Time between two ticks of one open instrument, in ms (default 1,000). */
  tickIntervalMs?: number;
  /** Most steps one `advanceTo` call simulates; a longer gap is skipped (default 3,600). */
  stepsPerCallMax?: number;
}

interface InstrumentState {
  instrument: Instrument;
  random: SeededRandom;
  /** Current price in 10^-(priceScale+6) quote units. */
  internal: bigint;
  /** Mean-reversion anchor, same units. */
  anchor: bigint;
  floor: bigint;
  step: bigint;
  dailyVolume: bigint;
}

/**
 * A deterministic price generator: the same seed, instruments and calls give the same ticks.
 * Each instrument has its own random stream (seed × instrument id), so adding an instrument
 * leaves the others' paths unchanged. Moves are multiplicative with per-class volatility,
 * jumps for crypto and mean reversion for FX and commodities; prices never fall below one tick.
 * Closed markets produce no ticks.
 */
export class PriceSimulator {
  private readonly states = new Map<string, InstrumentState>();
  private readonly tickIntervalMs: number;
  private readonly stepsPerCallMax: number;
  private lastMs: number;

  constructor(options: PriceSimulatorOptions) {
    this.tickIntervalMs = options.tickIntervalMs ?? 1_000;
    this.stepsPerCallMax = options.stepsPerCallMax ?? 3_600;
    this.lastMs = options.startMs;
    for (const instrument of options.instruments) {
      const start = unitsOf(instrument.simulation.startPrice, instrument.priceScale);
      const volume = unitsOf(instrument.simulation.dailyVolume, instrument.quantityScale);
      if (start === null || start <= 0n || volume === null) {
        throw new Error(`instrument ${instrument.id}: bad simulation spec`);
      }
      this.states.set(instrument.id, {
        instrument,
        random: new SeededRandom((options.seed ^ hashString(instrument.id)) >>> 0),
        internal: start * internalFactor,
        anchor: start * internalFactor,
        floor: instrument.tickSize * internalFactor,
        step: instrument.tickSize * internalFactor,
        dailyVolume: volume,
      });
    }
  }

  /** The time up to which ticks have been produced. */
  get timeMs(): number {
    return this.lastMs;
  }

  /** The current published price (on the tick grid), in 10^-priceScale units. */
  price(instrumentId: string): bigint {
    return this.publish(this.stateOf(instrumentId));
  }

  /** Continues from a known price, e.g. the last recorded close after a restart. */
  resumeFrom(instrumentId: string, price: bigint): void {
    const state = this.stateOf(instrumentId);
    if (price <= 0n) throw new Error("resume price must be positive");
    state.internal = price * internalFactor;
  }

  /**
   * Produces one tick per `tickIntervalMs` for every open instrument, for the steps after the
   * last call up to `atMs`. Gaps longer than `stepsPerCallMax` steps are skipped silently.
   */
  advanceTo(atMs: number): Tick[] {
    const ticks: Tick[] = [];
    let steps = Math.floor((atMs - this.lastMs) / this.tickIntervalMs);
    if (steps <= 0) return ticks;
    if (steps > this.stepsPerCallMax) {
      this.lastMs += (steps - this.stepsPerCallMax) * this.tickIntervalMs;
      steps = this.stepsPerCallMax;
    }
    for (let s = 0; s < steps; s++) {
      this.lastMs += this.tickIntervalMs;
      for (const state of this.states.values()) {
        if (!isMarketOpen(state.instrument, this.lastMs)) continue;
        ticks.push(this.stepTick(state, this.lastMs, this.tickIntervalMs));
      }
    }
    return ticks;
  }

  /**
   * Simulates [fromMs, toMs) bar by bar (each bar of `barInterval` as `stepsPerBar` sub-steps)
   * and returns the candles of the bars in which each market was open at the bar's start.
   * Afterwards `advanceTo` continues from `toMs`. Used for the backfill that keeps charts
   * from being empty; each instrument is simulated independently, so the order is by
   * instrument, then time, and `instrumentId` (one instrument only) gives that instrument's
   * candles unchanged: calling it once per instrument is the same as one call for all.
   */
  backfill(
    fromMs: number,
    toMs: number,
    options: { barInterval?: "1m" | "5m"; stepsPerBar?: number; instrumentId?: string } = {},
  ): Candle[] {
    const interval = options.barInterval ?? "1m";
    const barMs = interval === "1m" ? minuteMs : 5 * minuteMs;
    const stepsPerBar = options.stepsPerBar ?? 6;
    const subStepMs = barMs / stepsPerBar;
    const firstBar = Math.ceil(fromMs / barMs) * barMs;
    const candles: Candle[] = [];
    const states =
      options.instrumentId === undefined
        ? this.states.values()
        : [this.stateOf(options.instrumentId)];
    for (const state of states) {
      // Ask the calendar only at session edges, not for every bar.
      let status = marketStatus(state.instrument, firstBar);
      for (let bar = firstBar; bar + barMs <= toMs; bar += barMs) {
        const edge = status.open ? status.nextCloseMs : status.nextOpenMs;
        if (edge !== null && bar >= edge) status = marketStatus(state.instrument, bar);
        if (!status.open) continue;
        const open = this.publish(state);
        let high = open;
        let low = open;
        let close = open;
        let volume = 0n;
        for (let s = 1; s <= stepsPerBar; s++) {
          const tick = this.stepTick(state, bar + s * subStepMs - 1, subStepMs);
          if (tick.price > high) high = tick.price;
          if (tick.price < low) low = tick.price;
          close = tick.price;
          volume += tick.quantity;
        }
        candles.push({
          instrumentId: state.instrument.id,
          interval,
          openMs: bar,
          open,
          high,
          low,
          close,
          volume,
          trades: stepsPerBar,
        });
      }
    }
    this.lastMs = Math.max(this.lastMs, toMs);
    return candles;
  }

  private stateOf(instrumentId: string): InstrumentState {
    const state = this.states.get(instrumentId);
    if (!state) throw new Error(`unknown instrument ${instrumentId}`);
    return state;
  }

  private publish(state: InstrumentState): bigint {
    return roundToStep(state.internal, state.step) / internalFactor;
  }

  private stepTick(state: InstrumentState, atMs: number, dtMs: number): Tick {
    const spec = state.instrument.simulation;
    const random = state.random;
    const sigmaPpb = sigmaPpbOf(spec.volatilityBpsYearly, dtMs);
    let returnPpb = Math.trunc((sigmaPpb * random.nextNormal16()) / 65_536);
    if (spec.meanReversionPpmHourly > 0) {
      const gapPpb = Number(((state.internal - state.anchor) * ppb) / state.anchor);
      returnPpb -= Math.trunc((gapPpb * spec.meanReversionPpmHourly * dtMs) / (1e6 * hourMs));
    }
    if (spec.jumpsPerDay > 0) {
      const chance = random.nextUint32() / 4_294_967_296;
      if (chance < (spec.jumpsPerDay * dtMs) / dayMs) {
        const size = (1 + random.nextBelow(spec.jumpBpsMax)) * 100_000;
        returnPpb += random.nextBelow(2) === 0 ? size : -size;
      }
    }
    state.internal += (state.internal * BigInt(returnPpb)) / ppb;
    if (state.internal < state.floor) state.internal = state.floor;

    const lot = state.instrument.lotSize;
    const perStep = (state.dailyVolume * BigInt(Math.round(dtMs))) / BigInt(dayMs);
    const scaled = (perStep * BigInt(25 + random.nextBelow(150))) / 100n;
    const quantity = scaled < lot ? lot : scaled - (scaled % lot);
    return {
      instrumentId: state.instrument.id,
      atMs,
      price: this.publish(state),
      quantity,
      source: "simulated",
    };
  }
}
