// Checks your statement without trusting the server that gave it to you:
//   npx tsx scripts/verify-statement.ts --statement statement.json \
//     [--publication publication.json --proof proof.json]
// With only the statement: the hash chain, every running balance and the stated balances. With
// your liabilities proof as well: the proof against the root (as verify-liabilities.ts does),
// then your postings up to the tree's sequence against your amounts in it. Exit code 0 when
// everything checks, 1 when something does not, 2 when files or arguments cannot be read.
import { parseArgs } from "node:util";
import {
  decodeProof,
  decodeRoot,
  totalsUpTo,
  verifyInclusion,
  verifyStatement,
  type StatementExport,
} from "@candor/proof";
import { readJson, stop } from "./verifier-cli.ts";

const usage =
  "usage: npx tsx scripts/verify-statement.ts --statement statement.json " +
  "[--publication publication.json --proof proof.json]";

/** The API's answer as saved by curl (`{ code, message, data }`), or its `data` alone. */
function dataOf(value: unknown): unknown {
  return value && typeof value === "object" && "data" in value ? value.data : value;
}

function fail(message: string): never {
  console.log(`\nNOT VERIFIED ${message}`);
  process.exit(1);
}

let values: { statement?: string; publication?: string; proof?: string };
try {
  values = parseArgs({
    options: {
      statement: { type: "string" },
      publication: { type: "string" },
      proof: { type: "string" },
    },
  }).values;
} catch (error) {
  stop(`${(error as Error).message}\n${usage}`);
}
if (!values.statement || Boolean(values.publication) !== Boolean(values.proof)) stop(usage);

const statement = dataOf(readJson(values.statement, "statement")) as StatementExport;
const check = verifyStatement(statement);
if (!check.ok) fail(`(${check.reason}): ${check.detail}`);
console.log(`User       ${statement.userId} (${statement.mode})`);
console.log(`Postings   ${check.lineCount} up to journal sequence ${statement.sequence}`);
console.log(`Chain head ${check.head}`);
console.log(
  "The chain holds, every running balance follows, and the lines add up to the balances.",
);

if (values.publication && values.proof) {
  const publication = dataOf(readJson(values.publication, "publication")) as {
    sequence?: unknown;
    root?: unknown;
  };
  const sequence = publication?.sequence;
  if (typeof sequence !== "string" || !/^\d+$/.test(sequence)) {
    stop("the publication file has no journal `sequence`: save GET /api/v1/proof/liabilities");
  }
  const root = decodeRoot(publication.root);
  if (!root.ok) stop(`the publication's root is malformed: ${root.detail}`);
  // GET /api/v1/proof/liabilities/me as saved, or the `proof` inside it.
  const mine = dataOf(readJson(values.proof, "proof"));
  const proof = decodeProof(
    mine && typeof mine === "object" && "proof" in mine ? mine.proof : mine,
  );
  if (!proof.ok) stop(`the proof file is malformed: ${proof.detail}`);
  const included = verifyInclusion(
    proof.value,
    root.value,
    statement.userId,
    proof.value.leaf.salt,
  );
  if (!included.ok) fail(`(${included.reason}): your proof does not verify: ${included.detail}`);
  if (BigInt(sequence) > BigInt(statement.sequence)) {
    fail(`: the tree (sequence ${sequence}) is newer than the statement; export it again`);
  }
  const totals = totalsUpTo(statement, BigInt(sequence));
  root.value.assets.forEach((asset, i) => {
    const mine = totals.get(asset) ?? 0n;
    const leaf = proof.value.leaf.values[i]!;
    if (mine !== leaf) {
      fail(`: ${asset} postings up to ${sequence} add up to ${mine} units, the tree holds ${leaf}`);
    }
  });
  console.log(
    `Your postings up to journal sequence ${sequence} add up to your amounts in the published tree.`,
  );
}
console.log("\nVERIFIED");
