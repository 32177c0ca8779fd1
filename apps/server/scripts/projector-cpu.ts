// Projector CPU per order (issue 15, W6): records the applied commands of a run of spot orders
// (the HTTP bench's workload: resting sells, crossing ioc buys), then projects them into a
// fresh database again and again, in flushes the size the server makes under load, and
// reports CPU µs per order: the main thread's and the whole process's (PGlite's worker
// thread included; on PostgreSQL, the pool of one connection's server backend on this machine).
//
//   npx tsx apps/server/scripts/projector-cpu.ts            (PGlite in a worker thread)
//   DATABASE_URL=postgres://… npx tsx apps/server/scripts/projector-cpu.ts
import { readdirSync, readFileSync } from "node:fs";
import { sql } from "kysely";
import pg from "pg";
import { openDatabase, type Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrate.ts";
import { registerByPhone } from "../src/testing/register-phone.ts";
import { benchApp } from "./bench-app.ts";
import {
  ReadModelProjector,
  clearReadModels,
  type ProjectableCommand,
} from "../src/read-models/projector.ts";

const orders = Number(process.env.ORDERS ?? 3_000);
const perFlush = Number(process.env.PER_FLUSH ?? 125);
const rounds = Number(process.env.ROUNDS ?? 5);
const users = 20;
const schema = `projcpu_${process.pid}`;

function mainThreadUs() {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8")
    .split(") ")[1]!
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
/** CPU µs of each thread of this process but the main one (PGlite's worker is the busiest). */
function threadsUs(): Map<string, number> {
  const times = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    if (tid === String(process.pid)) continue;
    try {
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
      times.set(tid, (Number(fields[11]) + Number(fields[12])) * 10_000);
    } catch {
      // The thread ended.
    }
  }
  return times;
}

/** This process's CPU, plus (PostgreSQL on this machine) its one server backend's. */
let backendPid: number | undefined;
function processUs() {
  const u = process.cpuUsage();
  let backend = 0;
  if (backendPid !== undefined) {
    const fields = readFileSync(`/proc/${backendPid}/stat`, "utf8").split(") ")[1]!.split(" ");
    backend = (Number(fields[11]) + Number(fields[12])) * 10_000;
  }
  return u.user + u.system + backend;
}

async function open(): Promise<Database> {
  const database = process.env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: process.env.DATABASE_URL, schema, poolSize: 1 })
    : await openDatabase({ kind: "pglite", worker: true });
  await migrate(database);
  if (database.kind === "postgres") {
    const rows = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(database.db);
    backendPid = rows.rows[0]!.pid;
  }
  return database;
}

async function record(): Promise<ProjectableCommand[]> {
  const database = await openDatabase({ kind: "pglite" });
  const { running, app } = await benchApp(database);
  const recorded: ProjectableCommand[] = [];
  const user = async (index: number, asset: string, amount: string) => {
    const phone = `+49151${String(index).padStart(8, "0")}`;
    const registered = await registerByPhone(app, phone, "bench-operator", {
      remoteAddress: `10.8.0.${index % 200}`,
    });
    const session = registered.json().data;
    await app.inject({
      method: "POST",
      url: "/api/v1/operator/deposits",
      payload: {
        id: `bench-${index}`,
        ownerId: session.user.id,
        assetId: asset,
        amount,
        reference: `bench-${index}`,
        reason: "benchmark funding",
      },
      headers: { authorization: "Bearer bench-operator" },
    });
    return session.token as string;
  };
  const sellers: string[] = [];
  const buyers: string[] = [];
  for (let i = 0; i < users; i++) sellers.push(await user(i, "BTC", "1000"));
  for (let i = 0; i < users; i++) buyers.push(await user(1000 + i, "USDT", "100000000"));
  running.engine.subscribe((applied) => recorded.push(applied as ProjectableCommand));
  for (let n = 0; n < orders; n++) {
    const sell = n % 2 === 0;
    const token = (sell ? sellers : buyers)[Math.floor(n / 2) % users]!;
    const response = await app.inject({
      method: "POST",
      url: "/api/v1/spot/orders",
      headers: { authorization: `Bearer ${token}` },
      payload: {
        clientOrderId: `r-${n}`.padEnd(8, "0"),
        instrumentId: "BTCUSDT",
        side: sell ? "sell" : "buy",
        type: "limit",
        timeInForce: sell ? "gtc" : "ioc",
        price: "30000",
        quantity: "0.0001",
        tradePassword: "trade1234",
      },
    });
    if (response.statusCode !== 200) throw new Error(response.body);
  }
  await app.close();
  await running.close();
  await database.close();
  return recorded;
}

// PROJECTOR_OLD=path: alternates rounds of that module's ReadModelProjector with this tree's.
// SETUP_SQL="SET …": alternates rounds on a second database that ran it first.
const recorded = await record();
const databases: Database[] = [await open()];
const variants: { name: string; Projector: typeof ReadModelProjector; database: Database }[] = [
  { name: "current", Projector: ReadModelProjector, database: databases[0]! },
];
if (process.env.PROJECTOR_OLD) {
  const old = (await import(process.env.PROJECTOR_OLD)) as {
    ReadModelProjector: typeof ReadModelProjector;
  };
  variants.unshift({ name: "old", Projector: old.ReadModelProjector, database: databases[0]! });
}
if (process.env.SETUP_SQL) {
  const other = await open();
  await other.execScript(process.env.SETUP_SQL);
  databases.push(other);
  variants.push({ name: process.env.SETUP_SQL, Projector: ReadModelProjector, database: other });
}
const results: { variant: string; main: number; process: number; busiestThread: number }[] = [];
try {
  for (let round = 0; round < rounds * variants.length; round++) {
    const variant = variants[round % variants.length]!;
    const database = variant.database;
    await clearReadModels(database);
    const projector = new variant.Projector(database, { flushDelayMs: 1e9 });
    await projector.load();
    const main0 = mainThreadUs();
    const process0 = processUs();
    const threads0 = threadsUs();
    for (let start = 0; start < recorded.length; start += perFlush) {
      for (const applied of recorded.slice(start, start + perFlush)) projector.handle(applied);
      await projector.flush();
    }
    if (projector.failed) throw new Error("projection failed");
    let busiest = 0;
    for (const [tid, us] of threadsUs()) busiest = Math.max(busiest, us - (threads0.get(tid) ?? 0));
    results.push({
      variant: variant.name,
      busiestThread: busiest / recorded.length,
      main: (mainThreadUs() - main0) / recorded.length,
      process: (processUs() - process0) / recorded.length,
    });
  }
} finally {
  for (const database of databases) await database.close();
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const { name } of variants) {
  const mine = results.filter((r) => r.variant === name);
  console.log(
    JSON.stringify({
      variant: name,
      database: process.env.DATABASE_URL ? "postgres" : "pglite (worker)",
      commands: recorded.length,
      perFlush,
      mainUsPerCommand: mine.map((r) => Math.round(r.main)),
      processUsPerCommand: mine.map((r) => Math.round(r.process)),
      medianMain: Math.round(median(mine.map((r) => r.main))),
      medianProcess: Math.round(median(mine.map((r) => r.process))),
      busiestOtherThreadUsPerCommand: mine.map((r) => Math.round(r.busiestThread)),
      medianBusiestOtherThread: Math.round(median(mine.map((r) => r.busiestThread))),
    }),
  );
}
