// The fast book's order id → node table, and the growth of its typed-array columns.

/**
 * Order id → node number, open addressing with linear probing in typed arrays (no per-insert
 * allocation, unlike a Map). Key 0 marks an empty slot: order ids are positive.
 */
export class IdTable {
  private keys = new Float64Array(1024);
  private values = new Int32Array(1024);
  private mask = 1023;
  private count = 0;

  private home(key: number): number {
    // Fibonacci hashing of both 32-bit halves: rising ids spread evenly.
    const mixed = (key | 0) ^ ((key / 4294967296) | 0);
    return (Math.imul(mixed, 0x9e3779b1) >>> 0) & this.mask;
  }

  /** The node for `key`, or 0. */
  get(key: number): number {
    const keys = this.keys;
    let index = this.home(key);
    while (true) {
      const found = keys[index]!;
      if (found === key) return this.values[index]!;
      if (found === 0) return 0;
      index = (index + 1) & this.mask;
    }
  }

  /** Adds a key that is not present. */
  insert(key: number, value: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    let index = this.home(key);
    while (keys[index] !== 0) index = (index + 1) & this.mask;
    keys[index] = key;
    this.values[index] = value;
    this.count++;
  }

  /** Removes a key that is present, shifting later entries of its probe run back. */
  remove(key: number): void {
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    let hole = this.home(key);
    while (keys[hole] !== key) hole = (hole + 1) & mask;
    let index = hole;
    while (true) {
      index = (index + 1) & mask;
      const moving = keys[index]!;
      if (moving === 0) break;
      const home = this.home(moving);
      // Move the entry into the hole unless its home lies cyclically in (hole, index].
      const stays = hole <= index ? hole < home && home <= index : hole < home || home <= index;
      if (!stays) {
        keys[hole] = moving;
        values[hole] = values[index]!;
        hole = index;
      }
    }
    keys[hole] = 0;
    this.count--;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    this.count = 0;
    for (let index = 0; index < keys.length; index++) {
      if (keys[index] !== 0) this.insert(keys[index]!, values[index]!);
    }
  }
}

export function growFloat(array: Float64Array, length: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(length);
  grown.set(array);
  return grown;
}

export function growInt(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(length);
  grown.set(array);
  return grown;
}
