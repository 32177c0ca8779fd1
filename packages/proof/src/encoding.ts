// The canonical bytes behind every hash of the liabilities tree. Each hashed input starts with
// a domain tag, so a leaf can never be read as a node, a padding leaf or a root, and every
// other field has a fixed width or a length prefix, so no two different inputs share bytes.
//
//   leaf id     = H(tag "leaf-id" ‖ u32 len ‖ salt bytes ‖ u32 len ‖ UTF-8 user id)
//   leaf        = H(tag "leaf"    ‖ leaf id (32) ‖ value[0] ‖ … ‖ value[n-1])
//   padding     = H(tag "padding")                                   sums all zero
//   node        = H(tag "node"    ‖ left.hash ‖ right.hash ‖ left.sums ‖ right.sums)
//   root        = H(tag "root"    ‖ u16 bits ‖ u32 n ‖ (u32 len ‖ UTF-8 asset) × n
//                                 ‖ u32 leafCount ‖ top.hash ‖ top.sums)
//
// Amounts are unsigned big-endian integers of bits/8 bytes; H is SHA-256.
import { sha256Hex, utf8Encode } from "@candor/kernel/hash/sha256";

/** Version of the tree format and of its JSON encodings. */
export const FORMAT_VERSION = 1;

/** Bytes in a SHA-256 hash. */
export const HASH_BYTES = 32;

/** Smallest and largest accepted `bits` (the range every amount must fit: [0, 2^bits)). */
export const BITS_MIN = 8;
export const BITS_MAX = 256;

/** Salts are lowercase hex: at least 128 bits, so a user id cannot be guessed from a leaf id. */
export const SALT_PATTERN = /^(?:[0-9a-f]{2}){16,64}$/;

/** Asset ids as the kernel accepts them. */
export const ASSET_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** Longest user id, in UTF-8 bytes. */
export const USER_ID_BYTES_MAX = 256;

/** A lowercase hex SHA-256. */
export const HASH_PATTERN = /^[0-9a-f]{64}$/;

function tag(name: string): Uint8Array {
  const text = utf8Encode(`candor/proof-of-liabilities/v${FORMAT_VERSION}/${name}`);
  // A length byte makes the tags prefix-free ("leaf" is a prefix of "leaf-id").
  const bytes = new Uint8Array(1 + text.length);
  bytes[0] = text.length;
  bytes.set(text, 1);
  return bytes;
}

const tagLeafId = tag("leaf-id");
const tagLeaf = tag("leaf");
const tagPadding = tag("padding");
const tagNode = tag("node");
const tagRoot = tag("root");

/** True when `bits` is a whole number of bytes within [BITS_MIN, BITS_MAX]. */
export function isValidBits(bits: number): boolean {
  return Number.isInteger(bits) && bits >= BITS_MIN && bits <= BITS_MAX && bits % 8 === 0;
}

/** 2^bits: the first value that no amount or sum may reach. */
export function amountLimit(bits: number): bigint {
  return 1n << BigInt(bits);
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  throw new RangeError("not lowercase hex");
}

/** Lowercase hex (even length) → bytes. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) throw new RangeError("hex of odd length");
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = (hexValue(hex.charCodeAt(2 * i)) << 4) | hexValue(hex.charCodeAt(2 * i + 1));
  }
  return bytes;
}

/** Bytes → lowercase hex. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Writes `value` as `width` big-endian bytes at `offset`. The caller has range-checked it. */
function writeAmount(out: Uint8Array, offset: number, value: bigint, width: number): void {
  if (value < 0n) throw new RangeError("amount outside its width");
  // `out` is zero-filled; most users hold nothing of most assets, so zero costs nothing.
  if (value === 0n) return;
  const hex = value.toString(16);
  if (hex.length > 2 * width) throw new RangeError("amount outside its width");
  // Fill from the last byte backwards, two hex digits a byte; the leading bytes stay zero.
  let position = offset + width - 1;
  let digit = hex.length - 1;
  while (digit >= 0) {
    const low = hexValue(hex.charCodeAt(digit--));
    const high = digit >= 0 ? hexValue(hex.charCodeAt(digit--)) : 0;
    out[position--] = (high << 4) | low;
  }
}

function writeUint(out: Uint8Array, offset: number, value: number, width: 2 | 4): void {
  for (let i = width - 1; i >= 0; i--) {
    out[offset + i] = value & 0xff;
    value = Math.floor(value / 256);
  }
}

/** Writes the SHA-256 of `input` (hex from the kernel) as bytes into `out` at `offset`. */
function hashInto(input: Uint8Array, out: Uint8Array, offset: number): void {
  const hex = sha256Hex(input);
  for (let i = 0; i < HASH_BYTES; i++) {
    out[offset + i] = (hexValue(hex.charCodeAt(2 * i)) << 4) | hexValue(hex.charCodeAt(2 * i + 1));
  }
}

function hashBytes(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(HASH_BYTES);
  hashInto(input, out, 0);
  return out;
}

// The builder hashes hundreds of thousands of inputs: it assembles each one in this reused
// buffer instead of allocating a new one (allocation, not hashing, dominated the build).
let scratch = new Uint8Array(4096);

function scratchOf(length: number): Uint8Array {
  if (scratch.length < length) scratch = new Uint8Array(2 * length);
  return scratch;
}

/** The leaf id of a user: hides the id from everyone who does not know the salt. */
export function leafIdBytes(userId: string, salt: string): Uint8Array {
  const saltBytes = hexToBytes(salt);
  const idBytes = utf8Encode(userId);
  const out = new Uint8Array(tagLeafId.length + 4 + saltBytes.length + 4 + idBytes.length);
  let offset = 0;
  out.set(tagLeafId, offset);
  offset += tagLeafId.length;
  writeUint(out, offset, saltBytes.length, 4);
  out.set(saltBytes, offset + 4);
  offset += 4 + saltBytes.length;
  writeUint(out, offset, idBytes.length, 4);
  out.set(idBytes, offset + 4);
  return hashBytes(out);
}

/** Writes amounts as consecutive `bits`/8-byte big-endian integers into `out` at `offset`. */
export function writeAmounts(
  values: readonly bigint[],
  bits: number,
  out: Uint8Array,
  offset: number,
): void {
  const width = bits / 8;
  values.forEach((value, i) => writeAmount(out, offset + i * width, value, width));
}

/** Amounts as consecutive `bits`/8-byte big-endian integers. Each must lie in [0, 2^bits). */
export function encodeAmounts(values: readonly bigint[], bits: number): Uint8Array {
  const out = new Uint8Array((values.length * bits) / 8);
  writeAmounts(values, bits, out, 0);
  return out;
}

/** The inverse of {@link encodeAmounts}. */
export function decodeAmounts(bytes: Uint8Array, bits: number): bigint[] {
  const width = bits / 8;
  const values: bigint[] = [];
  for (let offset = 0; offset < bytes.length; offset += width) {
    const hex = bytesToHex(bytes.subarray(offset, offset + width));
    values.push(BigInt(`0x${hex}`));
  }
  return values;
}

/**
 * Adds two encoded amount vectors into `out`, amount by amount, with byte carries. Returns false
 * when a sum does not fit its width (the builder's range check, with no bigint per node).
 */
export function addAmounts(
  left: Uint8Array,
  right: Uint8Array,
  out: Uint8Array,
  bits: number,
): boolean {
  const width = bits / 8;
  for (let end = left.length; end > 0; end -= width) {
    let carry = 0;
    for (let i = end - 1; i >= end - width; i--) {
      const sum = left[i]! + right[i]! + carry;
      out[i] = sum & 0xff;
      carry = sum >> 8;
    }
    if (carry !== 0) return false;
  }
  return true;
}

/** Hash of a user's leaf from its encoded values, written into `out` at `offset`. */
export function leafHashInto(
  leafId: Uint8Array,
  values: Uint8Array,
  out: Uint8Array,
  offset: number,
): void {
  const length = tagLeaf.length + HASH_BYTES + values.length;
  const input = scratchOf(length);
  input.set(tagLeaf, 0);
  input.set(leafId, tagLeaf.length);
  input.set(values, tagLeaf.length + HASH_BYTES);
  hashInto(input.subarray(0, length), out, offset);
}

/** Hash of a user's leaf: their leaf id and one amount per asset. */
export function leafHash(leafId: Uint8Array, values: readonly bigint[], bits: number): Uint8Array {
  const out = new Uint8Array(HASH_BYTES);
  leafHashInto(leafId, encodeAmounts(values, bits), out, 0);
  return out;
}

/** Hash of a padding leaf (all sums zero). It takes no input, so every padding leaf is equal. */
export function paddingHash(): Uint8Array {
  return hashBytes(tagPadding);
}

/** Hash of an inner node from its children's hashes and encoded sums, into `out` at `offset`. */
export function nodeHashInto(
  leftHash: Uint8Array,
  rightHash: Uint8Array,
  leftSums: Uint8Array,
  rightSums: Uint8Array,
  out: Uint8Array,
  offset: number,
): void {
  const length = tagNode.length + 2 * HASH_BYTES + leftSums.length + rightSums.length;
  const input = scratchOf(length);
  let position = 0;
  for (const part of [tagNode, leftHash, rightHash, leftSums, rightSums]) {
    input.set(part, position);
    position += part.length;
  }
  hashInto(input.subarray(0, length), out, offset);
}

/** Hash of an inner node. Both children's sums are hashed, not only their total: see README. */
export function nodeHash(
  leftHash: Uint8Array,
  rightHash: Uint8Array,
  leftSums: readonly bigint[],
  rightSums: readonly bigint[],
  bits: number,
): Uint8Array {
  const out = new Uint8Array(HASH_BYTES);
  nodeHashInto(
    leftHash,
    rightHash,
    encodeAmounts(leftSums, bits),
    encodeAmounts(rightSums, bits),
    out,
    0,
  );
  return out;
}

/** The published root hash: binds the asset order, `bits`, the leaf count and the totals. */
export function rootHash(
  assets: readonly string[],
  bits: number,
  leafCount: number,
  topHash: Uint8Array,
  topSums: readonly bigint[],
): Uint8Array {
  const width = bits / 8;
  const assetBytes = assets.map((asset) => utf8Encode(asset));
  let length = tagRoot.length + 2 + 4 + 4 + HASH_BYTES + topSums.length * width;
  for (const bytes of assetBytes) length += 4 + bytes.length;
  const out = new Uint8Array(length);
  out.set(tagRoot, 0);
  let offset = tagRoot.length;
  writeUint(out, offset, bits, 2);
  offset += 2;
  writeUint(out, offset, assets.length, 4);
  offset += 4;
  for (const bytes of assetBytes) {
    writeUint(out, offset, bytes.length, 4);
    out.set(bytes, offset + 4);
    offset += 4 + bytes.length;
  }
  writeUint(out, offset, leafCount, 4);
  offset += 4;
  out.set(topHash, offset);
  offset += HASH_BYTES;
  for (const value of topSums) {
    writeAmount(out, offset, value, width);
    offset += width;
  }
  return hashBytes(out);
}

/** Levels of a tree over `leafCount` leaves padded to a power of two (0 for 0 or 1 leaf). */
export function depthOf(leafCount: number): number {
  let depth = 0;
  while (2 ** depth < leafCount) depth++;
  return depth;
}

/** Largest leaf count: the root hash writes it as a u32. */
export const LEAF_COUNT_MAX = 0xffffffff;

/** UTF-8 byte length of a string. */
export function utf8Length(text: string): number {
  return utf8Encode(text).length;
}
