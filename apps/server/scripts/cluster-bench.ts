// `npm run bench -- cluster` (issue 25): spot orders placed over HTTP through 1 and through 3
// API nodes (`ROLE=api` processes) against one engine leader (with its hot standby) on
// PostgreSQL and the machine's NATS JetStream, with the single-process server on the same
// PostgreSQL (its journal there too) as the peer in the same run; then failover time: the
// leader is SIGKILLed and the time to the first command acknowledged through an API node is
// taken, `BENCH_KILLS` times (median reported), a new standby started after each kill.
// CPU time of every process (and of the PostgreSQL backends serving them, and of nats-server)
// is read from /proc around each load run and divided by the orders placed: the per-order
// costs from which docs/benchmarks.md sizes each role per 10,000 orders/s.
//
//   DATABASE_URL=postgres://… npm run bench -- cluster
//   (BENCH_SECONDS=8 per run, BENCH_CONNECTIONS=100, BENCH_USERS_PER_SIDE=50, BENCH_KILLS=10)
//
// Each run has its own schemas, stream, lease bucket and subject prefix, all deleted after.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { connect } from "nats";
import pg from "pg";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("cluster bench: needs DATABASE_URL (PostgreSQL), e.g. postgres://…/test");
  process.exit(2);
}
const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const usersPerSide = Number(process.env.BENCH_USERS_PER_SIDE ?? 50);
const kills = Number(process.env.BENCH_KILLS ?? 10);
const apiNodeCount = 3;

const root = path.resolve(import.meta.dirname, "../../..");
const suffix = randomBytes(5).toString("hex");
const names = {
  clusterSchema: `bench_cluster_${suffix}`,
  singleSchema: `bench_single_${suffix}`,
  stream: `CANDOR_BENCH_${suffix}`,
  bucket: `CANDOR_BENCH_LEASE_${suffix}`,
  prefix: `candor_bench_${suffix}`,
};
const operatorToken = `bench-operator-${suffix}-0123456789`;
const tradePassword = "trade1234";
const clockTicksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());

// ---------------------------------------------------------------------------------------------
// Server processes

interface Node {
  name: string;
  url: string;
  process: ChildProcess;
  dataDir: string;
  output(): string;
}
const started: Node[] = [];

const common = {
  PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  MARKET_BACKFILL_DAYS: "1",
  CAPTCHA: "off",
  PASSWORD_COST: "10",
  OPERATOR_TOKEN: operatorToken,
  // The funding deposits are above the default two-operator amount; one operator here.
  ADJUSTMENT_TWO_APPROVALS_ABOVE: "none",
  DATABASE_URL: databaseUrl,
  NATS_URL: natsUrl,
};
const clusterEnv = {
  ...common,
  DATABASE_SCHEMA: names.clusterSchema,
  JOURNAL: "jetstream",
  JOURNAL_STREAM: names.stream,
  LEADER_LEASE_BUCKET: names.bucket,
  CLUSTER_SUBJECTS: names.prefix,
};
const singleEnv = { ...common, DATABASE_SCHEMA: names.singleSchema };
/** The lease's TTL the nodes use (the default unless set). */
const leaseTtlMs = Number(process.env.LEADER_LEASE_TTL_MS ?? 3_000);

/** Starts `apps/server/src/main.ts`; resolves once `ready` appears in its output. */
async function startNode(name: string, env: Record<string, string>, ready: RegExp): Promise<Node> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "candor-bench-"));
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: { ...process.env, ...env, DATA_DIR: dataDir, NODE_ID: name },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const node: Node = { name, url: "", process: child, dataDir, output: () => output };
  started.push(node);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      node.url ||= /starting at (http:\/\/[^\s]+?)\/?\s/.exec(output)?.[1] ?? "";
      if (node.url && ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${output}`));
    });
  });
  return node;
}

const serving = /running at http/;
const standing = /Engine node: standby/;

async function stopNode(node: Node, signal: NodeJS.Signals = "SIGTERM") {
  const { exitCode, signalCode } = node.process;
  if (exitCode === null && signalCode === null) {
    const exited = new Promise((resolve) => node.process.once("exit", resolve));
    node.process.kill(signal);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (node.process.exitCode === null && node.process.signalCode === null) {
      node.process.kill("SIGKILL");
    }
  }
  rmSync(node.dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// HTTP

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

/** One request; `localAddress` spreads set-up over loopback addresses (per-address limits). */
function call(
  base: string,
  method: string,
  target: string,
  body?: unknown,
  token?: string,
  localAddress?: string,
): Promise<Answer> {
  const url = new URL(target, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress,
        agent: false,
        timeout: 30_000,
        headers: {
          ...(payload ? { "content-type": "application/json" } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => {
          try {
            resolve({ status: response.statusCode ?? 0, data: JSON.parse(text).data });
          } catch {
            resolve({ status: response.statusCode ?? 0, data: text });
          }
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error(`${method} ${target}: timed out`)));
    request.on("error", reject);
    request.end(payload);
  });
}

function expectOk(answer: Answer, what: string) {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

interface Users {
  sellers: string[];
  buyers: string[];
}

/**
 * Registers `usersPerSide` sellers (1,000 BTC each) and buyers (100,000,000 USDT each) through
 * `base`, each from a loopback address of its own, and confirms each session's trade password
 * on every node in `confirmOn` (the confirmation is remembered per process).
 */
async function setUpUsers(base: string, confirmOn: string[]): Promise<Users> {
  const users: Users = { sellers: [], buyers: [] };
  const one = async (index: number) => {
    const seller = index < usersPerSide;
    const address = `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`;
    const phone = `+49152${String(index).padStart(8, "0")}`;
    expectOk(
      await call(
        base,
        "POST",
        "/api/v1/auth/phone-codes",
        { phone, purpose: "register" },
        undefined,
        address,
      ),
      "phone code",
    );
    const outbox = expectOk(
      await call(
        base,
        "GET",
        `/api/v1/operator/outbox?to=${encodeURIComponent(phone)}`,
        undefined,
        operatorToken,
      ),
      "outbox",
    );
    const phoneCode = /\b(\d{6})\b/.exec(outbox.emails[0]?.text ?? "")?.[1];
    const registered = expectOk(
      await call(
        base,
        "POST",
        "/api/v1/auth/register",
        {
          account: phone,
          password: tradePassword,
          passwordConfirm: tradePassword,
          phoneCode,
          agreement: true,
        },
        undefined,
        address,
      ),
      "register",
    );
    const token: string = registered.token;
    expectOk(
      await call(
        base,
        "POST",
        "/api/v1/operator/deposits",
        {
          id: `bench-${index}`,
          ownerId: registered.user.id,
          assetId: seller ? "BTC" : "USDT",
          amount: seller ? "1000" : "100000000",
          reference: `bench-${index}`,
          reason: "benchmark funding",
        },
        operatorToken,
      ),
      "deposit",
    );
    for (const [n, node] of confirmOn.entries()) {
      // An ioc far from the market: trades nothing, confirms the trade password for the session.
      expectOk(
        await call(
          node,
          "POST",
          "/api/v1/spot/orders",
          {
            clientOrderId: `confirm-${index}-${n}`,
            instrumentId: "BTCUSDT",
            side: seller ? "sell" : "buy",
            type: "limit",
            timeInForce: "ioc",
            price: seller ? "9000000" : "1",
            quantity: "0.0001",
            tradePassword,
          },
          token,
        ),
        "confirm",
      );
    }
    (seller ? users.sellers : users.buyers)[seller ? index : index - usersPerSide] = token;
  };
  const indexes = Array.from({ length: usersPerSide * 2 }, (_, i) => i);
  // Ten at a time: the set-up is not what is measured.
  for (let i = 0; i < indexes.length; i += 10) {
    await Promise.all(indexes.slice(i, i + 10).map(one));
  }
  return users;
}

/** The last tape price of BTC/USDT in whole USDT (orders trade at it, whatever the seed). */
async function lastPrice(base: string, token: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const markets = await call(base, "GET", "/api/v1/spot/markets", undefined, token);
    const btc = (markets.data?.items ?? []).find(
      (m: { instrumentId: string }) => m.instrumentId === "BTCUSDT",
    );
    if (btc?.lastPrice) return String(Math.round(Number(btc.lastPrice)));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("no BTCUSDT price");
}

// ---------------------------------------------------------------------------------------------
// CPU time from /proc

/** User + system CPU time of a process so far, in ms (0 once it is gone). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000) / clockTicksPerSecond;
  } catch {
    return 0;
  }
}

const postgresPort = Number(new URL(databaseUrl).port || 5432);
const natsPort = Number(new URL(natsUrl.split(",")[0]!).port || 4222);

/** Process ids behind `ss` lines (`users:(("node",pid=1,fd=2))`), by local port. */
function socketsOf(filter: string[]): { localPort: number; pid: number }[] {
  const listed = execFileSync("ss", ["-tnpH", ...filter]).toString();
  return listed
    .split("\n")
    .filter(Boolean)
    .flatMap((line) => {
      const columns = line.trim().split(/\s+/);
      const localPort = Number(columns[3]?.split(":").pop());
      const pid = Number(/pid=(\d+)/.exec(line)?.[1]);
      return pid ? [{ localPort, pid }] : [];
    });
}

/** The PostgreSQL backends serving `pids` (by their connections' client ports). */
async function postgresBackends(admin: pg.Client, pids: Set<number>): Promise<number[]> {
  const ports = new Set(
    socketsOf(["dport", "=", `:${postgresPort}`])
      .filter((socket) => pids.has(socket.pid))
      .map((socket) => socket.localPort),
  );
  const rows = (await admin.query("SELECT pid, client_port FROM pg_stat_activity")).rows as {
    pid: number;
    client_port: number | null;
  }[];
  return rows
    .filter((row) => row.client_port !== null && ports.has(row.client_port))
    .map((row) => row.pid);
}

/** The nats-server process (the machine's, shared with other users of it). */
function natsServerPid(): number | undefined {
  return socketsOf(["state", "listening", "sport", "=", `:${natsPort}`])[0]?.pid;
}

/** CPU ms per role over a stretch of work: `stop()` answers the deltas. */
async function measureCpu(admin: pg.Client, roles: Record<string, Node[]>) {
  const pids = new Set(Object.values(roles).flatMap((nodes) => nodes.map((n) => n.process.pid!)));
  const sample = async () => {
    const backends = await postgresBackends(admin, pids);
    const nats = natsServerPid();
    return {
      roles: Object.fromEntries(
        Object.entries(roles).map(([role, nodes]) => [
          role,
          nodes.reduce((sum, node) => sum + cpuMs(node.process.pid!), 0),
        ]),
      ),
      backends: new Map(backends.map((pid) => [pid, cpuMs(pid)])),
      nats: nats ? cpuMs(nats) : 0,
    };
  };
  const before = await sample();
  return async () => {
    const after = await sample();
    const result: Record<string, number> = {};
    for (const role of Object.keys(roles)) result[role] = after.roles[role]! - before.roles[role]!;
    // Backends that started during the run count whole; ones that ended are missed (few).
    let postgres = 0;
    for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
    result.postgres = postgres;
    result.nats = after.nats - before.nats;
    return result;
  };
}

// ---------------------------------------------------------------------------------------------
// Load

interface Run {
  ordersPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  /** CPU ms per acknowledged order, per role, less what the role spends when idle. */
  cpuMsPerOrder: Record<string, number>;
  /** The same, idle work included. */
  grossCpuMsPerOrder: Record<string, number>;
  cpuMs: Record<string, number>;
  acknowledged: number;
  seconds: number;
}

/** CPU ms per second each role spends with no orders (market clock, tape, followers). */
type Background = Record<string, number>;

/** Measures `Background` of several role sets over the same idle window. */
async function idleCpu(
  admin: pg.Client,
  sets: Record<string, Record<string, Node[]>>,
): Promise<Record<string, Background>> {
  // One after another: the queries share one PostgreSQL connection.
  const started: [string, () => Promise<Record<string, number>>][] = [];
  for (const [name, roles] of Object.entries(sets))
    started.push([name, await measureCpu(admin, roles)]);
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
  const results: [string, Record<string, number>][] = [];
  for (const [name, stop] of started) results.push([name, await stop()]);
  const elapsedSeconds = (performance.now() - startedAt) / 1_000;
  return Object.fromEntries(
    results.map(([name, cpu]) => [
      name,
      Object.fromEntries(
        Object.entries(cpu).map(([role, ms]) => [role, Number((ms / elapsedSeconds).toFixed(1))]),
      ),
    ]),
  );
}

async function load(
  urls: string[],
  users: Users,
  price: string,
  tag: string,
  admin: pg.Client,
  roles: Record<string, Node[]>,
): Promise<Run> {
  let counter = 0;
  const stopCpu = await measureCpu(admin, roles);
  const result = await autocannon({
    url: urls.length === 1 ? urls[0]! : urls,
    connections,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: "/api/v1/spot/orders",
        setupRequest: (request: Record<string, unknown>) => {
          // A resting sell, then a crossing ioc buy of another user: half the orders trade and
          // the book stays small (as `npm run bench -- http`).
          const n = counter++;
          const sell = n % 2 === 0;
          const tokens = sell ? users.sellers : users.buyers;
          const token = tokens[Math.floor(n / 2) % tokens.length]!;
          return {
            ...request,
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({
              clientOrderId: `${tag}-${n}`.padEnd(8, "0"),
              instrumentId: "BTCUSDT",
              side: sell ? "sell" : "buy",
              type: "limit",
              timeInForce: sell ? "gtc" : "ioc",
              price,
              quantity: "0.0001",
            }),
          };
        },
      },
    ],
  });
  const cpu = await stopCpu();
  const acknowledged = result["2xx"];
  const perOrder = (ms: number) => (acknowledged ? Number((ms / acknowledged).toFixed(3)) : 0);
  return {
    ordersPerSecond: Math.round(acknowledged / result.duration),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMsPerOrder: {},
    grossCpuMsPerOrder: Object.fromEntries(
      Object.entries(cpu).map(([role, ms]) => [role, perOrder(ms)]),
    ),
    cpuMs: cpu,
    acknowledged,
    seconds: result.duration,
  };
}

/** CPU ms per order less the role's idle rate over the run. */
function netOf(run: Run, background: Background): Record<string, number> {
  return Object.fromEntries(
    Object.entries(run.cpuMs).map(([role, ms]) => [
      role,
      run.acknowledged
        ? Number(
            (Math.max(0, ms - (background[role] ?? 0) * run.seconds) / run.acknowledged).toFixed(3),
          )
        : 0,
    ]),
  );
}

function summary(runs: Run[]) {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const roles = Object.keys(runs[0]!.cpuMsPerOrder);
  return {
    ordersPerSecond: Math.round(mean(runs.map((r) => r.ordersPerSecond))),
    latencyP50Ms: Number(mean(runs.map((r) => r.latencyP50Ms)).toFixed(1)),
    latencyP99Ms: Number(mean(runs.map((r) => r.latencyP99Ms)).toFixed(1)),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    cpuMsPerOrder: Object.fromEntries(
      roles.map((role) => [role, Number(mean(runs.map((r) => r.cpuMsPerOrder[role]!)).toFixed(3))]),
    ),
    grossCpuMsPerOrder: Object.fromEntries(
      roles.map((role) => [
        role,
        Number(mean(runs.map((r) => r.grossCpuMsPerOrder[role]!)).toFixed(3)),
      ]),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Failover

/**
 * SIGKILLs the leader `kills` times; each time, the ms from the kill to the first order sent
 * after it that an API node acknowledges (the API node retries by id until a leader answers).
 * A new standby is started after each kill, as a supervisor would restart the dead node.
 */
async function failover(leaderAtStart: Node, standbyAtStart: Node, api: Node, token: string) {
  let leader = leaderAtStart;
  let standby = standbyAtStart;
  const takeoverMs: number[] = [];
  for (let kill = 1; kill <= kills; kill++) {
    // Let the standby settle into following (its first lease campaign has run).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const killedAt = performance.now();
    leader.process.kill("SIGKILL");
    let last: Answer | string | undefined;
    for (let attempt = 0; ; attempt++) {
      last = await call(
        api.url,
        "POST",
        "/api/v1/spot/orders",
        {
          clientOrderId: `failover-${kill}-${attempt}`.padEnd(8, "0"),
          instrumentId: "BTCUSDT",
          side: "buy",
          type: "limit",
          timeInForce: "ioc",
          price: "1",
          quantity: "0.0001",
          tradePassword,
        },
        token,
      ).catch((error: unknown) => String(error));
      if (typeof last === "object" && last.status === 200) break;
      if (performance.now() - killedAt > 60_000) {
        const tail = (node: Node) => `--- ${node.name}:\n${node.output().slice(-3_000)}`;
        throw new Error(
          `failover ${kill}: nothing acknowledged within 60 s (so far: ${takeoverMs.join(", ")} ms); ` +
            `last answer ${JSON.stringify(last)}\n${[api, standby, leader].map(tail).join("\n")}`,
        );
      }
    }
    takeoverMs.push(Math.round(performance.now() - killedAt));
    await stopNode(leader, "SIGKILL");
    leader = standby;
    standby = await startNode(`engine-${kill + 2}`, clusterEnv, standing);
  }
  return { takeoverMs, leader, standby };
}

// ---------------------------------------------------------------------------------------------

async function cleanUp(admin: pg.Client | undefined) {
  await Promise.all(started.map((node) => stopNode(node, "SIGKILL")));
  const client = admin ?? new pg.Client({ connectionString: databaseUrl });
  if (!admin) await client.connect();
  for (const schema of [names.clusterSchema, names.singleSchema]) {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
  await client.end();
  const connection = await connect({ servers: natsUrl.split(",") });
  const manager = await connection.jetstreamManager();
  await manager.streams.delete(names.stream).catch(() => false);
  await manager.streams.delete(`KV_${names.bucket}`).catch(() => false);
  await connection.close();
}

async function main() {
  const loadAverageAtStart = loadavg();
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    // The leader first: it migrates the schema and creates the stream and the bucket.
    const leader = await startNode("engine-1", clusterEnv, serving);
    const [standby, single, ...apiNodes] = await Promise.all([
      startNode("engine-2", clusterEnv, standing),
      startNode("single", singleEnv, serving),
      ...Array.from({ length: apiNodeCount }, (_, i) =>
        startNode(`api-${i + 1}`, { ...clusterEnv, ROLE: "api" }, serving),
      ),
    ]);
    const apiUrls = apiNodes.map((node) => node.url);
    const [clusterUsers, singleUsers] = await Promise.all([
      setUpUsers(apiUrls[0]!, apiUrls),
      setUpUsers(single!.url, [single!.url]),
    ]);
    const clusterPrice = await lastPrice(apiUrls[0]!, clusterUsers.buyers[0]!);
    const singlePrice = await lastPrice(single!.url, singleUsers.buyers[0]!);

    const sets = {
      single: { single: [single!] },
      api1: { api: [apiNodes[0]!], leader: [leader], standby: [standby!] },
      api3: { api: apiNodes, leader: [leader], standby: [standby!] },
    };
    // What each role costs with no orders, taken off the runs' CPU: per order, only the
    // orders' own work counts (at 10,000 orders/s the idle work is a rounding error). After a
    // pause (the projector catches up with the set-up), and again after the runs: the smaller.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const idleBefore = await idleCpu(admin, sets);
    const runs: Record<"single" | "api1" | "api3", Run[]> = { single: [], api1: [], api3: [] };
    for (let round = 0; round < 2; round++) {
      runs.single.push(
        await load([single!.url], singleUsers, singlePrice, `s${round}`, admin, sets.single),
      );
      runs.api1.push(
        await load([apiUrls[0]!], clusterUsers, clusterPrice, `a${round}`, admin, sets.api1),
      );
      runs.api3.push(
        await load(apiUrls, clusterUsers, clusterPrice, `c${round}`, admin, sets.api3),
      );
    }
    const idleAfter = await idleCpu(admin, sets);
    const background = Object.fromEntries(
      Object.entries(idleBefore).map(([name, rates]) => [
        name,
        Object.fromEntries(
          Object.entries(rates).map(([role, rate]) => [
            role,
            Math.min(rate, idleAfter[name]?.[role] ?? rate),
          ]),
        ),
      ]),
    );
    for (const [name, list] of Object.entries(runs)) {
      for (const run of list) run.cpuMsPerOrder = netOf(run, background[name]!);
    }
    const single1 = summary(runs.single);
    // The single process uses no NATS: what nats-server did meanwhile was other users' work.
    delete single1.cpuMsPerOrder.nats;
    delete single1.grossCpuMsPerOrder.nats;
    const api1 = summary(runs.api1);
    const api3 = summary(runs.api3);
    console.log(
      JSON.stringify({
        workload: "cluster",
        name: "spot order placement over HTTP: through 1 and 3 API nodes to one engine leader (+ standby) on PostgreSQL + NATS JetStream, vs the single process on PostgreSQL",
        cores: cpus().length,
        connections,
        secondsPerRun: seconds,
        rounds: 2,
        idleCpuMsPerSecond: background,
        single: single1,
        apiNodes1: api1,
        apiNodes3: api3,
        throughputRatio1: Number((api1.ordersPerSecond / single1.ordersPerSecond).toFixed(3)),
        throughputRatio3: Number((api3.ordersPerSecond / single1.ordersPerSecond).toFixed(3)),
        p99Ratio1: Number((api1.latencyP99Ms / single1.latencyP99Ms).toFixed(2)),
        p99Ratio3: Number((api3.latencyP99Ms / single1.latencyP99Ms).toFixed(2)),
      }),
    );

    // Failover: the peer and two API nodes are not needed any more.
    await Promise.all([single!, ...apiNodes.slice(1)].map((node) => stopNode(node)));
    const { takeoverMs } =
      kills > 0
        ? await failover(leader, standby!, apiNodes[0]!, clusterUsers.buyers[0]!)
        : { takeoverMs: [] as number[] };
    const sorted = [...takeoverMs].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    const median =
      sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
    if (kills > 0) {
      console.log(
        JSON.stringify({
          workload: "cluster-failover",
          name: "SIGKILL of the engine leader → first order acknowledged through an API node (new leader)",
          leaseTtlMs,
          kills,
          takeoverMs,
          medianMs: median,
          minMs: sorted[0],
          maxMs: sorted.at(-1),
        }),
      );
    }
    console.log(
      JSON.stringify({
        workload: "cluster-machine",
        cores: cpus().length,
        loadAverageAtStart: loadAverageAtStart.map((x) => Number(x.toFixed(2))),
        loadAverageAtEnd: loadavg().map((x) => Number(x.toFixed(2))),
      }),
    );
  } finally {
    await cleanUp(admin);
  }
}

process.once("SIGINT", () => {
  void cleanUp(undefined).finally(() => process.exit(130));
});
await main();
