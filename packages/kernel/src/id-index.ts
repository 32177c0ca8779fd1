// The idempotency index: command id → position, as an open-addressing hash table over typed
// arrays. A Map<string, number> of the same size spent a sixth of the whole kernel's time in
// lookups that miss (almost every command is new) and churned the heap as ids expired; here a
// miss is usually one probe in a compact typed array and nothing is allocated per entry.

import { assert } from "./assert.ts";

/**
 * Where the ids live (the caller keeps them): the id at position `p` is `ids[p & mask]`, and the
 * live positions are `head` to `tail - 1` (at most `mask + 1` of them). Positions before `head`
 * may still be indexed until the caller deletes them (a batch at a time); lookups skip them.
 * Read as fields, not called, on every probe.
 */
export interface IdSource {
  readonly ids: readonly (string | undefined)[];
  readonly mask: number;
  readonly head: number;
  readonly tail: number;
}

const EMPTY = 0;
/** Positions are stored modulo this (plus one, so 0 can mean empty). */
const MODULUS = 0x7ffffffe;

/** 32-bit FNV-1a over UTF-16 code units. */
export function hashId(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/**
 * Slots are pairs in one Int32Array, [position + 1 (mod 2^31) | EMPTY, hash], so a probe
 * touches one cache line. Positions grow for the kernel's lifetime, but live ones span less
 * than 2^31, so they are stored modulo 2^31 and resolved against the oldest live position.
 * Linear probing with backward-shift deletion: no tombstones, so expiry never degrades probes
 * and the table is only rebuilt to grow.
 */
export class IdIndex {
  private table: Int32Array;
  private mask: number;
  private live = 0;

  constructor(
    private readonly source: IdSource,
    capacity = 1024,
  ) {
    assert((capacity & (capacity - 1)) === 0, "capacity must be a power of two");
    this.table = new Int32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.live;
  }

  private absolute(stored: number): number {
    const oldest = this.source.head;
    return oldest + ((stored - 1 - (oldest % MODULUS) + MODULUS) % MODULUS);
  }

  // The last id looked up and its hash: `set` after a missed `get` (every new command) reuses it.
  private lastId = "";
  private lastHash = hashId("");

  /** The hash of `id` (cached for the id last asked about). */
  hashOf(id: string): number {
    if (id !== this.lastId) {
      this.lastId = id;
      this.lastHash = hashId(id);
    }
    return this.lastHash;
  }

  /** The position of a live `id`, or -1. */
  get(id: string): number {
    const hash = this.hashOf(id);
    const table = this.table;
    let index = hash & this.mask;
    for (;;) {
      const slot = table[index * 2]!;
      if (slot === EMPTY) return -1;
      if (table[index * 2 + 1] === hash) {
        // A forgotten entry not yet deleted resolves to `tail` or later.
        const position = this.absolute(slot);
        const source = this.source;
        if (position < source.tail && source.ids[position & source.mask] === id) return position;
      }
      index = (index + 1) & this.mask;
    }
  }

  /** Adds `id` at `position`; the id must not be live (a forgotten entry of it may linger). */
  set(id: string, position: number): void {
    assert(position >= 0 && position < Number.MAX_SAFE_INTEGER, "id position out of range");
    if ((this.live + 1) * 2 > this.mask + 1) this.grow();
    const hash = this.hashOf(id);
    const table = this.table;
    let index = hash & this.mask;
    while (table[index * 2] !== EMPTY) index = (index + 1) & this.mask;
    table[index * 2] = (position % MODULUS) + 1;
    table[index * 2 + 1] = hash;
    this.live++;
  }

  /** Removes the entry of `position`, whose id hashes to `hash` (`hashOf`). */
  delete(position: number, hash: number): void {
    const stored = (position % MODULUS) + 1;
    const table = this.table;
    const mask = this.mask;
    let index = hash & mask;
    for (;;) {
      const slot = table[index * 2]!;
      assert(slot !== EMPTY, "deleting an id that is not indexed");
      if (slot === stored) break;
      index = (index + 1) & mask;
    }
    this.live--;
    // Backward shift: move later entries of the probe run into the hole when their home slot
    // allows it, so every remaining entry stays reachable from its home without tombstones.
    let hole = index;
    let next = (hole + 1) & mask;
    for (;;) {
      const slot = table[next * 2]!;
      if (slot === EMPTY) break;
      const home = table[next * 2 + 1]! & mask;
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        table[hole * 2] = slot;
        table[hole * 2 + 1] = table[next * 2 + 1]!;
        hole = next;
      }
      next = (next + 1) & mask;
    }
    table[hole * 2] = EMPTY;
    table[hole * 2 + 1] = 0;
  }

  /** Re-inserts the entries into a table twice the size. */
  private grow(): void {
    const old = this.table;
    const capacity = (this.mask + 1) * 2;
    const table = new Int32Array(capacity * 2);
    const mask = capacity - 1;
    for (let i = 0; i < old.length; i += 2) {
      const slot = old[i]!;
      if (slot === EMPTY) continue;
      let index = old[i + 1]! & mask;
      while (table[index * 2] !== EMPTY) index = (index + 1) & mask;
      table[index * 2] = slot;
      table[index * 2 + 1] = old[i + 1]!;
    }
    this.table = table;
    this.mask = mask;
  }
}
