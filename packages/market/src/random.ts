/**
 * A small seeded generator (xorshift32 variant "mulberry32") and helpers, all in 32-bit
 * integer arithmetic, so a seed gives the same sequence on every machine.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** The next unsigned 32-bit integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A uniform integer in [0, bound), bound ≤ 2^32. */
  nextBelow(bound: number): number {
    return Math.floor((this.nextUint32() / 4_294_967_296) * bound);
  }

  /**
   * An approximately standard normal draw scaled by 65,536 (an integer): the sum of twelve
   * 16-bit uniforms minus their mean (Irwin–Hall), so no transcendental functions are used.
   * Tails are cut at ±6 standard deviations.
   */
  nextNormal16(): number {
    let sum = 0;
    for (let i = 0; i < 6; i++) {
      const word = this.nextUint32();
      sum += (word >>> 16) + (word & 0xffff);
    }
    return sum - 6 * 65_536;
  }
}

/** A 32-bit FNV-1a hash of a string, to derive per-instrument seeds. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
