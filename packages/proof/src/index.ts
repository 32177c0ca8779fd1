// Proof of liabilities: a Merkle sum tree over users' liabilities, inclusion proofs, their
// verifier and their JSON encodings. Pure: no I/O, clock or randomness; runs in browsers too.
export { buildTree, computeLeafId } from "./tree.ts";
export type {
  InclusionProof,
  LiabilityEntry,
  LiabilityTree,
  NodeValue,
  PathStep,
  PublishedRoot,
  Side,
  TreeInput,
} from "./tree.ts";
export { verifyFailures, verifyInclusion } from "./verify.ts";
export type { VerifyFailure, VerifyResult } from "./verify.ts";
export { decodeProof, decodeRoot, encodeProof, encodeRoot } from "./json.ts";
export type { DecodeResult, PathStepJson, ProofJson, RootJson } from "./json.ts";
export { BITS_MAX, BITS_MIN, FORMAT_VERSION, SALT_PATTERN } from "./encoding.ts";
export {
  STATEMENT_VERSION,
  chainStatement,
  extendsHead,
  statementFailures,
  statementGenesis,
  statementLineHash,
  totalsUpTo,
  verifyStatement,
} from "./statement.ts";
export type {
  SavedHead,
  StatementCheck,
  StatementExport,
  StatementFailure,
  StatementLine,
} from "./statement.ts";
