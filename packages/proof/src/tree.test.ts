// The tree against a slow, obvious reference written straight from the format in encoding.ts
// with node:crypto and Buffer (padding every leaf, recursion, no caches), plus its properties.
// fast-check runs are seeded; a failure prints the seed and path to replay it.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sampleInput, testSalt } from "./testing.ts";
import { buildTree, computeLeafId } from "./tree.ts";
import type { TreeInput } from "./tree.ts";
import { verifyInclusion } from "./verify.ts";

const SEED = 20_240_601;

function sha256(...parts: Buffer[]): Buffer {
  return createHash("sha256").update(Buffer.concat(parts)).digest();
}

function tag(name: string): Buffer {
  const text = Buffer.from(`candor/proof-of-liabilities/v1/${name}`, "utf8");
  return Buffer.concat([Buffer.from([text.length]), text]);
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

function amounts(values: readonly bigint[], bits: number): Buffer {
  return Buffer.concat(
    values.map((value) => Buffer.from(value.toString(16).padStart(bits / 4, "0"), "hex")),
  );
}

interface ReferenceNode {
  hash: Buffer;
  sums: bigint[];
}

/** The root hash and sums, computed the long way. */
function referenceRoot(input: TreeInput): { hash: string; sums: bigint[] } {
  const { assets, bits } = input;
  const leaves = input.leaves
    .map((entry) => {
      const salt = Buffer.from(entry.salt, "hex");
      const id = Buffer.from(entry.userId, "utf8");
      const leafId = sha256(tag("leaf-id"), u32(salt.length), salt, u32(id.length), id);
      return { leafId, values: [...entry.values] };
    })
    .sort((a, b) => Buffer.compare(a.leafId, b.leafId));
  let level: ReferenceNode[] = leaves.map((leaf) => ({
    hash: sha256(tag("leaf"), leaf.leafId, amounts(leaf.values, bits)),
    sums: leaf.values,
  }));
  let size = 1;
  while (size < level.length) size *= 2;
  while (level.length < size) {
    level.push({ hash: sha256(tag("padding")), sums: assets.map(() => 0n) });
  }
  while (level.length > 1) {
    const next: ReferenceNode[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = level[i + 1]!;
      next.push({
        hash: sha256(
          tag("node"),
          left.hash,
          right.hash,
          amounts(left.sums, bits),
          amounts(right.sums, bits),
        ),
        sums: left.sums.map((sum, j) => sum + right.sums[j]!),
      });
    }
    level = next;
  }
  const top = level[0]!;
  const bitsBytes = Buffer.alloc(2);
  bitsBytes.writeUInt16BE(bits);
  const hash = sha256(
    tag("root"),
    bitsBytes,
    u32(assets.length),
    ...assets.map((asset) => Buffer.concat([u32(Buffer.byteLength(asset)), Buffer.from(asset)])),
    u32(input.leaves.length),
    top.hash,
    amounts(top.sums, bits),
  );
  return { hash: hash.toString("hex"), sums: top.sums };
}

/** Random trees: 0–40 users, 1–4 assets, values below 2^60 (sums fit 64 bits and more). */
const treeInput: fc.Arbitrary<TreeInput> = fc
  .record({
    assetCount: fc.integer({ min: 1, max: 4 }),
    bits: fc.constantFrom(64, 128, 256),
    seed: fc.nat(),
    values: fc.array(fc.array(fc.bigInt({ min: 0n, max: 2n ** 60n }), { size: "small" }), {
      maxLength: 40,
    }),
  })
  .map(({ assetCount, bits, seed, values }) => ({
    assets: ["BTC", "ETH", "USDT", "USD"].slice(0, assetCount),
    bits,
    leaves: values.map((row, user) => ({
      userId: `user-${user}`,
      salt: testSalt(`user-${user}`, seed),
      values: Array.from({ length: assetCount }, (_, asset) => row[asset] ?? 0n),
    })),
  }));

const assets = ["BTC", "ETH", "USDT"];
const value = (user: number, asset: number) => BigInt((user + 1) * 1000 + asset);

describe("buildTree", () => {
  it("matches the reference on random trees", () => {
    fc.assert(
      fc.property(treeInput, (input) => {
        const tree = buildTree(input);
        const reference = referenceRoot(input);
        expect(tree.root.hash).toBe(reference.hash);
        expect(tree.root.sums).toEqual(reference.sums);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it("gives a proof that verifies for every leaf: 1, 2, 3, odd and power-of-two sizes", () => {
    for (const count of [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33]) {
      const input = sampleInput(count, assets, value);
      const tree = buildTree(input);
      for (const entry of input.leaves) {
        const proof = tree.proof(computeLeafId(entry.userId, entry.salt));
        expect(proof.path).toHaveLength(tree.depth);
        expect(verifyInclusion(proof, tree.root, entry.userId, entry.salt).ok).toBe(true);
      }
    }
  });

  it("gives a proof that verifies for every leaf of random trees", () => {
    fc.assert(
      fc.property(treeInput, (input) => {
        const tree = buildTree(input);
        for (const entry of input.leaves) {
          const leafId = computeLeafId(entry.userId, entry.salt);
          const proof = tree.proof(leafId);
          expect(proof.leaf.values).toEqual(entry.values);
          expect(verifyInclusion(proof, tree.root, entry.userId, entry.salt)).toEqual({
            ok: true,
            leafIndex: tree.leafIds.indexOf(leafId),
          });
        }
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it("has root sums equal to the sum of the leaves, per asset", () => {
    fc.assert(
      fc.property(treeInput, (input) => {
        const expected = input.assets.map((_, asset) =>
          input.leaves.reduce((total, entry) => total + entry.values[asset]!, 0n),
        );
        expect(buildTree(input).root.sums).toEqual(expected);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it("builds the same root twice and whatever the order of the input", () => {
    fc.assert(
      fc.property(
        treeInput.chain((input) =>
          fc.tuple(
            fc.constant(input),
            fc.shuffledSubarray([...input.leaves], {
              minLength: input.leaves.length,
            }),
          ),
        ),
        ([input, shuffled]) => {
          const first = buildTree(input);
          expect(buildTree(input).root).toEqual(first.root);
          expect(buildTree({ ...input, leaves: shuffled }).root).toEqual(first.root);
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
  });

  it("sorts leaves by leaf id and finds proofs by position or by id", () => {
    const tree = buildTree(sampleInput(6, assets, value));
    expect([...tree.leafIds]).toEqual([...tree.leafIds].sort());
    expect(tree.proof(2)).toEqual(tree.proof(tree.leafIds[2]!));
    expect(() => tree.proof(6)).toThrow(RangeError);
    expect(() => tree.proof("00".repeat(32))).toThrow(RangeError);
  });

  it("publishes an empty tree: no leaves, zero sums", () => {
    const tree = buildTree({ assets, bits: 128, leaves: [] });
    expect(tree.root.leafCount).toBe(0);
    expect(tree.root.sums).toEqual([0n, 0n, 0n]);
    expect(tree.root.hash).toBe(referenceRoot({ assets, bits: 128, leaves: [] }).hash);
  });

  it("keeps its format: a fixed input has a fixed root hash", () => {
    // If this changes, the format changed: bump FORMAT_VERSION, do not update the constant.
    const tree = buildTree(sampleInput(3, assets, value));
    expect(tree.root.hash).toBe("e4261d900b5300b4debefbe54a83c57a858177665af9ed09cdafbc4bfdd212b7");
  });

  it("binds the asset order, bits and leaf count into the root hash", () => {
    const input = sampleInput(4, assets, value);
    const base = buildTree(input).root.hash;
    const reordered = {
      ...input,
      assets: ["ETH", "BTC", "USDT"],
    };
    expect(buildTree(reordered).root.hash).not.toBe(base);
    expect(buildTree({ ...input, bits: 64 }).root.hash).not.toBe(base);
    // A zero-valued extra user changes no sum but does change the leaf count and the root.
    const extra = sampleInput(5, assets, (user, asset) => (user === 4 ? 0n : value(user, asset)));
    expect(buildTree(extra).root.sums).toEqual(buildTree(input).root.sums);
    expect(buildTree(extra).root.hash).not.toBe(base);
  });

  it("refuses what it could not prove", () => {
    const good = sampleInput(2, assets, value);
    const withValues = (values: bigint[]) => ({
      ...good,
      leaves: [good.leaves[0]!, { ...good.leaves[1]!, values }],
    });
    expect(() => buildTree(withValues([1n, -1n, 1n]))).toThrow(/outside/);
    expect(() => buildTree(withValues([1n, 2n ** 128n, 1n]))).toThrow(/outside/);
    expect(() => buildTree(withValues([1n, 1n]))).toThrow(/values/);
    expect(() =>
      buildTree({
        ...good,
        bits: 8,
        leaves: good.leaves.map((entry) => ({ ...entry, values: [200n, 0n, 0n] })),
      }),
    ).toThrow(/does not fit/);
    expect(() => buildTree({ ...good, leaves: [good.leaves[0]!, good.leaves[0]!] })).toThrow(
      /twice/,
    );
    expect(() =>
      buildTree({ ...good, leaves: [{ ...good.leaves[0]!, salt: "ABCDEF".repeat(6) }] }),
    ).toThrow(/salt/);
    expect(() =>
      buildTree({ ...good, leaves: [{ ...good.leaves[0]!, salt: "ab".repeat(15) }] }),
    ).toThrow(/salt/);
    expect(() => buildTree({ ...good, leaves: [{ ...good.leaves[0]!, userId: "" }] })).toThrow(
      /user id/,
    );
    expect(() =>
      buildTree({ ...good, leaves: [{ ...good.leaves[0]!, userId: "a\ud800" }] }),
    ).toThrow(/user id/);
    const withUserId = (userId: string) => ({ ...good, leaves: [{ ...good.leaves[0]!, userId }] });
    expect(() => buildTree(withUserId("a".repeat(257)))).toThrow(/longer/);
    expect(() => buildTree(withUserId("€".repeat(86)))).toThrow(/longer/);
    expect(buildTree(withUserId("€".repeat(85))).leafCount).toBe(1);
    expect(() => buildTree({ ...good, bits: 100 })).toThrow(/bits/);
    expect(() => buildTree({ ...good, bits: 264 })).toThrow(/bits/);
    expect(() => buildTree({ ...good, assets: ["BTC", "BTC", "ETH"] })).toThrow(/twice/);
    expect(() => buildTree({ ...good, assets: [], leaves: [] })).toThrow(/assets/);
  });

  it("fills the range up to 2^bits - 1 exactly", () => {
    const max = 2n ** 8n - 1n;
    const input = {
      assets: ["BTC"],
      bits: 8,
      leaves: [
        { userId: "a", salt: testSalt("a"), values: [max - 5n] },
        { userId: "b", salt: testSalt("b"), values: [5n] },
      ],
    };
    const tree = buildTree(input);
    expect(tree.root.sums).toEqual([max]);
    expect(tree.root.hash).toBe(referenceRoot(input).hash);
  });
});
