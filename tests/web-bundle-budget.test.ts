import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Manifest } from "vite";
import { afterAll, expect, it } from "vitest";

/**
 * Issue 7's budget: the JavaScript the home route needs before it can show (the entry, the home
 * route's lazy chunk, and everything they import statically) is at most 180 KB gzip. Routes
 * load lazily, so other pages do not count.
 */
const budgetBytesGzip = 180 * 1024;
const webRoot = path.resolve(import.meta.dirname, "../apps/web");
const outDir = mkdtempSync(path.join(tmpdir(), "candor-web-budget-"));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The chunk files of `entries` and of everything they import statically. */
export function initialChunks(manifest: Manifest, entries: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const entry of entries) visit(entry);
  return files;
}

it("keeps the home route's initial JavaScript within 180 KB gzip", async () => {
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  await build({
    root: webRoot,
    mode: "production",
    logLevel: "silent",
    build: { outDir, emptyOutDir: true, manifest: true },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  });
  const manifest = JSON.parse(
    readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8"),
  ) as Manifest;
  const files = initialChunks(manifest, ["index.html", "src/app/routes/home.tsx"]);
  expect(files.size).toBeGreaterThan(1);
  let bytesGzip = 0;
  for (const file of files) {
    if (file.endsWith(".js")) bytesGzip += gzipSync(readFileSync(path.join(outDir, file))).length;
  }
  console.log(
    `home route initial JS: ${(bytesGzip / 1024).toFixed(1)} KB gzip (${files.size} files)`,
  );
  expect(bytesGzip).toBeLessThanOrEqual(budgetBytesGzip);
}, 120_000);
