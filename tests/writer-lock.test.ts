// Issue 14 item 10: two servers on one data folder (or one PostgreSQL journal schema) broke the
// journal's hash chain. The second start now stops at once with one line naming the holder;
// after the holder is killed (SIGKILL, lock file left behind) the next start takes over.
import { randomBytes } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { removeDataDir, startServer } from "./harness.ts";

const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach(removeDataDir));

async function refusedStart(options: Parameters<typeof startServer>[0]) {
  const error = await startServer(options).then(
    async (server) => {
      await server.stop("SIGKILL");
      return undefined;
    },
    (reason: unknown) => reason as Error,
  );
  expect(error, "the second server started").toBeInstanceOf(Error);
  return error!.message;
}

it("a second server on the same data folder refuses to start; a killed holder's lock is stale", async () => {
  const first = await startServer();
  dataDirs.push(first.dataDir);
  const message = await refusedStart({ dataDir: first.dataDir });
  expect(message).toMatch(/exited with 75/);
  expect(message).toContain(`in use by another Candor server (pid ${first.process.pid} on `);
  expect((await fetch(`${first.url}/api/v1/health`)).status).toBe(200);
  await first.stop("SIGKILL");
  const next = await startServer({ dataDir: first.dataDir });
  expect((await fetch(`${next.url}/api/v1/health`)).status).toBe(200);
  expect((await next.stop("SIGINT")).code).toBe(0);
}, 180_000);

it.runIf(process.env.DATABASE_URL)(
  "a second server on the same PostgreSQL journal schema refuses to start",
  async () => {
    const env = {
      DATABASE_URL: process.env.DATABASE_URL!,
      DATABASE_SCHEMA: `lock_${randomBytes(4).toString("hex")}`,
    };
    const first = await startServer({ env });
    dataDirs.push(first.dataDir);
    const message = await refusedStart({ env });
    expect(message).toMatch(/exited with 75/);
    expect(message).toContain(`journal of schema "${env.DATABASE_SCHEMA}" is in use`);
    expect(message).toContain(`candor ${first.process.pid}@`);
    expect((await first.stop("SIGINT")).code).toBe(0);
  },
  180_000,
);
