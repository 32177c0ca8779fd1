// `npm run bench -- startup`: how long the server takes to answer, from the process start, on
// an empty data folder (the first `npm start`) and after a SIGKILL (a supervisor's restart).
// The server runs as `npm start` runs it after the build (`node apps/server/dist/main.mjs`, the
// bundle scripts/build-server.ts writes; built here first), with
// the default configuration (30 days of simulated history), PGlite in a fresh temporary folder.
// Reported per start: the first HTTP answer of GET /api/v1/health (any status: a 503 while the
// server replays counts as an answer, a refused connection does not) and the first 200 (ready).
// STARTUP_RESTARTS (default 3) SIGKILL/restart rounds follow the first start, each after a few
// seconds of orders and ticks so the journal has records past the last snapshot.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startCommand } from "../../../scripts/start-command.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const restarts = Number(process.env.STARTUP_RESTARTS ?? 3);
const runSeconds = Number(process.env.STARTUP_RUN_SECONDS ?? 5);
// After the first start: idle this long (the backfill's candle writes finish), then read RSS.
const idleSeconds = Number(process.env.STARTUP_IDLE_SECONDS ?? 60);
// The Node flags and environment `npm start` runs the server with, so RSS is measured as an
// operator's server runs.
const { flags: startFlags, env: startEnv } = startCommand();
const port = 18_000 + Math.floor(Math.random() * 2_000);
const url = `http://127.0.0.1:${port}`;

interface Start {
  child: ChildProcess;
  firstAnswerMs: number;
  readyMs: number;
  output: () => string;
}

async function probe(): Promise<number | undefined> {
  try {
    const response = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

async function start(dataDir: string, env: Record<string, string>): Promise<Start> {
  const startedMs = performance.now();
  const child = spawn(process.execPath, [...startFlags, "apps/server/dist/main.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      ...startEnv,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let firstAnswerMs = -1;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    const status = await probe();
    const elapsedMs = performance.now() - startedMs;
    if (status !== undefined && firstAnswerMs < 0) firstAnswerMs = elapsedMs;
    if (status === 200) return { child, firstAnswerMs, readyMs: elapsedMs, output: () => output };
    if (elapsedMs > 180_000) throw new Error(`server not ready after 180 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

const built = spawnSync(process.execPath, ["--import", "tsx", "scripts/build-server.ts"], {
  cwd: root,
  stdio: "inherit",
});
if (built.status !== 0) throw new Error("building the server bundle failed");

const dataDir = mkdtempSync(path.join(tmpdir(), "candor-startup-"));
const env = { OPERATOR_TOKEN: "startup-bench-operator-token" };
try {
  let server = await start(dataDir, env);
  const report = (kind: string, s: Start) =>
    console.log(
      JSON.stringify({
        workload: "startup",
        kind,
        firstAnswerS: Number((s.firstAnswerMs / 1000).toFixed(2)),
        readyS: Number((s.readyMs / 1000).toFixed(2)),
      }),
    );
  report("first start (empty data folder)", server);
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const rssKb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"));
  console.log(
    JSON.stringify({
      workload: "memory",
      kind: `server RSS after ${idleSeconds} s idle (first start, all markets live)`,
      rssMb: rssKb ? Math.round(Number(rssKb[1]) / 1024) : null,
    }),
  );
  for (let round = 0; round < restarts; round++) {
    // Deposits keep the journal growing between kills (ticks and the market maker do too).
    const until = performance.now() + runSeconds * 1000;
    let n = 0;
    while (performance.now() < until) {
      await fetch(`${url}/api/v1/operator/deposits`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${env.OPERATOR_TOKEN}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          id: `startup-${round}-${n++}`,
          ownerId: "100001",
          assetId: "USDT",
          amount: "1",
          reference: "startup-bench",
          reason: "benchmark deposits",
        }),
      }).catch(() => undefined);
    }
    await kill(server.child);
    server = await start(dataDir, env);
    report(`restart after SIGKILL ${round + 1}`, server);
  }
  await kill(server.child);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
