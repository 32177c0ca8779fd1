// The proof worker's thread: builds trees and answers inclusion proofs (see tree-builder.ts).
import { parentPort } from "node:worker_threads";
import { computeLeafId, encodeProof, encodeRoot, type LiabilityTree } from "@candor/proof";
import { build, type BuilderReply, type BuilderRequest } from "./tree-builder.ts";

let tree: LiabilityTree | undefined;
let leafIds: { tree: LiabilityTree; ids: Set<string> } | undefined;

/** The latest tree's leaf ids as a set, built once per tree. */
function leafIdsOf(current: LiabilityTree): Set<string> {
  if (leafIds?.tree !== current) leafIds = { tree: current, ids: new Set(current.leafIds) };
  return leafIds.ids;
}
const port = parentPort!;

port.on("message", (request: BuilderRequest) => {
  let reply: BuilderReply;
  try {
    if (request.type === "build") {
      tree = build(request.input);
      reply = { id: request.id, type: "built", root: encodeRoot(tree.root) };
    } else {
      const leafId = computeLeafId(request.userId, request.salt);
      const found = tree !== undefined && leafIdsOf(tree).has(leafId);
      reply = {
        id: request.id,
        type: "proof",
        rootHash: tree?.root.hash ?? null,
        proof: found ? encodeProof(tree!.proof(leafId)) : null,
      };
    }
  } catch (error) {
    reply = { id: request.id, type: "error", message: String(error) };
  }
  port.postMessage(reply);
});
