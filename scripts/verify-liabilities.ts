// Checks your proof of liabilities without trusting the server that gave it to you:
//   npx tsx scripts/verify-liabilities.ts --root root.json --proof proof.json --user <id> [--salt <hex>]
// It needs nothing but this repository: the same pure code as the web app's check. Exit code 0
// when the proof verifies, 1 when it does not, 2 when the files or arguments cannot be read.
// What it proves and what it does not: packages/proof/README.md.
import { parseArgs } from "node:util";
import { decodeProof, decodeRoot, verifyInclusion } from "@candor/proof";
import { readJson, stop } from "./verifier-cli.ts";

const usage =
  "usage: npx tsx scripts/verify-liabilities.ts --root root.json --proof proof.json " +
  "--user <your user id> [--salt <your salt; default: the one in the proof>]";

let values: { root?: string; proof?: string; user?: string; salt?: string };
try {
  values = parseArgs({
    options: {
      root: { type: "string" },
      proof: { type: "string" },
      user: { type: "string" },
      salt: { type: "string" },
    },
  }).values;
} catch (error) {
  stop(`${(error as Error).message}\n${usage}`);
}
if (!values.root || !values.proof || !values.user) stop(usage);

const root = decodeRoot(readJson(values.root, "root"));
if (!root.ok) stop(`the root file is malformed: ${root.detail}`);
const proof = decodeProof(readJson(values.proof, "proof"));
if (!proof.ok) stop(`the proof file is malformed: ${proof.detail}`);
const salt = values.salt ?? proof.value.leaf.salt;

const result = verifyInclusion(proof.value, root.value, values.user, salt);
const { assets } = root.value;
console.log(`Root       ${root.value.hash}`);
console.log(`Users      ${root.value.leafCount}`);
console.log(`Your leaf  ${proof.value.leaf.id}`);
if (!result.ok) {
  console.log(`\nNOT VERIFIED (${result.reason}): ${result.detail}`);
  process.exit(1);
}
const column = Math.max(...assets.map((asset) => asset.length));
console.log("Amounts in smallest units (yours / total of all users):");
assets.forEach((asset, i) => {
  console.log(
    `  ${asset.padEnd(column)}  ${String(proof.value.leaf.values[i])} / ${String(root.value.sums[i])}`,
  );
});
console.log(
  `\nVERIFIED: user ${values.user} is leaf ${result.leafIndex} of the published tree with the ` +
    "amounts above, and no sum on the way to the root is negative or out of range. This does " +
    "not show that the operator holds assets to cover the totals.",
);
