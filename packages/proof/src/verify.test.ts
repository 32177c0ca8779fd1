// Every way a proof can be wrong fails, and with the reason that names it.
import { describe, expect, it } from "vitest";
import { sampleInput } from "./testing.ts";
import { buildTree, computeLeafId } from "./tree.ts";
import type { InclusionProof, PublishedRoot } from "./tree.ts";
import { verifyInclusion } from "./verify.ts";
import type { VerifyFailure } from "./verify.ts";

const assets = ["BTC", "ETH", "USDT"];
const value = (user: number, asset: number) => BigInt((user + 1) * 1_000 + asset * 7);
// Eight users: a power of two, so every path is full and every side swap stays in range.
const input = sampleInput(8, assets, value);
const tree = buildTree(input);
// The user at position 2, so a smaller published leaf count still includes them.
const user = input.leaves.find(
  (entry) => computeLeafId(entry.userId, entry.salt) === tree.leafIds[2],
)!;

function proofOfUser(): InclusionProof {
  return structuredClone(tree.proof(2));
}

function reasonOf(
  proof: InclusionProof,
  root: PublishedRoot = tree.root,
  userId = user.userId,
  salt = user.salt,
): VerifyFailure | "ok" {
  const result = verifyInclusion(proof, root, userId, salt);
  return result.ok ? "ok" : result.reason;
}

function flipHex(hex: string): string {
  return (hex[0] === "0" ? "1" : "0") + hex.slice(1);
}

describe("verifyInclusion", () => {
  it("accepts the untouched proof", () => {
    expect(reasonOf(proofOfUser())).toBe("ok");
  });

  it("fails a tampered leaf value: root_hash_mismatch", () => {
    const proof = proofOfUser();
    proof.leaf.values[1] = proof.leaf.values[1]! + 1n;
    expect(reasonOf(proof)).toBe("root_hash_mismatch");
  });

  it("fails a tampered sibling hash: root_hash_mismatch", () => {
    for (let level = 0; level < tree.depth; level++) {
      const proof = proofOfUser();
      proof.path[level]!.hash = flipHex(proof.path[level]!.hash);
      expect(reasonOf(proof)).toBe("root_hash_mismatch");
    }
  });

  it("fails a tampered sibling sum, even one that keeps the parent's total: root_hash_mismatch", () => {
    for (let level = 0; level < tree.depth; level++) {
      const proof = proofOfUser();
      proof.path[level]!.sums[0] = proof.path[level]!.sums[0]! - 1n;
      expect(reasonOf(proof)).toBe("root_hash_mismatch");
    }
    // Hu, Zhang and Guo's attack on Maxwell's tree: move liabilities from the sibling onto the
    // user's own side so the parent total is unchanged. Hashing only the total would accept it;
    // hashing each child's sums does not.
    const proof = proofOfUser();
    proof.leaf.values[0] = proof.leaf.values[0]! + 5n;
    proof.path[0]!.sums[0] = proof.path[0]!.sums[0]! - 5n;
    expect(reasonOf(proof)).toBe("root_hash_mismatch");
  });

  it("fails a negative value: value_negative, and a negative sibling sum: sum_negative", () => {
    const own = proofOfUser();
    own.leaf.values[2] = -1n;
    expect(reasonOf(own)).toBe("value_negative");
    const sibling = proofOfUser();
    sibling.path[1]!.sums[2] = -1n;
    expect(reasonOf(sibling)).toBe("sum_negative");
  });

  it("fails an overflowing value or sum: value_overflow, sum_overflow", () => {
    const limit = 2n ** 128n;
    const own = proofOfUser();
    own.leaf.values[0] = limit;
    expect(reasonOf(own)).toBe("value_overflow");
    const sibling = proofOfUser();
    sibling.path[0]!.sums[0] = limit;
    expect(reasonOf(sibling)).toBe("sum_overflow");
    // Each addend fits, their sum does not: a wrap-around would otherwise hide liabilities.
    const parent = proofOfUser();
    parent.path[0]!.sums[0] = limit - 1n;
    expect(reasonOf(parent)).toBe("sum_overflow");
  });

  it("fails a swapped side: root_hash_mismatch", () => {
    for (let level = 0; level < tree.depth; level++) {
      const proof = proofOfUser();
      const step = proof.path[level]!;
      step.side = step.side === "left" ? "right" : "left";
      expect(reasonOf(proof)).toBe("root_hash_mismatch");
    }
  });

  it("fails against another root: root_hash_mismatch", () => {
    const other = buildTree(sampleInput(8, assets, (u, a) => value(u, a) + (u === 0 ? 1n : 0n)));
    expect(reasonOf(proofOfUser(), other.root)).toBe("root_hash_mismatch");
  });

  it("fails against a root of a different asset list: asset_list_mismatch", () => {
    const root = { ...tree.root, assets: ["BTC", "USDT", "ETH"] };
    expect(reasonOf(proofOfUser(), root)).toBe("asset_list_mismatch");
    const proof = proofOfUser();
    proof.leaf.values.pop();
    expect(reasonOf(proof)).toBe("asset_list_mismatch");
    // A proof relabelled to match a relabelled root still fails: the hash binds the order.
    const relabelled = proofOfUser();
    relabelled.assets = root.assets;
    expect(reasonOf(relabelled, root)).toBe("root_hash_mismatch");
  });

  it("fails a mismatched bits or leaf count", () => {
    expect(reasonOf(proofOfUser(), { ...tree.root, bits: 64 })).toBe("bits_mismatch");
    expect(reasonOf(proofOfUser(), { ...tree.root, leafCount: 9 })).toBe("leaf_count_mismatch");
    const both = proofOfUser();
    both.leafCount = 5;
    // Five leaves still make a tree of depth 3, so the path length is right; the hash is not.
    expect(reasonOf(both, { ...tree.root, leafCount: 5 })).toBe("root_hash_mismatch");
  });

  it("fails someone else's leaf or the wrong salt: leaf_id_mismatch", () => {
    const other = input.leaves.find((entry) => entry !== user)!;
    expect(reasonOf(proofOfUser(), tree.root, other.userId)).toBe("leaf_id_mismatch");
    expect(reasonOf(proofOfUser(), tree.root, user.userId, other.salt)).toBe("leaf_id_mismatch");
  });

  it("fails a path of the wrong length or one leading into the padding", () => {
    const short = proofOfUser();
    short.path.pop();
    expect(reasonOf(short)).toBe("path_length_mismatch");
    const long = proofOfUser();
    long.path.push({ ...long.path[0]! });
    expect(reasonOf(long)).toBe("path_length_mismatch");

    // Five users: positions 5–7 are padding. A proof claiming one of them is refused.
    const small = buildTree(sampleInput(5, assets, value));
    const proof = structuredClone(small.proof(4));
    const entry = input.leaves.find((leaf) => leaf.salt === proof.leaf.salt)!;
    expect(reasonOf(proof, small.root, entry.userId, entry.salt)).toBe("ok");
    proof.path[0]!.side = "left";
    expect(reasonOf(proof, small.root, entry.userId, entry.salt)).toBe(
      "leaf_position_out_of_range",
    );
  });

  it("fails a root whose shown totals are not the ones its hash commits to", () => {
    const sums = [...tree.root.sums];
    sums[0] = sums[0]! - 1n;
    expect(reasonOf(proofOfUser(), { ...tree.root, sums })).toBe("root_sum_mismatch");
  });

  it("reports malformed input without throwing", () => {
    const side = proofOfUser();
    (side.path[0] as { side: string }).side = "up";
    expect(reasonOf(side)).toBe("malformed");
    const hash = proofOfUser();
    hash.path[0]!.hash = "xyz";
    expect(reasonOf(hash)).toBe("malformed");
    const sums = proofOfUser();
    sums.path[0]!.sums.pop();
    expect(reasonOf(sums)).toBe("malformed");
    expect(reasonOf(proofOfUser(), tree.root, user.userId, "not-hex")).toBe("malformed");
    expect(reasonOf(proofOfUser(), tree.root, "")).toBe("malformed");
    expect(reasonOf(proofOfUser(), { ...tree.root, bits: 7 })).toBe("malformed");
    expect(reasonOf({ ...proofOfUser(), version: 2 as 1 })).toBe("unsupported_version");
  });
});
