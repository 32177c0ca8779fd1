// JSON encodings of the published root and of an inclusion proof. Amounts are decimal strings
// of smallest units (never JSON numbers); `bits` and `leafCount` are counts, not money. The
// decoders are strict (known keys only, canonical integers, lowercase hex) but leave range
// checks to verifyInclusion, so a negative or overflowing amount is reported as such.
import { formatDecimal, parseDecimal } from "@candor/decimal";
import { FORMAT_VERSION } from "./encoding.ts";
import type { InclusionProof, PathStep, PublishedRoot } from "./tree.ts";

/** The published root as JSON. */
export interface RootJson {
  version: typeof FORMAT_VERSION;
  assets: string[];
  bits: number;
  leafCount: number;
  hash: string;
  /** Totals per asset: decimal strings of smallest units. */
  sums: string[];
}

/** A path step as JSON. */
export interface PathStepJson {
  side: "left" | "right";
  hash: string;
  sums: string[];
}

/** An inclusion proof as JSON. */
export interface ProofJson {
  version: typeof FORMAT_VERSION;
  assets: string[];
  bits: number;
  leafCount: number;
  leaf: { id: string; salt: string; values: string[] };
  path: PathStepJson[];
}

/** A decoded value, or why the JSON was refused. */
export type DecodeResult<T> =
  { ok: true; value: T } | { ok: false; reason: "malformed"; detail: string };

const amountText = (value: bigint) => formatDecimal(value, 0);

/** The published root → JSON. */
export function encodeRoot(root: PublishedRoot): RootJson {
  return {
    version: root.version,
    assets: [...root.assets],
    bits: root.bits,
    leafCount: root.leafCount,
    hash: root.hash,
    sums: root.sums.map(amountText),
  };
}

/** An inclusion proof → JSON. */
export function encodeProof(proof: InclusionProof): ProofJson {
  return {
    version: proof.version,
    assets: [...proof.assets],
    bits: proof.bits,
    leafCount: proof.leafCount,
    leaf: { id: proof.leaf.id, salt: proof.leaf.salt, values: proof.leaf.values.map(amountText) },
    path: proof.path.map((step) => ({
      side: step.side,
      hash: step.hash,
      sums: step.sums.map(amountText),
    })),
  };
}

class Malformed extends Error {}

type JsonObject = Record<string, unknown>;

function object(value: unknown, at: string, keys: readonly string[]): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Malformed(`${at} is not an object`);
  }
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw new Malformed(`${at} has an unknown field "${key}"`);
  }
  for (const key of keys) {
    if (!(key in value)) throw new Malformed(`${at} lacks "${key}"`);
  }
  return value as JsonObject;
}

function array(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new Malformed(`${at} is not an array`);
  return value;
}

function text(value: unknown, at: string, pattern?: RegExp): string {
  if (typeof value !== "string") throw new Malformed(`${at} is not a string`);
  if (pattern && !pattern.test(value)) throw new Malformed(`${at} is malformed`);
  return value;
}

function count(value: unknown, at: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new Malformed(`${at} is not a whole number`);
  }
  return value;
}

/** A canonical integer string ("0", "12", "-3"; not "012", "1.0", "+1"). */
function amount(value: unknown, at: string): bigint {
  if (typeof value !== "string") throw new Malformed(`${at} is not a decimal string`);
  const parsed = parseDecimal(value, 0, { allowNegative: true });
  if (!parsed.ok || amountText(parsed.value) !== value) {
    throw new Malformed(`${at} is not a canonical integer string`);
  }
  return parsed.value;
}

const HEX = /^[0-9a-f]*$/;

function version(value: unknown): typeof FORMAT_VERSION {
  if (value !== FORMAT_VERSION) throw new Malformed(`version is not ${FORMAT_VERSION}`);
  return FORMAT_VERSION;
}

function decode<T>(read: () => T): DecodeResult<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof Malformed)
      return { ok: false, reason: "malformed", detail: error.message };
    throw error;
  }
}

/** JSON (already parsed) → the published root. */
export function decodeRoot(json: unknown): DecodeResult<PublishedRoot> {
  return decode(() => {
    const root = object(json, "root", ["version", "assets", "bits", "leafCount", "hash", "sums"]);
    return {
      version: version(root.version),
      assets: array(root.assets, "assets").map((asset, i) => text(asset, `assets[${i}]`)),
      bits: count(root.bits, "bits"),
      leafCount: count(root.leafCount, "leafCount"),
      hash: text(root.hash, "hash", HEX),
      sums: array(root.sums, "sums").map((sum, i) => amount(sum, `sums[${i}]`)),
    };
  });
}

/** JSON (already parsed) → an inclusion proof. */
export function decodeProof(json: unknown): DecodeResult<InclusionProof> {
  return decode(() => {
    const proof = object(json, "proof", ["version", "assets", "bits", "leafCount", "leaf", "path"]);
    const leaf = object(proof.leaf, "leaf", ["id", "salt", "values"]);
    return {
      version: version(proof.version),
      assets: array(proof.assets, "assets").map((asset, i) => text(asset, `assets[${i}]`)),
      bits: count(proof.bits, "bits"),
      leafCount: count(proof.leafCount, "leafCount"),
      leaf: {
        id: text(leaf.id, "leaf.id", HEX),
        salt: text(leaf.salt, "leaf.salt", HEX),
        values: array(leaf.values, "leaf.values").map((v, i) => amount(v, `leaf.values[${i}]`)),
      },
      path: array(proof.path, "path").map((item, level): PathStep => {
        const step = object(item, `path[${level}]`, ["side", "hash", "sums"]);
        const side = text(step.side, `path[${level}].side`);
        if (side !== "left" && side !== "right") {
          throw new Malformed(`path[${level}].side is neither left nor right`);
        }
        return {
          side,
          hash: text(step.hash, `path[${level}].hash`, HEX),
          sums: array(step.sums, `path[${level}].sums`).map((sum, i) =>
            amount(sum, `path[${level}].sums[${i}]`),
          ),
        };
      }),
    };
  });
}
