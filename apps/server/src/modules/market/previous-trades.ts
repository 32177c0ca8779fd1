import { getLastTick, type KernelState } from "@candor/kernel";
import type { Instrument } from "@candor/market";
import { sql } from "kysely";
import type { Database } from "../../db/database.ts";
import { tapeSequenceKey } from "../../engine/kernel-port.ts";
import type { JournalLogger } from "../../journal/journal.ts";
import type { MarketService } from "./market.service.ts";

/** What the lookup reads of the engine: its state and the sequences it saw applied. */
export interface PreviousTradeSource {
  query<T>(fn: (state: KernelState) => T): T;
  /** `Engine.lastSequenceOf`: the last record under a key since the engine started. */
  lastSequenceOf?(key: string): bigint | undefined;
}

export interface LinkPreviousTradesOptions {
  service: MarketService;
  kernel: PreviousTradeSource;
  database: Database;
  instruments: readonly Instrument[];
  logger?: JournalLogger;
  /** Between two read-model lookups of what is still unknown (default 500 ms). */
  retryMs?: number;
  /** Gives up after this long (default 30 s): those instruments' first trades go unlinked. */
  deadlineMs?: number;
}

/**
 * Tells the market service, when a node starts, the journal sequence of each instrument's last
 * recorded tick: the `previousSequence` of the node's first public trade of it, so that trade
 * links to the one before like every later one, the same on every node (issue 25).
 *
 * Two sources, both the journal's: the engine's `lastSequenceOf`, for ticks in the records it
 * replayed or followed since its snapshot (synchronous, so no record slips in between), and the
 * tape read model (`rm_ticks`, by instrument and the kernel's last tick id) for ticks the
 * snapshot already held. The read model can lag: on an API node the leader's projector may not
 * have written them yet. Those instruments' trades wait in the service (in order) and the
 * lookup is repeated until it answers or `deadlineMs` passes; an engine leader's own projector
 * holds every tick before its snapshot (else the engine replays the whole journal), so there
 * the first lookup answers. Call it before any record reaches the service.
 */
export function linkPreviousTrades(options: LinkPreviousTradesOptions): {
  /** Settles once every instrument is linked or the lookup gave up. */
  done: Promise<void>;
  stop(): void;
} {
  const { service, kernel, database, instruments } = options;
  const known = new Map<string, number>();
  /** Instrument id → the tick id whose record's sequence is not known yet. */
  const unknown = new Map<string, string>();
  for (const instrument of instruments) {
    const sequence = kernel.lastSequenceOf?.(tapeSequenceKey(instrument.id));
    if (sequence !== undefined) {
      known.set(instrument.id, Number(sequence));
      continue;
    }
    const tick = kernel.query((state) => getLastTick(state, instrument.id));
    if (tick) unknown.set(instrument.id, tick.tickId);
  }
  service.awaitPreviousTrades(known, unknown.keys());
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const giveUp = () => {
    for (const instrumentId of unknown.keys()) service.resolvePreviousTrade(instrumentId, null);
    unknown.clear();
  };
  const deadline = Date.now() + (options.deadlineMs ?? 30_000);
  const done = (async () => {
    while (unknown.size > 0 && !stopped) {
      try {
        for (const [instrumentId, sequence] of await tickSequences(database, unknown)) {
          service.resolvePreviousTrade(instrumentId, sequence);
          unknown.delete(instrumentId);
        }
      } catch (error) {
        options.logger?.warn({ error: String(error) }, "market: tape sequence lookup failed");
      }
      if (unknown.size === 0 || stopped) break;
      if (Date.now() >= deadline) {
        options.logger?.warn(
          { instruments: [...unknown.keys()] },
          "market: last recorded ticks not in the tape read model; their first trades go unlinked",
        );
        break;
      }
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.retryMs ?? 500);
        timer.unref();
      });
    }
    giveUp();
  })();
  return {
    done,
    stop() {
      stopped = true;
      clearTimeout(timer);
      giveUp();
    },
  };
}

/** The journal sequences of the given ticks (instrument id → tick id) the read model holds. */
async function tickSequences(
  database: Database,
  ticks: ReadonlyMap<string, string>,
): Promise<Map<string, number>> {
  const instrumentIds = [...ticks.keys()];
  const tickIds = [...new Set(ticks.values())];
  const rows = await sql<{ instrument_id: string; tick_id: string; sequence: string | number }>`
    SELECT instrument_id, tick_id, sequence FROM rm_ticks
    WHERE instrument_id IN (${sql.join(instrumentIds)}) AND tick_id IN (${sql.join(tickIds)})`.execute(
    database.db,
  );
  const found = new Map<string, number>();
  for (const row of rows.rows) {
    if (ticks.get(row.instrument_id) === row.tick_id)
      found.set(row.instrument_id, Number(row.sequence));
  }
  return found;
}
