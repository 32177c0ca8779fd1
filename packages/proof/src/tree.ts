// A Merkle sum tree over users' liabilities: each node carries a hash and, per asset, the sum
// of the leaves below it. Modelled on summa-solvency's tree, with each child's sums hashed
// separately (Hu, Zhang and Guo's fix of Maxwell's tree) and SHA-256 instead of Poseidon.
import {
  ASSET_PATTERN,
  FORMAT_VERSION,
  LEAF_COUNT_MAX,
  SALT_PATTERN,
  USER_ID_BYTES_MAX,
  amountLimit,
  bytesToHex,
  depthOf,
  HASH_BYTES,
  addAmounts,
  decodeAmounts,
  isValidBits,
  leafHashInto,
  leafIdBytes,
  nodeHashInto,
  paddingHash,
  rootHash,
  utf8Length,
  writeAmounts,
} from "./encoding.ts";

/** One real user's entry, as the server computes it from the kernel's state at one sequence. */
export interface LiabilityEntry {
  /** The user's id; it never leaves the server except in that user's own proof request. */
  userId: string;
  /** Per-user salt, lowercase hex of 16–64 bytes; given to that user only. */
  salt: string;
  /** What Candor owes the user, per asset in the tree's asset order, in smallest units (≥ 0). */
  values: readonly bigint[];
}

/** What a tree is built from. */
export interface TreeInput {
  /** Asset ids in the published order; leaf values and sums follow it. */
  assets: readonly string[];
  /** Every amount and every sum lies in [0, 2^bits); a multiple of 8 in [8, 256], e.g. 128. */
  bits: number;
  /** One entry per real user, in any order: the tree sorts them by leaf id. */
  leaves: readonly LiabilityEntry[];
}

/** A node's hash and per-asset sums, in smallest units. */
export interface NodeValue {
  /** Lowercase hex SHA-256. */
  hash: string;
  /** Sum of the leaves below, per asset, in smallest units. */
  sums: bigint[];
}

/** What the operator publishes: the root hash commits to every other field. */
export interface PublishedRoot extends NodeValue {
  version: typeof FORMAT_VERSION;
  assets: string[];
  bits: number;
  /** Real users in the tree (padding leaves not counted). */
  leafCount: number;
}

/** Where the sibling sits at one level, from the leaf up. */
export type Side = "left" | "right";

/** The sibling of the path's node at one level, from the leaf up. */
export interface PathStep extends NodeValue {
  side: Side;
}

/** A user's inclusion proof: their leaf and the siblings up to the root. */
export interface InclusionProof {
  version: typeof FORMAT_VERSION;
  assets: string[];
  bits: number;
  leafCount: number;
  leaf: {
    /** Lowercase hex leaf id, H(salt ‖ user id). */
    id: string;
    /** The salt, so the user can recompute the leaf id; in that user's proof only. */
    salt: string;
    /** The user's liabilities per asset, in smallest units. */
    values: bigint[];
  };
  path: PathStep[];
}

/** A built tree. Keeps every level in memory: 44 MB of bytes for 100,000 users and 12 assets. */
export interface LiabilityTree {
  root: PublishedRoot;
  leafCount: number;
  /** Levels above the leaves: every proof has this many steps. */
  depth: number;
  /** Leaf ids in tree order (ascending). */
  leafIds: readonly string[];
  /** The proof of the leaf at this position, or with this leaf id (hex). */
  proof(leaf: number | string): InclusionProof;
}

/** One level of the tree: node i's hash and encoded sums sit at i × their width. */
interface Level {
  count: number;
  hashes: Uint8Array;
  sums: Uint8Array;
}

interface Leaf {
  id: Uint8Array;
  idHex: string;
  salt: string;
  values: bigint[];
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The leaf id a user can recompute from their id and salt (lowercase hex). */
export function computeLeafId(userId: string, salt: string): string {
  checkUserId(userId);
  if (!SALT_PATTERN.test(salt)) throw new RangeError("salt must be 32–128 lowercase hex digits");
  return bytesToHex(leafIdBytes(userId, salt));
}

function checkUserId(userId: string): void {
  // A lone surrogate would be encoded as U+FFFD and so collide with another id.
  if (userId.length === 0 || LONE_SURROGATE.test(userId)) {
    throw new RangeError("user id must be non-empty, well-formed text");
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes, so short ids need no encoding to be measured.
  if (userId.length * 3 > USER_ID_BYTES_MAX && utf8Length(userId) > USER_ID_BYTES_MAX) {
    throw new RangeError(`user id longer than ${USER_ID_BYTES_MAX} bytes`);
  }
}

function checkAssets(assets: readonly string[]): void {
  if (assets.length === 0) throw new RangeError("no assets");
  const seen = new Set<string>();
  for (const asset of assets) {
    if (!ASSET_PATTERN.test(asset)) throw new RangeError(`asset id "${asset}" is malformed`);
    if (seen.has(asset)) throw new RangeError(`asset "${asset}" listed twice`);
    seen.add(asset);
  }
}

/**
 * Builds the tree. Leaves are sorted by leaf id, so the root does not depend on input order and
 * a leaf's position says nothing about the user. The leaf count is padded to a power of two
 * with padding leaves (a distinct tag, zero sums). Throws on invalid input: a negative or
 * too-large value, a user listed twice, a malformed salt, or totals that overflow `bits`.
 */
export function buildTree(input: TreeInput): LiabilityTree {
  const { bits } = input;
  const assets = [...input.assets];
  checkAssets(assets);
  if (!isValidBits(bits)) throw new RangeError("bits must be a multiple of 8 in [8, 256]");
  if (input.leaves.length > LEAF_COUNT_MAX) throw new RangeError("too many leaves");
  const limit = amountLimit(bits);

  const userIds = new Set<string>();
  const leaves: Leaf[] = input.leaves.map((entry) => {
    checkUserId(entry.userId);
    if (userIds.has(entry.userId)) throw new RangeError(`user "${entry.userId}" listed twice`);
    userIds.add(entry.userId);
    if (!SALT_PATTERN.test(entry.salt)) {
      throw new RangeError(`salt of user "${entry.userId}" must be 32–128 lowercase hex digits`);
    }
    if (entry.values.length !== assets.length) {
      throw new RangeError(`user "${entry.userId}" has ${entry.values.length} values`);
    }
    for (const value of entry.values) {
      if (typeof value !== "bigint" || value < 0n || value >= limit) {
        throw new RangeError(`a value of user "${entry.userId}" is outside [0, 2^${bits})`);
      }
    }
    const id = leafIdBytes(entry.userId, entry.salt);
    return { id, idHex: bytesToHex(id), salt: entry.salt, values: [...entry.values] };
  });
  leaves.sort((a, b) => (a.idHex < b.idHex ? -1 : a.idHex > b.idHex ? 1 : 0));
  for (let i = 1; i < leaves.length; i++) {
    if (leaves[i]!.idHex === leaves[i - 1]!.idHex) throw new RangeError("two leaves share an id");
  }

  const depth = depthOf(leaves.length);
  // Hashes and sums live in one byte array per level, sums already encoded as they are hashed:
  // no bigint and no object per node, which keeps 100,000 users from being a garbage problem.
  const sumsWidth = assets.length * (bits / 8);
  // emptyHash[h] is the root of a subtree of 2^h padding leaves (sums zero). Padding is always a
  // suffix, so a level of odd length is completed with emptyHash[h]: the same tree as padding
  // every leaf, in O(depth) extra hashes.
  const zeroSums = new Uint8Array(sumsWidth);
  const emptyHash: Uint8Array[] = [paddingHash()];
  for (let h = 1; h <= depth; h++) {
    const below = emptyHash[h - 1]!;
    const hash = new Uint8Array(HASH_BYTES);
    nodeHashInto(below, below, zeroSums, zeroSums, hash, 0);
    emptyHash.push(hash);
  }

  const leafLevel: Level = {
    count: leaves.length,
    hashes: new Uint8Array(leaves.length * HASH_BYTES),
    sums: new Uint8Array(leaves.length * sumsWidth),
  };
  leaves.forEach((leaf, i) => {
    writeAmounts(leaf.values, bits, leafLevel.sums, i * sumsWidth);
    const values = leafLevel.sums.subarray(i * sumsWidth, (i + 1) * sumsWidth);
    leafHashInto(leaf.id, values, leafLevel.hashes, i * HASH_BYTES);
  });
  const levels: Level[] = [leafLevel];
  const hashAt = (level: Level, h: number, i: number) =>
    i < level.count ? level.hashes.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES) : emptyHash[h]!;
  const sumsAt = (level: Level, i: number) =>
    i < level.count ? level.sums.subarray(i * sumsWidth, (i + 1) * sumsWidth) : zeroSums;
  for (let h = 0; h < depth; h++) {
    const below = levels[h]!;
    const count = Math.ceil(below.count / 2);
    const level: Level = {
      count,
      hashes: new Uint8Array(count * HASH_BYTES),
      sums: new Uint8Array(count * sumsWidth),
    };
    for (let i = 0; i < count; i++) {
      const leftSums = sumsAt(below, 2 * i);
      const rightSums = sumsAt(below, 2 * i + 1);
      nodeHashInto(
        hashAt(below, h, 2 * i),
        hashAt(below, h, 2 * i + 1),
        leftSums,
        rightSums,
        level.hashes,
        i * HASH_BYTES,
      );
      // The builder refuses what the verifier would refuse: a sum that does not fit `bits`.
      if (!addAmounts(leftSums, rightSums, level.sums.subarray(i * sumsWidth), bits)) {
        throw new RangeError("a sum of liabilities does not fit in `bits`");
      }
    }
    levels.push(level);
  }
  const top = levels[depth]!;
  const topSums = decodeAmounts(sumsAt(top, 0), bits);
  const topHash = hashAt(top, depth, 0);
  const root: PublishedRoot = {
    version: FORMAT_VERSION,
    assets,
    bits,
    leafCount: leaves.length,
    hash: bytesToHex(rootHash(assets, bits, leaves.length, topHash, topSums)),
    sums: topSums,
  };

  // Proofs need only these; the leaves' bigint values are read back from level 0.
  const leafIds = leaves.map((leaf) => leaf.idHex);
  const salts = leaves.map((leaf) => leaf.salt);
  const indexById = new Map<string, number>();
  leafIds.forEach((id, index) => indexById.set(id, index));

  function proof(which: number | string): InclusionProof {
    const index = typeof which === "number" ? which : indexById.get(which);
    if (index === undefined || !Number.isInteger(index) || index < 0 || index >= leafIds.length) {
      throw new RangeError(`no leaf ${String(which)}`);
    }
    const path: PathStep[] = [];
    let position = index;
    for (let h = 0; h < depth; h++) {
      const level = levels[h]!;
      path.push({
        side: position % 2 === 0 ? "right" : "left",
        hash: bytesToHex(hashAt(level, h, position ^ 1)),
        sums: decodeAmounts(sumsAt(level, position ^ 1), bits),
      });
      position = Math.floor(position / 2);
    }
    return {
      version: FORMAT_VERSION,
      assets: [...assets],
      bits,
      leafCount: leafIds.length,
      leaf: {
        id: leafIds[index]!,
        salt: salts[index]!,
        values: decodeAmounts(sumsAt(levels[0]!, index), bits),
      },
      path,
    };
  }

  return {
    root,
    leafCount: leafIds.length,
    depth,
    leafIds: [...leafIds],
    proof,
  };
}
