// Bit and power-of-two helpers of the fast book's price ladder.

/** The smallest power of two (at least 32) not below `value`. */
export function powerOfTwoAtLeast(value: number): number {
  let power = 32;
  while (power < value) power *= 2;
  return power;
}

/** The largest power of two (at least 32) not above `value`. */
export function powerOfTwoAtMost(value: number): number {
  let power = 32;
  while (power * 2 <= value) power *= 2;
  return power;
}

/** Highest set bit at or below `index`, or -1. */
export function highestAtOrBelow(bits: Int32Array, index: number): number {
  if (index < 0) return -1;
  let wordIndex = index >>> 5;
  let word = bits[wordIndex]! & (0xffffffff >>> (31 - (index & 31)));
  while (true) {
    if (word !== 0) return (wordIndex << 5) + 31 - Math.clz32(word);
    if (--wordIndex < 0) return -1;
    word = bits[wordIndex]!;
  }
}

/** Lowest set bit at or above `index`, or -1. */
export function lowestAtOrAbove(bits: Int32Array, index: number): number {
  let wordIndex = index >>> 5;
  if (wordIndex >= bits.length) return -1;
  let word = bits[wordIndex]! & (0xffffffff << (index & 31));
  while (true) {
    if (word !== 0) return (wordIndex << 5) + 31 - Math.clz32(word & -word);
    if (++wordIndex >= bits.length) return -1;
    word = bits[wordIndex]!;
  }
}
