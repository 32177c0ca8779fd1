// A git merge driver for locale files: a three-way merge of JSON objects, key by key, so two
// branches that each add texts merge cleanly. Wire it up once per clone:
//   git config merge.json-union.driver "node --import tsx scripts/merge-json.ts %O %A %B"
// A key changed differently on both sides keeps ours and exits 1, so git reports a conflict.
import { readFileSync, writeFileSync } from "node:fs";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);

const conflicts: string[] = [];

function merge(
  base: Json | undefined,
  ours: Json | undefined,
  theirs: Json | undefined,
  at: string,
): Json | undefined {
  if (same(ours, theirs) || same(theirs, base)) return ours;
  if (same(ours, base)) return theirs;
  if (isObject(ours) && isObject(theirs)) {
    const baseObject = isObject(base) ? base : {};
    const out: { [key: string]: Json } = {};
    for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      const merged = merge(baseObject[key], ours[key], theirs[key], at ? `${at}.${key}` : key);
      if (merged !== undefined) out[key] = merged;
    }
    return out;
  }
  conflicts.push(at || "(root)");
  return ours;
}

const [basePath, oursPath, theirsPath] = process.argv.slice(2);
if (!basePath || !oursPath || !theirsPath) {
  console.error("usage: merge-json.ts <base> <ours> <theirs>");
  process.exit(2);
}
const read = (file: string): Json | undefined => {
  const text = readFileSync(file, "utf8");
  return text.trim() === "" ? undefined : (JSON.parse(text) as Json);
};
const result = merge(read(basePath), read(oursPath), read(theirsPath), "");
writeFileSync(oursPath, JSON.stringify(result ?? {}, null, 2) + "\n");
if (conflicts.length > 0) {
  console.error(`merge-json: both sides changed ${conflicts.join(", ")}; kept ours`);
  process.exit(1);
}
