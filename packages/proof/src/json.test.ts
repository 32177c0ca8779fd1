// The JSON encodings round-trip through text, carry money only as canonical decimal strings and
// refuse anything else.
import { describe, expect, it } from "vitest";
import { decodeProof, decodeRoot, encodeProof, encodeRoot } from "./json.ts";
import { sampleInput } from "./testing.ts";
import { buildTree } from "./tree.ts";
import { verifyInclusion } from "./verify.ts";

const assets = ["BTC", "ETH", "USDT"];
const input = sampleInput(5, assets, (user, asset) => 10n ** 30n + BigInt(user * 3 + asset));
const tree = buildTree(input);

function throughText<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe("root and proof JSON", () => {
  it("round-trips and still verifies, with amounts as decimal strings", () => {
    const rootJson = encodeRoot(tree.root);
    expect(rootJson.sums.every((sum) => typeof sum === "string")).toBe(true);
    expect(rootJson.version).toBe(1);
    const root = decodeRoot(throughText(rootJson));
    expect(root).toEqual({ ok: true, value: tree.root });

    for (const entry of input.leaves) {
      const index = tree.leafIds.findIndex((id) => tree.proof(id).leaf.salt === entry.salt);
      const proofJson = encodeProof(tree.proof(index));
      expect(proofJson.leaf.values).toEqual(entry.values.map((amount) => amount.toString()));
      const proof = decodeProof(throughText(proofJson));
      expect(proof).toEqual({ ok: true, value: tree.proof(index) });
      if (!proof.ok || !root.ok) throw new Error("unreachable");
      expect(verifyInclusion(proof.value, root.value, entry.userId, entry.salt).ok).toBe(true);
    }
  });

  it("passes negative amounts through, for the verifier to name", () => {
    const json = throughText(encodeProof(tree.proof(0))) as { leaf: { values: string[] } };
    json.leaf.values[0] = "-5";
    const proof = decodeProof(json);
    expect(proof.ok && proof.value.leaf.values[0]).toBe(-5n);
  });

  it("refuses numbers for money, non-canonical integers, unknown fields and other versions", () => {
    const rootJson = () => throughText(encodeRoot(tree.root)) as Record<string, unknown>;
    const refused = (json: unknown) => decodeRoot(json).ok === false;
    for (const sum of [5, "05", "1.0", "+1", "1e3", " 1", "-0", ""]) {
      expect(refused({ ...rootJson(), sums: [sum, "0", "0"] })).toBe(true);
    }
    expect(refused({ ...rootJson(), extra: true })).toBe(true);
    expect(refused({ ...rootJson(), version: 2 })).toBe(true);
    expect(refused({ ...rootJson(), hash: "ABC" })).toBe(true);
    expect(refused({ ...rootJson(), bits: 1.5 })).toBe(true);
    expect(refused({ ...rootJson(), leafCount: -1 })).toBe(true);
    expect(refused([])).toBe(true);
    expect(refused(null)).toBe(true);
    const { hash: _hash, ...withoutHash } = rootJson();
    expect(decodeRoot(withoutHash)).toEqual({
      ok: false,
      reason: "malformed",
      detail: 'root lacks "hash"',
    });

    const proofJson = () => throughText(encodeProof(tree.proof(0))) as Record<string, unknown>;
    const path = (proofJson().path as Record<string, unknown>[]).map((step) => ({
      ...step,
      side: "up",
    }));
    expect(decodeProof({ ...proofJson(), path }).ok).toBe(false);
    expect(
      decodeProof({ ...proofJson(), leaf: { id: "00", salt: "00", values: [1, 2, 3] } }),
    ).toEqual({ ok: false, reason: "malformed", detail: "leaf.values[0] is not a decimal string" });
  });
});
