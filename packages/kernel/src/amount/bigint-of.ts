// A BigInt from a safe integer without `BigInt(number)`. In Node 20 `BigInt(n)` is a call into
// the runtime (C++), about twice the cost of reading a BigInt64Array element, which TurboFan
// allocates inline: the hot paths that keep a balance or a hold as an exact double build its
// BigInt here.

const buffer = new ArrayBuffer(8);
const words = new Uint32Array(buffer);
const int64 = new BigInt64Array(buffer);
/** Index of the low 32-bit word of the 64-bit integer in `words` (0 on little-endian hosts). */
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
const HIGH = 1 - LOW;
const TWO_32 = 4294967296;

/**
 * `BigInt(n)` for a safe integer `n` (|n| ≤ 2^53 − 1; the caller guarantees it, as it must for
 * `BigInt(n)` not to throw). Anything else is a caller's bug: use `BigInt`.
 */
export function bigintOfSafeInteger(n: number): bigint {
  const high = Math.floor(n / TWO_32);
  words[LOW] = n - high * TWO_32;
  // Two's complement of a negative high word: Uint32Array stores ToUint32(high).
  words[HIGH] = high;
  return int64[0]!;
}
