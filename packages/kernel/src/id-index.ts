// The idempotency index: command id → position, as an open-addressing hash table over typed
// arrays. Almost every command is new, so the hot operations are a lookup that misses, an insert
// and, a window later, a delete. A lookup reads only a one-byte tag per slot (a table of 64K
// live ids has 128 KB of tags, which mostly stays in the caches) and a delete only writes a
// tag: neither waits for the 4-byte position array, which a lookup reads only on a tag match.

import { assert } from "./assert.ts";

/**
 * Where the ids live (the caller keeps them): the id at position `p` is `ids[p & mask]`, and the
 * live positions run from `head` (at most `mask + 1` of them). Every live position is indexed; a
 * position leaves the index (`delete`) when it leaves the live range.
 */
export interface IdSource {
  readonly ids: readonly (string | undefined)[];
  readonly mask: number;
  readonly head: number;
  /** The hash (`hashId`) of the id at live `position`. */
  hashAt(position: number): number;
  /** Records that live `position` is now in table slot `slot` (the index moved it). */
  slotMoved(position: number, slot: number): void;
}

/** Slot tags: 0 empty, 1 deleted, 2–254 an entry whose hash has that tag (`tagOf`). */
const EMPTY = 0;
const DELETED = 1;
/** Positions are stored modulo this. */
const MODULUS = 0x7fffffff;
/** Slots in use (entries and deleted ones) before the table is rebuilt, as a share of all. */
const FILL_MAX = 0.75;

/** 32-bit FNV-1a over UTF-16 code units. */
export function hashId(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** A hash's tag, 2–254, from its top eight bits (the slot comes from its low bits). */
function tagOf(hash: number): number {
  return 2 + (((hash >>> 24) * 253) >>> 8);
}

/**
 * Linear probing over two parallel arrays: `tags` (one byte a slot) and `positions` (position modulo
 * 2^31 − 1, resolved against the oldest live position). A delete marks its slot deleted
 * through the slot the caller was given at insert (no probe), and an insert reuses the first
 * deleted slot on its path. Deleted slots lengthen the probes of misses, so when entries and
 * deleted slots together pass `FILL_MAX` of the table, it is rebuilt from the caller's live
 * positions in order (doubled when the entries alone fill half), every slot handed back through
 * `slotMoved`.
 */
export class IdIndex {
  private tags: Uint8Array;
  private positions: Int32Array;
  private mask: number;
  private live = 0;
  /** Slots not empty: entries and deleted ones. */
  private used = 0;
  private usedMax: number;

  constructor(
    private readonly source: IdSource,
    capacity = 1024,
  ) {
    assert((capacity & (capacity - 1)) === 0 && capacity >= 4, "capacity must be a power of two");
    this.tags = new Uint8Array(capacity);
    this.positions = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.usedMax = Math.floor(capacity * FILL_MAX);
  }

  get size(): number {
    return this.live;
  }

  /** Slots in the table. */
  get capacity(): number {
    return this.mask + 1;
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
    const tag = tagOf(hash);
    const tags = this.tags;
    const mask = this.mask;
    let index = hash & mask;
    for (;;) {
      const found = tags[index]!;
      if (found === EMPTY) return -1;
      if (found === tag) {
        const source = this.source;
        const position = this.absolute(this.positions[index]!);
        if (source.ids[position & source.mask] === id) return position;
      }
      index = (index + 1) & mask;
    }
  }

  /**
   * Adds `id` at `position` and returns its slot (for `delete`). The id must not be live, and
   * every position from the source's `head` up to `position` must be indexed already.
   */
  set(id: string, position: number): number {
    assert(position >= 0 && position < Number.MAX_SAFE_INTEGER, "id position out of range");
    if (this.used >= this.usedMax) this.rebuild(position);
    return this.insert(this.hashOf(id), position);
  }

  /**
   * Removes the entry in `slot` (as `set` or `slotMoved` gave it). Only writes: the slot is not
   * read back (a cache miss per command); `rebuild` checks the count of live entries instead.
   */
  delete(slot: number): void {
    this.tags[slot] = DELETED;
    this.live--;
  }

  private insert(hash: number, position: number): number {
    const tags = this.tags;
    const mask = this.mask;
    let index = hash & mask;
    while (tags[index]! > DELETED) index = (index + 1) & mask;
    if (tags[index] === EMPTY) this.used++;
    tags[index] = tagOf(hash);
    this.positions[index] = position % MODULUS;
    this.live++;
    return index;
  }

  private absolute(stored: number): number {
    const oldest = this.source.head;
    return oldest + ((stored - (oldest % MODULUS) + MODULUS) % MODULUS);
  }

  /**
   * Empties the table (doubling it when the live entries fill half of it) and inserts the live
   * positions before `end` again, in order.
   */
  private rebuild(end: number): void {
    const source = this.source;
    assert(end - source.head === this.live, "the index lost track of its entries");
    const capacity = this.mask + 1;
    if ((this.live + 1) * 2 > capacity) {
      this.tags = new Uint8Array(capacity * 2);
      this.positions = new Int32Array(capacity * 2);
      this.mask = capacity * 2 - 1;
      this.usedMax = Math.floor(capacity * 2 * FILL_MAX);
    } else {
      this.tags.fill(EMPTY);
    }
    this.live = 0;
    this.used = 0;
    for (let position = source.head; position < end; position++) {
      source.slotMoved(position, this.insert(source.hashAt(position), position));
    }
  }
}
