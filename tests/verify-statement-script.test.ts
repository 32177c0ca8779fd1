import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { buildTree, chainStatement, computeLeafId, encodeProof, encodeRoot } from "@candor/proof";
import { testSalt } from "@candor/proof/testing";
import { afterAll, describe, expect, it } from "vitest";

// scripts/verify-statement.ts, run as a user would: files saved from the API in, a verdict and an
// exit code out.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "candor-verify-statement-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scales: Record<string, number> = { BTC: 8, USDT: 6 };
const line = (postingSeq: number, sequence: number, asset: string, units: bigint) => ({
  postingSeq: String(postingSeq),
  sequence: String(sequence),
  atMs: 1_764_000_000_000 + postingSeq,
  wallet: "fund",
  asset,
  units,
  fromHeld: false,
  reason: "deposit",
  counterparty: "system:external",
  orderId: null,
  fillId: null,
  tickId: null,
  operatorId: "op-1",
  reference: `bank-${postingSeq}`,
});
const { lines, head } = chainStatement(
  "user-7",
  "real",
  [line(3, 10, "USDT", 125_000_000n), line(9, 30, "BTC", 2_000_000n)],
  (asset) => scales[asset]!,
);
const statement = {
  version: 1,
  userId: "user-7",
  mode: "real",
  sequence: "40",
  generatedAtMs: 1_764_000_001_000,
  assets: [
    { asset: "BTC", scale: 8 },
    { asset: "USDT", scale: 6 },
  ],
  balances: [
    { wallet: "fund", asset: "USDT", amount: "125" },
    { wallet: "fund", asset: "BTC", amount: "0.02" },
  ],
  lines,
  head,
};
// A tree at sequence 20: the user's USDT deposit is in it, the later BTC one not yet.
const tree = buildTree({
  assets: ["BTC", "USDT"],
  bits: 128,
  leaves: [
    { userId: "user-7", salt: testSalt("user-7"), values: [0n, 125_000_000n] },
    { userId: "user-8", salt: testSalt("user-8"), values: [5n, 6n] },
  ],
});
const proofOf = (userId: string) => ({
  userId,
  proof: encodeProof(tree.proof(computeLeafId(userId, testSalt(userId)))),
});

function save(name: string, value: unknown) {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ code: 200, message: "OK", data: value }));
  return file;
}

async function verify(...args: string[]) {
  try {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/verify-statement.ts", ...args],
      { cwd: root },
    );
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout + failed.stderr };
  }
}

describe("scripts/verify-statement.ts", () => {
  const publication = save("publication.json", { sequence: "20", root: encodeRoot(tree.root) });

  it("verifies a statement alone, and against the published tree with the user's proof", async () => {
    const file = save("statement.json", statement);
    const alone = await verify("--statement", file);
    expect(alone.stdout).toContain("VERIFIED");
    expect(alone.code).toBe(0);
    const withTree = await verify(
      "--statement",
      file,
      "--publication",
      publication,
      "--proof",
      save("me.json", proofOf("user-7")),
    );
    expect(withTree.stdout).toContain("add up to your amounts in the published tree");
    expect(withTree.code, withTree.stdout).toBe(0);
  });

  it("says NOT VERIFIED, exit code 1, for a changed line or a tree it does not add up to", async () => {
    const changed = structuredClone(statement);
    changed.lines[1]!.reference = "bank-10";
    const tampered = await verify("--statement", save("changed.json", changed));
    expect(tampered.stdout).toContain("NOT VERIFIED (chain_broken)");
    expect(tampered.code).toBe(1);

    const other = await verify(
      "--statement",
      save("statement2.json", statement),
      "--publication",
      publication,
      "--proof",
      save("other.json", proofOf("user-8")),
    );
    expect(other.stdout).toContain("NOT VERIFIED (leaf_id_mismatch)");
    expect(other.code).toBe(1);

    // Claimed to be the tree of a later sequence: the BTC deposit should then be in the leaf.
    const later = await verify(
      "--statement",
      save("statement3.json", statement),
      "--publication",
      save("later.json", { sequence: "35", root: encodeRoot(tree.root) }),
      "--proof",
      save("me2.json", proofOf("user-7")),
    );
    expect(later.stdout).toContain(
      "BTC postings up to 35 add up to 2000000 units, the tree holds 0",
    );
    expect(later.code).toBe(1);
  });

  it("exits with 2 on missing arguments or unreadable files", async () => {
    expect((await verify()).code).toBe(2);
    expect((await verify("--statement", path.join(dir, "missing.json"))).code).toBe(2);
    const half = await verify("--statement", save("s3.json", statement), "--proof", publication);
    expect(half.code).toBe(2);
  });
});
