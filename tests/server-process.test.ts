import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "nats";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { removeDataDir, startServer } from "./harness.ts";

const root = path.resolve(import.meta.dirname, "..");
const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach(removeDataDir));

// What `npm start` runs: the server bundle of `npm run build` (scripts/build-server.ts).
beforeAll(() => {
  const built = spawnSync(process.execPath, ["--import", "tsx", "scripts/build-server.ts"], {
    cwd: root,
    encoding: "utf8",
  });
  expect(built.status, built.stderr).toBe(0);
}, 60_000);

async function health(url: string) {
  const response = await fetch(`${url}/api/v1/health`);
  return (await response.json()) as { code: number; data: { starts: number; database: string } };
}

it("runs from the build's bundle, reuses its data folder on a second start and exits cleanly on SIGINT within 5 s", async () => {
  const first = await startServer({ bundle: true });
  dataDirs.push(first.dataDir);
  expect((await health(first.url)).data).toMatchObject({ starts: 1, database: "pglite" });
  const firstStop = await first.stop("SIGINT");
  expect(firstStop.code).toBe(0);
  expect(firstStop.elapsedMs).toBeLessThan(5_000);

  const second = await startServer({ dataDir: first.dataDir, bundle: true });
  expect((await health(second.url)).data.starts).toBe(2);
  // Files read at run time resolve from the bundle too: the web build and the API map.
  expect(await (await fetch(`${second.url}/`)).text()).toContain('<div id="root">');
  expect((await fetch(`${second.url}/api/openapi.json`)).status).toBe(200);
  const secondStop = await second.stop("SIGTERM");
  expect(secondStop.code).toBe(0);
}, 120_000);

it("stops at start-up with one line naming a bad variable", () => {
  const result = spawnSync(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "eighty", DATABASE_URL: "" },
    encoding: "utf8",
  });
  expect(result.status).toBe(78);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^candor: configuration error: PORT="eighty" is invalid/);
}, 30_000);

it("keeps its journal on JetStream: a server on an empty data folder restores the same state from the stream", async () => {
  const stream = `CANDOR_SERVER_TEST_${process.pid}_${Date.now()}`;
  const env = { JOURNAL: "jetstream", JOURNAL_STREAM: stream };
  try {
    const first = await startServer({ env });
    dataDirs.push(first.dataDir);
    const stopped = await first.stop("SIGINT");
    expect(stopped.code).toBe(0);
    const [, sequence, hash] =
      /Stopped at journal sequence (\d+), state hash ([0-9a-f]+)/.exec(first.output()) ?? [];
    expect(Number(sequence)).toBeGreaterThan(0);

    // Nothing local: no file journal, no snapshot, an empty database. Only the stream.
    const second = await startServer({ env });
    dataDirs.push(second.dataDir);
    expect(second.output()).toContain(`Journal: sequence ${sequence}, state hash ${hash}`);
    expect(existsSync(path.join(second.dataDir, "journal"))).toBe(false);
    await second.stop("SIGINT");
  } finally {
    const connection = await connect({ servers: "nats://127.0.0.1:4222" });
    await (await connection.jetstreamManager()).streams.delete(stream).catch(() => false);
    await connection.close();
  }
}, 120_000);
