// Trigger prices (liquidation prices of isolated positions, take-profit and stop-loss, stop
// orders) kept sorted, so a new mark costs O(log n + triggered) instead of a scan of every
// position. The slow `trigger-index.reference.ts` is its specification; property tests feed
// both the same random streams.

import { compareIds } from "./units.ts";

/**
 * When a trigger fires: `at_or_below` when the mark is at or below its price (a long's
 * liquidation or stop-loss, a short's take-profit, a sell stop), `at_or_above` when the mark is
 * at or above it (a short's liquidation or stop-loss, a long's take-profit, a buy stop).
 */
export type TriggerDirection = "at_or_below" | "at_or_above";

/** One trigger. Ids are unique within an index. */
export interface Trigger {
  id: string;
  priceTicks: bigint;
  direction: TriggerDirection;
}

/** A set of triggers keyed by id. */
export interface TriggerIndex {
  /** Adds a trigger, or moves the one with the same id. */
  upsert(trigger: Trigger): void;
  /** Removes a trigger; false when there was none. */
  remove(id: string): boolean;
  get(id: string): Trigger | undefined;
  readonly size: number;
  /**
   * Removes and returns every trigger the mark reaches, in firing order: first `at_or_below`
   * ones from the highest price down, then `at_or_above` ones from the lowest price up; equal
   * prices by id. The order depends only on the triggers, never on insertion order, so a
   * restored snapshot fires the same way.
   */
  fire(markTicks: bigint): Trigger[];
  /** Every trigger, in firing order as if every one fired. */
  list(): Trigger[];
}

/** Entries fire from the end of their list: `before(a, b)` < 0 means a fires after b. */
type Compare = (a: Trigger, b: Trigger) => number;

// at_or_below: ascending price, equal prices by descending id, so the end holds the highest
// price and, within it, the smallest id. at_or_above: descending price, equal prices by
// descending id, so the end holds the lowest price and the smallest id.
const compareBelow: Compare = (a, b) =>
  a.priceTicks !== b.priceTicks ? (a.priceTicks < b.priceTicks ? -1 : 1) : compareIds(b.id, a.id);
const compareAbove: Compare = (a, b) =>
  a.priceTicks !== b.priceTicks ? (a.priceTicks > b.priceTicks ? -1 : 1) : compareIds(b.id, a.id);

/** Entries per chunk before it splits: inserts and removes move at most this many. */
const CHUNK_MAX = 64;

/**
 * A sorted list kept as an array of sorted chunks (a one-level B-tree): finding a place is a
 * binary search over chunk ends and then within one chunk, an insert or remove moves at most
 * one chunk's entries (and, on a split or an emptied chunk, one pointer per chunk).
 */
class SortedChunks {
  private readonly chunks: Trigger[][] = [];

  constructor(private readonly compare: Compare) {}

  /** Index of the first chunk whose last entry is ≥ `entry` (or the last chunk). */
  private chunkFor(entry: Trigger): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const chunk = this.chunks[mid]!;
      if (this.compare(chunk[chunk.length - 1]!, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index in `chunk` whose entry is ≥ `entry`. */
  private positionIn(chunk: Trigger[], entry: Trigger): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(chunk[mid]!, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(entry: Trigger): void {
    if (this.chunks.length === 0) {
      this.chunks.push([entry]);
      return;
    }
    const index = this.chunkFor(entry);
    const chunk = this.chunks[index]!;
    chunk.splice(this.positionIn(chunk, entry), 0, entry);
    if (chunk.length > CHUNK_MAX) {
      this.chunks.splice(index + 1, 0, chunk.splice(chunk.length >> 1));
    }
  }

  /** Removes the entry that compares equal to `entry` (same price, same id). */
  remove(entry: Trigger): boolean {
    if (this.chunks.length === 0) return false;
    const index = this.chunkFor(entry);
    const chunk = this.chunks[index]!;
    const position = this.positionIn(chunk, entry);
    if (position >= chunk.length || this.compare(chunk[position]!, entry) !== 0) return false;
    chunk.splice(position, 1);
    if (chunk.length === 0) this.chunks.splice(index, 1);
    return true;
  }

  /** Pops entries from the end while `fires` holds, into `out`. */
  popWhile(fires: (entry: Trigger) => boolean, out: Trigger[]): void {
    while (this.chunks.length > 0) {
      const chunk = this.chunks[this.chunks.length - 1]!;
      while (chunk.length > 0 && fires(chunk[chunk.length - 1]!)) out.push(chunk.pop()!);
      if (chunk.length > 0) return;
      this.chunks.pop();
    }
  }

  /** Every entry, from the end (fires first) to the start. */
  listFromEnd(out: Trigger[]): void {
    for (let i = this.chunks.length - 1; i >= 0; i--) {
      const chunk = this.chunks[i]!;
      for (let j = chunk.length - 1; j >= 0; j--) out.push(chunk[j]!);
    }
  }
}

/** Builds the fast trigger index. */
export function createTriggerIndex(): TriggerIndex {
  const byId = new Map<string, Trigger>();
  const below = new SortedChunks(compareBelow);
  const above = new SortedChunks(compareAbove);
  const listFor = (direction: TriggerDirection): SortedChunks =>
    direction === "at_or_below" ? below : above;

  function remove(id: string): boolean {
    const existing = byId.get(id);
    if (existing === undefined) return false;
    byId.delete(id);
    const removed = listFor(existing.direction).remove(existing);
    if (!removed) throw new Error("trigger index lost an entry");
    return true;
  }

  return {
    upsert(trigger) {
      remove(trigger.id);
      const entry = { ...trigger };
      byId.set(entry.id, entry);
      listFor(entry.direction).insert(entry);
    },
    remove,
    get(id) {
      const entry = byId.get(id);
      return entry === undefined ? undefined : { ...entry };
    },
    get size() {
      return byId.size;
    },
    fire(markTicks) {
      const fired: Trigger[] = [];
      below.popWhile((entry) => entry.priceTicks >= markTicks, fired);
      above.popWhile((entry) => entry.priceTicks <= markTicks, fired);
      for (const entry of fired) byId.delete(entry.id);
      return fired;
    },
    list() {
      const out: Trigger[] = [];
      below.listFromEnd(out);
      above.listFromEnd(out);
      return out.map((entry) => ({ ...entry }));
    },
  };
}
