// `npm run bench -- http`: W6, spot order placement over HTTP through the whole stack (session
// lookup, validation, trade-password window, kernel via the durable file journal, read-model
// projection) against a bare Fastify POST route with the same request schema, in the same run.
// Each server runs in a child process of its own; autocannon drives both from this process
// with the same load (100 connections over loopback), alternating bare / full twice.
//
//   npm run bench -- http                 (BENCH_SECONDS=8 per run, BENCH_CONNECTIONS=100)
//   BENCH_FULL_NODE_FLAGS="--max-semi-space-size=2" npm run bench -- http   (V8 flags, full only)
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { PlaceSpotOrderBody } from "@candor/contract";
import autocannon from "autocannon";
import Fastify from "fastify";
import pg from "pg";
import { openDatabase } from "../src/db/database.ts";
import { registerByPhone } from "../src/testing/register-phone.ts";
import { benchApp } from "./bench-app.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
// Users per side: each may place 1,200 orders a minute (the route's per-user limit).
const usersPerSide = Number(process.env.BENCH_USERS_PER_SIDE ?? 50);
const path = "/api/v1/spot/orders";
const benchSchema = process.env.BENCH_SCHEMA ?? `bench_${process.pid}`;

interface Ready {
  port: number;
  sellers: string[];
  buyers: string[];
}

// ---------------------------------------------------------------------------------------------
// Child: one server

async function serveBare(): Promise<Ready> {
  const app = Fastify({ logger: false });
  app.post(path, async (request, reply) => {
    const parsed = PlaceSpotOrderBody.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(400).send({ code: 400, message: "invalid", error: "validation_failed" });
    }
    const b = parsed.data;
    return {
      code: 200,
      message: "ok",
      data: {
        order: {
          orderId: "1",
          clientOrderId: b.clientOrderId,
          instrumentId: b.instrumentId,
          side: b.side,
          type: b.type,
          price: b.price ?? null,
          quantity: b.quantity ?? "0",
          status: "open",
        },
        fills: [],
        duplicate: false,
      },
    };
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const tokens = Array.from({ length: usersPerSide }, (_, i) => `token-${i}`);
  return { port: Number(new URL(address).port), sellers: tokens, buyers: tokens };
}

async function serveFull(): Promise<Ready> {
  // DATABASE_URL: the read models (and sessions) on PostgreSQL in a schema of their own, which
  // the parent drops afterwards; else PGlite in a worker thread, as the server runs it.
  const database = process.env.DATABASE_URL
    ? await openDatabase({
        kind: "postgres",
        url: process.env.DATABASE_URL,
        schema: benchSchema,
      })
    : await openDatabase({ kind: "pglite", worker: true });
  const { app } = await benchApp(database);
  let ip = 0;
  const inject = async (url: string, payload: object, headers: Record<string, string> = {}) => {
    const response = await app.inject({
      method: "POST",
      url,
      payload,
      headers,
      remoteAddress: `10.9.${Math.floor(ip / 200)}.${ip++ % 200}`,
    });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.body}`);
    return response.json().data;
  };
  const user = async (index: number, asset: string, amount: string) => {
    const phone = `+49151${String(index).padStart(8, "0")}`;
    // Each user from an address of its own: the per-address limit on texted codes would
    // stop the set-up after a few users.
    const registered = await registerByPhone(app, phone, "bench-operator", {
      remoteAddress: `10.8.${Math.floor(index / 200)}.${index % 200}`,
    });
    if (registered.statusCode !== 200) throw new Error(`register: ${registered.body}`);
    const session = registered.json().data;
    await inject(
      "/api/v1/operator/deposits",
      {
        id: `bench-${index}`,
        ownerId: session.user.id,
        assetId: asset,
        amount,
        reference: `bench-${index}`,
        reason: "benchmark funding",
      },
      { authorization: "Bearer bench-operator" },
    );
    // Confirms the trade password for this session (an ioc that finds nothing to trade).
    await inject(
      path,
      {
        clientOrderId: `bench-confirm-${index}`,
        instrumentId: "BTCUSDT",
        side: asset === "BTC" ? "sell" : "buy",
        type: "limit",
        timeInForce: "ioc",
        price: asset === "BTC" ? "40000" : "20000",
        quantity: "0.0001",
        tradePassword: "trade1234",
      },
      { authorization: `Bearer ${session.token}` },
    );
    return session.token as string;
  };
  const sellers: string[] = [];
  const buyers: string[] = [];
  for (let i = 0; i < usersPerSide; i++) sellers.push(await user(i, "BTC", "1000"));
  for (let i = 0; i < usersPerSide; i++) buyers.push(await user(1000 + i, "USDT", "100000000"));
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  return { port: Number(new URL(address).port), sellers, buyers };
}

// ---------------------------------------------------------------------------------------------
// Parent: load generator

function startChild(kind: "bare" | "full"): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF
        ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : []),
      // V8 flags of the full server only (e.g. the ones `npm start` uses), the bare peer as is.
      ...(kind === "full"
        ? (process.env.BENCH_FULL_NODE_FLAGS ?? "").split(" ").filter(Boolean)
        : []),
      // Bundled by `npm run bench` (plain JavaScript), or the source through tsx.
      ...(import.meta.url.endsWith(".ts") ? ["--import", "tsx"] : []),
      fileURLToPath(import.meta.url),
      "--serve",
      kind,
    ],
    {
      stdio: ["pipe", "pipe", "inherit"],
      // As deployed (docs/deploy.md): production skips the development-only response check.
      env: { ...process.env, BENCH_SCHEMA: benchSchema, NODE_ENV: "production" },
    },
  );
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line.startsWith("READY ")) resolve({ child, ready: JSON.parse(line.slice(6)) as Ready });
      if (line.startsWith("CPU ")) cpuAnswers.get(child)?.(JSON.parse(line.slice(4)) as CpuTimes);
    });
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
    child.once("error", reject);
  });
}

/** CPU time a server has used so far, µs: its main thread, and the whole process. */
interface CpuTimes {
  mainUs: number;
  processUs: number;
}

/**
 * CPU time of this process's main thread (Linux: /proc/self/task/<pid>/stat, utime + stime in
 * clock ticks of 10 ms) and of the whole process. Unlike requests per second it does not move
 * when other programs take the cores (issue 15: the machine is shared).
 */
function cpuTimes(): CpuTimes {
  const usage = process.cpuUsage();
  const processUs = usage.user + usage.system;
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8")
      .split(") ")[1]!
      .split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { mainUs: ticks * 10_000, processUs };
  } catch {
    return { mainUs: processUs, processUs };
  }
}

const cpuAnswers = new Map<ChildProcess, (times: CpuTimes) => void>();

function askCpu(child: ChildProcess): Promise<CpuTimes> {
  return new Promise((resolve) => {
    cpuAnswers.set(child, resolve);
    child.stdin!.write("CPU\n");
  });
}

interface Run {
  requestsPerSecond: number;
  /** Main-thread and whole-process CPU µs per answered request. */
  cpuMainUsPerRequest: number;
  cpuProcessUsPerRequest: number;
  latencyP99Ms: number;
  latencyP50Ms: number;
  non2xx: number;
  errors: number;
}

async function load(server: { child: ChildProcess; ready: Ready }, round: number): Promise<Run> {
  const { ready } = server;
  let counter = 0;
  const cpuBefore = await askCpu(server.child);
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path,
        setupRequest: (request: Record<string, unknown>) => {
          // Alternate a resting sell and a crossing ioc buy of different users, so half the
          // orders trade and the book stays small.
          const n = counter++;
          const sell = n % 2 === 0;
          const tokens = sell ? ready.sellers : ready.buyers;
          const token = tokens[Math.floor(n / 2) % tokens.length]!;
          return {
            ...request,
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({
              clientOrderId: `r${round}-${n}`.padEnd(8, "0"),
              instrumentId: "BTCUSDT",
              side: sell ? "sell" : "buy",
              type: "limit",
              timeInForce: sell ? "gtc" : "ioc",
              price: "30000",
              quantity: "0.0001",
            }),
          };
        },
      },
    ],
  });
  const cpuAfter = await askCpu(server.child);
  const answered = Math.max(1, result["2xx"] + result.non2xx);
  return {
    requestsPerSecond: result.requests.average,
    cpuMainUsPerRequest: (cpuAfter.mainUs - cpuBefore.mainUs) / answered,
    cpuProcessUsPerRequest: (cpuAfter.processUs - cpuBefore.processUs) / answered,
    latencyP99Ms: result.latency.p99,
    latencyP50Ms: result.latency.p50,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main() {
  const children = [startChild("bare"), startChild("full")];
  let started: Awaited<(typeof children)[number]>[];
  try {
    started = await Promise.all(children);
  } catch (error) {
    for (const started of await Promise.allSettled(children)) {
      if (started.status === "fulfilled") started.value.child.kill("SIGTERM");
    }
    throw error;
  }
  const [bare, full] = started as [(typeof started)[number], (typeof started)[number]];
  const runs: { bare: Run[]; full: Run[] } = { bare: [], full: [] };
  try {
    for (let round = 0; round < 2; round++) {
      runs.bare.push(await load(bare, round));
      runs.full.push(await load(full, round));
    }
  } finally {
    bare.child.kill("SIGTERM");
    full.child.kill("SIGTERM");
    if (process.env.DATABASE_URL) {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${benchSchema}" CASCADE`);
      await client.end();
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const summary = (rs: Run[]) => ({
    requestsPerSecond: Math.round(mean(rs.map((r) => r.requestsPerSecond))),
    cpuMainUsPerRequest: Math.round(mean(rs.map((r) => r.cpuMainUsPerRequest))),
    cpuProcessUsPerRequest: Math.round(mean(rs.map((r) => r.cpuProcessUsPerRequest))),
    latencyP50Ms: mean(rs.map((r) => r.latencyP50Ms)),
    latencyP99Ms: mean(rs.map((r) => r.latencyP99Ms)),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
    errors: rs.reduce((a, r) => a + r.errors, 0),
  });
  const b = summary(runs.bare);
  const f = summary(runs.full);
  console.log(
    JSON.stringify({
      workload: "W6",
      database: process.env.DATABASE_URL ? "postgres" : "pglite (worker thread)",
      name: "spot order placement over HTTP: full stack with durable journal vs bare Fastify route",
      connections,
      secondsPerRun: seconds,
      rounds: 2,
      bare: b,
      full: f,
      throughputRatio: Number((f.requestsPerSecond / b.requestsPerSecond).toFixed(3)),
      throughputGoal: ">= 0.8",
      p99Ratio: Number((f.latencyP99Ms / b.latencyP99Ms).toFixed(2)),
      // Bare over full CPU per request: the throughput ratio the main thread allows when the
      // machine is not shared (the load-independent figure; see docs/benchmarks.md).
      cpuMainRatio: Number((b.cpuMainUsPerRequest / f.cpuMainUsPerRequest).toFixed(3)),
      cpuProcessRatio: Number((b.cpuProcessUsPerRequest / f.cpuProcessUsPerRequest).toFixed(3)),
      p99Goal: "<= 1.5",
    }),
  );
}

const serveIndex = process.argv.indexOf("--serve");
if (serveIndex >= 0) {
  const kind = process.argv[serveIndex + 1];
  const ready = kind === "full" ? await serveFull() : await serveBare();
  console.log(`READY ${JSON.stringify(ready)}`);
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (line === "CPU") console.log(`CPU ${JSON.stringify(cpuTimes())}`);
  });
  process.on("SIGTERM", () => process.exit(0));
} else {
  await main();
}
