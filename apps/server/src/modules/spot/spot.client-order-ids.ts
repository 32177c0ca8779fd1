import type { CandorApplied } from "../../engine/kernel-port.ts";

/** What the index reads at start-up: the read model's cursor and its orders' client ids. */
export interface ClientOrderIdSource {
  /** The last journal sequence the read models hold. */
  readModelCursor(): Promise<bigint>;
  /** Client order ids (command ids) of orders with `order_id > afterOrderId`, by order id. */
  clientOrderIdsAfter(
    afterOrderId: number,
    limit: number,
  ): Promise<{ orderId: number; clientOrderId: string }[]>;
}

/**
 * Which client order ids (the place_order command ids) the venue has ever accepted an order
 * under, kept in memory so placing an order never reads the database to find out that its id
 * is new. Fed by the engine (every `order_accepted`, live or replayed) and filled once at
 * start-up from the read model. It stores a 31-bit hash per id (a small integer in a `Set`,
 * ~16 bytes per order): "absent" is certain, "present" may be a collision (about one in 2^31
 * per known order) or a real retry, and then the caller asks the read model, as it does
 * before the index is loaded.
 */
export class ClientOrderIdIndex {
  private readonly hashes = new Set<number>();
  private loaded = false;

  /** Whether `id` may have been used: true until loaded, and for every id seen. */
  mayContain(id: string): boolean {
    return !this.loaded || this.hashes.has(hashOf(id));
  }

  get ready(): boolean {
    return this.loaded;
  }

  get size(): number {
    return this.hashes.size;
  }

  /** The engine's listener: remembers the id of every accepted order. */
  handle(applied: CandorApplied): void {
    for (const event of applied.events) {
      if (event.type === "order_accepted") this.hashes.add(hashOf(event.order.clientOrderId));
    }
  }

  /**
   * Reads every id the read model holds. `subscribedAtSequence` is the engine's sequence when
   * `handle` was subscribed: later orders come through `handle`, so the load waits (polling)
   * until the read model has caught up to it, then reads.
   */
  async load(
    source: ClientOrderIdSource,
    subscribedAtSequence: bigint,
    options: { pageSize?: number; pollMs?: number; stopped?: () => boolean } = {},
  ): Promise<void> {
    const pageSize = options.pageSize ?? 10_000;
    while ((await source.readModelCursor()) < subscribedAtSequence) {
      if (options.stopped?.()) return;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
    }
    let after = 0;
    for (;;) {
      if (options.stopped?.()) return;
      const page = await source.clientOrderIdsAfter(after, pageSize);
      for (const row of page) this.hashes.add(hashOf(row.clientOrderId));
      if (page.length < pageSize) break;
      after = page[page.length - 1]!.orderId;
    }
    this.loaded = true;
  }
}

/** FNV-1a over UTF-16 code units, folded to 31 bits (a V8 small integer: no allocation). */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & 0x7fffffff;
}
