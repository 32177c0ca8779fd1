import { decodeProof, decodeRoot, verifyInclusion, type VerifyFailure } from "@candor/proof";
import { callEndpoint } from "../../../lib/api-client.ts";
import { proofEndpoints } from "./endpoints.ts";

/** Every query key of the proof of liabilities. */
export const proofKeys = {
  all: ["proof"] as const,
  latest: () => [...proofKeys.all, "latest"] as const,
  history: () => [...proofKeys.all, "history"] as const,
  transparency: () => [...proofKeys.all, "transparency"] as const,
  seconds: () => [...proofKeys.all, "seconds"] as const,
};

/** GET /api/v1/proof/liabilities: the latest published root. */
export function fetchLatestRoot() {
  return callEndpoint(proofEndpoints.latestLiabilitiesEndpoint);
}

/** GET /api/v1/proof/liabilities/history: earlier roots, newest first. */
export function fetchRootHistory(limit: number) {
  return callEndpoint(proofEndpoints.liabilitiesHistoryEndpoint, { query: { limit } });
}

/** GET /api/v1/transparency: figures read from the ledger. */
export function fetchTransparency() {
  return callEndpoint(proofEndpoints.transparencyEndpoint);
}

/** What the check found: the leaf's amounts (smallest units) when it verified. */
export type CheckOutcome =
  | {
      ok: true;
      sequence: string;
      rootHash: string;
      assets: string[];
      scales: number[];
      values: bigint[];
    }
  | { ok: false; reason: VerifyFailure | "malformed" | "root_not_published" };

/**
 * Checks the signed-in user's inclusion proof here, in the browser: the root is fetched from the
 * public endpoint (what everyone sees), the proof from the private one, and the leaf is
 * recomputed from the user's own id — the server's answer is not trusted for any of it.
 */
export async function checkMyInclusion(userId: string): Promise<CheckOutcome> {
  const mine = await callEndpoint(proofEndpoints.myLiabilityProofEndpoint);
  const published = await fetchLatestRoot();
  const history =
    published.root.hash === mine.publication.root.hash
      ? [published]
      : (await fetchRootHistory(100)).items;
  const publication = history.find((item) => item.root.hash === mine.publication.root.hash);
  if (!publication) return { ok: false, reason: "root_not_published" };
  const root = decodeRoot(publication.root);
  const proof = decodeProof(mine.proof);
  if (!root.ok || !proof.ok) return { ok: false, reason: "malformed" };
  const result = verifyInclusion(proof.value, root.value, userId, proof.value.leaf.salt);
  if (!result.ok) return { ok: false, reason: result.reason };
  return {
    ok: true,
    sequence: publication.sequence,
    rootHash: root.value.hash,
    assets: [...root.value.assets],
    scales: publication.scales,
    values: [...proof.value.leaf.values],
  };
}

/** GET /api/v1/seconds/products (real money): the seconds contracts' outcomes from the ledger. */
export async function fetchSecondsOutcomes() {
  return (await callEndpoint(proofEndpoints.secondsProducts, { query: { mode: "real" } }))
    .disclosure;
}
