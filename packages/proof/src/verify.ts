// Checks one user's inclusion proof against the published root, trusting neither: it recomputes
// the leaf id, the leaf, every node up to the root and the root hash, and range-checks every
// amount on the way. Runs in the browser as well as in Node.
import {
  FORMAT_VERSION,
  HASH_PATTERN,
  SALT_PATTERN,
  amountLimit,
  bytesToHex,
  depthOf,
  hexToBytes,
  isValidBits,
  leafHash,
  nodeHash,
  rootHash,
} from "./encoding.ts";
import { computeLeafId } from "./tree.ts";
import type { InclusionProof, PublishedRoot } from "./tree.ts";

/** Why a proof was refused. Append-only: web translations key on these codes. */
export const verifyFailures = [
  /** The proof or the root is of a format version this verifier does not know. */
  "unsupported_version",
  /** A field is missing, of the wrong length or shape (hex, side, counts, salt). */
  "malformed",
  /** The proof's asset list (or its number of values) differs from the published one. */
  "asset_list_mismatch",
  /** The proof's `bits` differs from the published one. */
  "bits_mismatch",
  /** The proof's leaf count differs from the published one. */
  "leaf_count_mismatch",
  /** H(salt ‖ user id) is not the proof's leaf id: not this user's leaf, or the wrong salt. */
  "leaf_id_mismatch",
  /** One of the user's own values is negative. */
  "value_negative",
  /** One of the user's own values does not fit in `bits`. */
  "value_overflow",
  /** A sibling's sum is negative: it would hide liabilities. */
  "sum_negative",
  /** A sibling's sum or a computed node sum does not fit in `bits`. */
  "sum_overflow",
  /** The path is not as long as a tree of the published leaf count is deep. */
  "path_length_mismatch",
  /** The path leads to a position past the published leaf count (into the padding). */
  "leaf_position_out_of_range",
  /** The recomputed root hash is not the published one: something in the proof was changed. */
  "root_hash_mismatch",
  /** The root hash matches but the published totals are not the ones it commits to. */
  "root_sum_mismatch",
] as const;

/** One of {@link verifyFailures}. */
export type VerifyFailure = (typeof verifyFailures)[number];

/** The verdict: `detail` is English for logs and the command line; show `reason` translated. */
export type VerifyResult =
  { ok: true; leafIndex: number } | { ok: false; reason: VerifyFailure; detail: string };

function fail(reason: VerifyFailure, detail: string): VerifyResult {
  return { ok: false, reason, detail };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function isCount(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

/**
 * Verifies that the user `userId`, with `salt`, is in the tree behind `root` with the values
 * in `proof.leaf.values`. Proves inclusion and that no sum on the path is negative or wrapped;
 * it does not prove that the operator holds assets to match (see README).
 */
export function verifyInclusion(
  proof: InclusionProof,
  root: PublishedRoot,
  userId: string,
  salt: string,
): VerifyResult {
  if (proof.version !== FORMAT_VERSION || root.version !== FORMAT_VERSION) {
    return fail("unsupported_version", `expected version ${FORMAT_VERSION}`);
  }
  if (!isValidBits(root.bits)) return fail("malformed", "root bits is not a multiple of 8 ≤ 256");
  if (!isCount(root.leafCount) || !isCount(proof.leafCount)) {
    return fail("malformed", "leaf count is not a whole number");
  }
  if (!HASH_PATTERN.test(root.hash)) return fail("malformed", "root hash is not 64 hex digits");
  if (root.sums.length !== root.assets.length) {
    return fail("malformed", "root has not one sum per asset");
  }
  if (!sameList(proof.assets, root.assets)) {
    return fail(
      "asset_list_mismatch",
      `proof lists [${proof.assets.join(", ")}], root lists [${root.assets.join(", ")}]`,
    );
  }
  if (proof.leaf.values.length !== root.assets.length) {
    return fail("asset_list_mismatch", "the leaf has not one value per asset");
  }
  if (proof.bits !== root.bits) {
    return fail("bits_mismatch", `proof bits ${proof.bits}, root bits ${root.bits}`);
  }
  if (proof.leafCount !== root.leafCount) {
    return fail(
      "leaf_count_mismatch",
      `proof leaf count ${proof.leafCount}, root leaf count ${root.leafCount}`,
    );
  }

  if (!SALT_PATTERN.test(salt)) return fail("malformed", "salt is not 32–128 lowercase hex digits");
  if (!HASH_PATTERN.test(proof.leaf.id)) return fail("malformed", "leaf id is not 64 hex digits");
  let leafId: string;
  try {
    leafId = computeLeafId(userId, salt);
  } catch (error) {
    return fail("malformed", error instanceof Error ? error.message : "invalid user id");
  }
  if (leafId !== proof.leaf.id) {
    return fail("leaf_id_mismatch", "H(salt ‖ user id) is not the proof's leaf id");
  }

  const { bits } = root;
  const limit = amountLimit(bits);
  for (const [i, value] of proof.leaf.values.entries()) {
    if (value < 0n) return fail("value_negative", `your ${root.assets[i]} value is negative`);
    if (value >= limit) {
      return fail("value_overflow", `your ${root.assets[i]} value does not fit in ${bits} bits`);
    }
  }

  const depth = depthOf(root.leafCount);
  if (proof.path.length !== depth) {
    return fail(
      "path_length_mismatch",
      `path has ${proof.path.length} steps; a tree of ${root.leafCount} leaves has ${depth}`,
    );
  }

  let hash = leafHash(hexToBytes(proof.leaf.id), proof.leaf.values, bits);
  let sums = [...proof.leaf.values];
  let leafIndex = 0;
  for (const [level, step] of proof.path.entries()) {
    if (step.side !== "left" && step.side !== "right") {
      return fail("malformed", `step ${level}: side is neither left nor right`);
    }
    if (!HASH_PATTERN.test(step.hash)) {
      return fail("malformed", `step ${level}: hash is not 64 hex digits`);
    }
    if (step.sums.length !== sums.length) {
      return fail("malformed", `step ${level}: not one sum per asset`);
    }
    for (const [i, sum] of step.sums.entries()) {
      if (sum < 0n) {
        return fail(
          "sum_negative",
          `step ${level}: the sibling's ${root.assets[i]} sum is negative`,
        );
      }
      if (sum >= limit) {
        return fail("sum_overflow", `step ${level}: the sibling's ${root.assets[i]} sum overflows`);
      }
    }
    const parentSums = sums.map((sum, i) => sum + step.sums[i]!);
    for (const [i, sum] of parentSums.entries()) {
      if (sum >= limit) {
        return fail("sum_overflow", `step ${level}: the ${root.assets[i]} sum overflows`);
      }
    }
    const siblingHash = hexToBytes(step.hash);
    if (step.side === "left") {
      hash = nodeHash(siblingHash, hash, step.sums, sums, bits);
      leafIndex += 2 ** level;
    } else {
      hash = nodeHash(hash, siblingHash, sums, step.sums, bits);
    }
    sums = parentSums;
  }
  if (leafIndex >= root.leafCount) {
    return fail(
      "leaf_position_out_of_range",
      `the path leads to position ${leafIndex}, past the ${root.leafCount} published leaves`,
    );
  }

  const computedRoot = bytesToHex(rootHash(root.assets, bits, root.leafCount, hash, sums));
  if (computedRoot !== root.hash) {
    return fail(
      "root_hash_mismatch",
      `the proof leads to root ${computedRoot}, not the published ${root.hash}`,
    );
  }
  for (const [i, sum] of sums.entries()) {
    if (sum !== root.sums[i]) {
      return fail(
        "root_sum_mismatch",
        `the root hash commits to ${root.assets[i]} total ${sum}, the root shows ${root.sums[i]}`,
      );
    }
  }
  return { ok: true, leafIndex };
}
