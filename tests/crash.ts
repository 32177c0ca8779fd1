// The reliability test of issues 4 and 14: a bank workload over HTTP — deposits by id, and
// orders by client order id (pairs that cross, far bids that rest and are cancelled), every
// unanswered request retried with the same id — while the server process is killed with SIGKILL
// at random moments and restarted. Afterwards: every deposit and every order is in the journal
// exactly once, each asset is conserved (users + fees = deposits), every user's statement export
// verifies and adds up to the replayed ledger, the public tape's fills are exactly the fills on
// the statements, `rebuild-read-models` agrees with the kernel, the invariants hold and a full
// replay gives the live state hash. It runs on the file journal (crash.test.ts) and on the
// PostgreSQL journal (crash-postgres.test.ts). CRASH_KILLS=100 runs more rounds; CRASH_SEED
// repeats one. It starts the built server (`npm run build` first).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { getBalances, type KernelState } from "@candor/kernel";
import { verifyStatement, type StatementExport } from "@candor/proof";
import { expect } from "vitest";
import { openDatabase } from "../apps/server/src/db/database.ts";
import { kernelPort } from "../apps/server/src/engine/kernel-port.ts";
import { openFileJournal } from "../apps/server/src/journal/file-journal.ts";
import { openJetStreamJournal } from "../apps/server/src/journal/jetstream-journal.ts";
import { openPgJournal } from "../apps/server/src/journal/pg-journal.ts";
import { tradesClient, type TradeMessage } from "./cluster-fixture.ts";
import { removeDataDir, startServer as startHarnessServer, type ServerProcess } from "./harness.ts";

export type Backend =
  | { kind: "file" }
  | { kind: "postgres"; url: string; schema: string }
  /**
   * Issue 25: two engine nodes on a JetStream journal with a leader lease, PostgreSQL for the
   * rest. The leader is killed each round (once paused with SIGSTOP instead); the standby
   * takes over and a new standby starts.
   */
  | { kind: "failover"; url: string; schema: string; stream: string; bucket: string }
  /**
   * Issue 25's cluster: the failover pair above plus `apiNodes` API node processes
   * (`ROLE=api`) on the subject prefix `prefix`. The clients spread their requests over the API
   * nodes (never an engine node) while the leader is killed each round (never paused: the
   * failover test covers that); a real WebSocket client on each API node takes the public
   * trades, checked against the journal's tape at the end.
   */
  | {
      kind: "cluster";
      url: string;
      schema: string;
      stream: string;
      bucket: string;
      prefix: string;
      apiNodes: number;
    };

/** Engine nodes with a leader lease (leader + hot standby). */
type LeaseBackend = Extract<Backend, { kind: "failover" | "cluster" }>;
const hasLease = (backend: Backend): backend is LeaseBackend =>
  backend.kind === "failover" || backend.kind === "cluster";

/** What the failover rounds measured, for the test to report. */
export const failoverStats = {
  takeoverMs: [] as number[],
  pausedExitCode: null as number | null,
  /** Cluster: public trades each API node's WebSocket client received and checked. */
  tradesChecked: [] as number[],
  /** Cluster: acknowledged commands re-sent on purpose through another API node. */
  deliberateRetries: 0,
};

async function waitForOutput(server: ServerProcess, pattern: RegExp, timeoutMs = 60_000) {
  const startedMs = Date.now();
  for (;;) {
    const match = pattern.exec(server.output());
    if (match) return match;
    if (Date.now() - startedMs > timeoutMs) {
      throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const root = path.resolve(import.meta.dirname, "..");

export const kills = Number(process.env.CRASH_KILLS ?? 20);
const operatorToken = "crash-test-operator-token";
/** Ids of the registered users the deposits go to (only existing users can be credited). */
const owners: string[] = [];
/** Their session tokens (sessions survive restarts: they are in the database). */
const tokens: string[] = [];

/** Registers a user by phone number (code from the operator's outbox): its id and token. */
async function register(
  server: ServerProcess,
  phone: string,
): Promise<{ id: string; token: string }> {
  const json = { "content-type": "application/json" };
  await fetch(`${server.url}/api/v1/auth/phone-codes`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ phone, purpose: "register" }),
  });
  const outbox = (await (
    await fetch(`${server.url}/api/v1/operator/outbox?to=${encodeURIComponent(phone)}`, {
      headers: { authorization: `Bearer ${operatorToken}` },
    })
  ).json()) as { data: { emails: { text: string }[] } };
  const phoneCode = /\b(\d{6})\b/.exec(outbox.data.emails[0]?.text ?? "")?.[1];
  const response = await fetch(`${server.url}/api/v1/auth/register`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({
      account: phone,
      password: "crash1234",
      passwordConfirm: "crash1234",
      phoneCode,
      agreement: true,
    }),
  });
  const body = (await response.json()) as { data: { token: string; user: { id: string } } };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { id: body.data.user.id, token: body.data.token };
}

/** Deterministic randomness, so a failing run can be repeated with CRASH_SEED. */
const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
let state = seed || 1;
const random = () => {
  state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
  return state / 2_147_483_648;
};

interface Deposit {
  id: string;
  ownerId: string;
  assetId?: string;
  amount: string;
  units: bigint;
  acknowledged: boolean;
}

function makeDeposit(n: number): Deposit {
  const whole = (n % 7) + 1;
  return {
    id: `crash-${n}`,
    ownerId: owners[n % owners.length]!,
    amount: `${whole}.25`,
    units: BigInt(whole) * 1_000_000n + 250_000n,
    acknowledged: false,
  };
}

async function credit(server: ServerProcess, deposit: Deposit): Promise<boolean> {
  try {
    const response = await fetch(`${server.url}/api/v1/operator/deposits`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        id: deposit.id,
        ownerId: deposit.ownerId,
        assetId: deposit.assetId ?? "USDT",
        amount: deposit.amount,
        reference: `ref-${deposit.id}`,
        reason: "crash test deposit",
      }),
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status !== 200) return false;
    const body = (await response.json()) as { data: { sequence: string } };
    return typeof body.data.sequence === "string";
  } catch {
    return false; // Connection refused or reset: not acknowledged; retry with the same id.
  }
}

/** One order of the bank workload, placed by client order id and retried with the same id. */
interface Order {
  clientOrderId: string;
  user: number;
  side: "buy" | "sell";
  price: string;
  /** Far from the market: it rests, and is cancelled once placed. */
  far: boolean;
  /** Answered: placed (200) or refused for good (4xx); until then retried with the same id. */
  answered: boolean;
  orderId?: string;
  cancelled: boolean;
}

const tradePassword = "crash1234";

async function request(
  server: ServerProcess,
  method: string,
  path: string,
  token: string,
  body?: object,
): Promise<{ status: number; json: { data?: Record<string, unknown>; error?: string } } | null> {
  try {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, json: (await response.json()) as never };
  } catch {
    return null; // Refused or reset by a kill: not answered.
  }
}

/** The last tape price of BTC/USDT, rounded to whole USDT, as the spot markets answer it. */
async function lastPrice(server: ServerProcess): Promise<number> {
  for (;;) {
    if (server.process.exitCode !== null) throw new Error(`exited:\n${server.output()}`);
    const markets = await request(server, "GET", "/api/v1/spot/markets", tokens[0]!);
    const items = (markets?.json.data?.items ?? []) as {
      instrumentId: string;
      lastPrice: string;
    }[];
    const btc = items.find((m) => m.instrumentId === "BTCUSDT");
    if (btc?.lastPrice) return Math.round(Number(btc.lastPrice));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A public trade on the tape: time, price and size (of a `record_tick`, or a WS trade). */
function tradeKey(
  trade: { tickAtMs: number; price: string; quantity?: string | null } | TradeMessage,
): string {
  return "tickAtMs" in trade
    ? `${trade.tickAtMs}:${trade.price}:${trade.quantity}`
    : `${trade.atMs}:${trade.price}:${trade.quantity}`;
}

/**
 * Places (or retries) an order; a resting far order is then cancelled. With `again` (the
 * cluster), every third crossing order, once placed, is sent again by its client order id
 * through the next API node: the answer must be the first one (`duplicate`, same order).
 */
async function placeOrder(
  server: ServerProcess,
  order: Order,
  again?: () => ServerProcess,
): Promise<void> {
  const token = tokens[order.user]!;
  if (!order.answered) {
    const body = {
      clientOrderId: order.clientOrderId,
      instrumentId: "BTCUSDT",
      side: order.side,
      type: "limit",
      price: order.price,
      quantity: "0.001",
      tradePassword,
    };
    const placed = await request(server, "POST", "/api/v1/spot/orders", token, body);
    if (!placed || placed.status >= 500 || placed.status === 429) return;
    order.answered = true;
    const placedOrder = placed.json.data?.order as { orderId: string } | undefined;
    order.orderId = placedOrder?.orderId;
    if (!order.orderId) order.cancelled = true; // Refused: nothing to cancel.
    if (
      again &&
      order.orderId &&
      !order.far &&
      Number(order.clientOrderId.split("-")[1]) % 3 === 0
    ) {
      const retried = await request(again(), "POST", "/api/v1/spot/orders", token, body);
      if (retried?.status === 200) {
        expect(retried.json.data?.duplicate, order.clientOrderId).toBe(true);
        const first = retried.json.data?.order as { orderId: string } | undefined;
        expect(first?.orderId, order.clientOrderId).toBe(order.orderId);
        failoverStats.deliberateRetries++;
      }
    }
  }
  if (order.far && !order.cancelled && order.orderId) {
    const cancelled = await request(
      server,
      "DELETE",
      `/api/v1/spot/orders/${order.orderId}`,
      token,
    );
    if (cancelled && (cancelled.status === 200 || cancelled.status === 409)) order.cancelled = true;
  } else {
    order.cancelled = true;
  }
}

/** Every account of an owner (real money) with available + held. */
function totalsOf(kernel: KernelState, ownerId: string) {
  return getBalances(kernel, ownerId, "real").map((b) => ({
    wallet: b.wallet,
    assetId: b.assetId,
    total: b.available + b.held,
  }));
}

/**
 * What users can check after the run, through the API: each one's statement export verifies
 * (chain, running balances, lines adding up to the ledger's balances), and the public tape's
 * fills are exactly the fills on their statements.
 */
async function whatUsersSee(server: ServerProcess) {
  const balances: Map<string, bigint>[] = [];
  const statementFills = new Set<string>();
  for (const token of tokens) {
    let exported: Awaited<ReturnType<typeof request>> = null;
    for (let attempt = 0; attempt < 50 && exported?.status !== 200; attempt++) {
      exported = await request(server, "GET", "/api/v1/wallet/statement/export", token);
      if (exported?.status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(exported?.status, JSON.stringify(exported?.json)).toBe(200);
    const statement = exported!.json.data as unknown as StatementExport;
    const check = verifyStatement(statement);
    expect(check, JSON.stringify(check)).toMatchObject({ ok: true });
    if (check.ok) balances.push(check.balances);
    for (const line of statement.lines) if (line.fillId) statementFills.add(line.fillId);
  }
  const tapeFills = new Set<string>();
  for (let from = 1n; ; from += 10_000n) {
    const page = await request(server, "GET", `/api/v1/tape?from=${from}`, tokens[0]!);
    const data = page!.json.data as { fills: { fillId: string }[]; completeTo: string };
    for (const fill of data.fills) tapeFills.add(fill.fillId);
    if (from + 10_000n > BigInt(data.completeTo)) break;
  }
  expect(statementFills.size).toBeGreaterThan(0);
  expect([...statementFills].sort()).toEqual([...tapeFills].sort());
  return { balances };
}

/**
 * Runs the crash test against a started server whose journal is segment files under its data
 * folder (`file`) or the `journal_records` table of a PostgreSQL schema of its own (`postgres`).
 */
export async function runCrashTest(
  backend: Backend,
  rounds = kills,
  /** Every process started goes here too (a cluster fixture's, so its tear-down kills them). */
  started: ServerProcess[] = [],
) {
  try {
    await crashTest(backend, rounds, async (options) => {
      // The built server, as `npm start` runs it (`npm test` builds first): a restart loads one
      // bundle instead of compiling the sources through tsx, about half the start-up time.
      const server = await startHarnessServer({ ...options, bundle: true });
      started.push(server);
      return server;
    });
  } finally {
    // A failed run leaves no server behind (it would hold the schema the test drops).
    for (const server of started)
      if (server.process.exitCode === null) server.process.kill("SIGKILL");
  }
}

async function crashTest(
  backend: Backend,
  rounds: number,
  startServer: (options: Parameters<typeof startHarnessServer>[0]) => Promise<ServerProcess>,
) {
  const env: Record<string, string> = {
    OPERATOR_TOKEN: operatorToken,
    CAPTCHA: "off",
    SNAPSHOT_EVERY: "40",
    MARKET_BACKFILL_DAYS: "1",
    // The seed deposits (100,000 USDT) are above the default two-operator amount for manual
    // adjustments; this test has one (bootstrap) operator, so the rule is off here.
    ADJUSTMENT_TWO_APPROVALS_ABOVE: "none",
    ...(backend.kind !== "file"
      ? { DATABASE_URL: backend.url, DATABASE_SCHEMA: backend.schema }
      : {}),
    ...(hasLease(backend)
      ? {
          JOURNAL: "jetstream",
          JOURNAL_STREAM: backend.stream,
          LEADER_LEASE_BUCKET: backend.bucket,
          LEADER_LEASE_TTL_MS: "3000",
        }
      : {}),
    ...(backend.kind === "cluster" ? { CLUSTER_SUBJECTS: backend.prefix } : {}),
  };
  let server = await startServer({ env });
  const dataDir = server.dataDir;
  const dataDirs: string[] = [];
  let standby = hasLease(backend) ? await startServer({ env, standby: true }) : undefined;
  if (standby) dataDirs.push(standby.dataDir);
  // Cluster: the API nodes (started after the engine nodes, which create the stream), each with
  // a WebSocket client on BTC/USDT's public trades that stays connected through every failover.
  const apiNodes =
    backend.kind === "cluster"
      ? await Promise.all(
          Array.from({ length: backend.apiNodes }, () =>
            startServer({ env: { ...env, ROLE: "api" }, startTimeoutMs: 120_000 }),
          ),
        )
      : [];
  dataDirs.push(...apiNodes.map((node) => node.dataDir));
  const tapeClients = await Promise.all(apiNodes.map((node) => tradesClient(node.url, "BTCUSDT")));
  /**
   * Where requests go: the API nodes in turn (cluster), else the one serving process. An API
   * node never goes away in this test: one that did fails it at once, with its output.
   */
  let turn = 0;
  const via = () => {
    if (apiNodes.length === 0) return server;
    const node = apiNodes[turn++ % apiNodes.length]!;
    if (node.process.exitCode !== null || node.process.signalCode !== null) {
      throw new Error(`API node exited (${node.process.exitCode}):\n${node.output()}`);
    }
    return node;
  };
  owners.length = 0;
  tokens.length = 0;
  for (const phone of ["+4915170000001", "+4915170000002", "+4915170000003"]) {
    const user = await register(via(), phone);
    owners.push(user.id);
    tokens.push(user.token);
  }
  const deposits: Deposit[] = [];
  let next = 0;
  // Everyone starts with BTC to sell and USDT to buy with (counted with the other deposits).
  for (const [index, ownerId] of owners.entries()) {
    for (const [assetId, amount, units] of [
      ["BTC", "1", 100_000_000n],
      ["USDT", "100000", 100_000_000_000n],
    ] as const) {
      const deposit = {
        id: `seed-${index}-${assetId}`,
        ownerId,
        assetId,
        amount,
        units,
        acknowledged: false,
      };
      while (!deposit.acknowledged) deposit.acknowledged = await credit(via(), deposit);
      deposits.push(deposit);
    }
  }
  // Orders: pairs that cross at the last price (a sell, then a buy of another user), and far
  // bids that rest and are cancelled.
  const orders: Order[] = [];
  let nextOrder = 0;
  let price = await lastPrice(via());
  const newOrders = (): Order[] => {
    const n = nextOrder++;
    const seller = n % owners.length;
    const buyer = (n + 1) % owners.length;
    const make = (user: number, side: "buy" | "sell", at: number, far: boolean): Order => ({
      clientOrderId: `bank-${n}-${side}${far ? "-far" : ""}`,
      user,
      side,
      price: String(at),
      far,
      answered: false,
      cancelled: false,
    });
    return n % 4 === 3
      ? [make(buyer, "buy", Math.round(price * 0.8), true)]
      : [make(seller, "sell", price, false), make(buyer, "buy", price, false)];
  };

  const runClients = (stopAfterMs: number) => {
    let running = true;
    const worker = async () => {
      while (running) {
        // Retry an unacknowledged deposit first, with its same id; else start a new one.
        let deposit = deposits.find((d) => !d.acknowledged && !inFlight.has(d.id));
        if (!deposit) {
          deposit = makeDeposit(next++);
          deposits.push(deposit);
        }
        inFlight.add(deposit.id);
        if (await credit(via(), deposit)) {
          deposit.acknowledged = true;
          // Cluster: every fifth acknowledged deposit is sent again, by its id, through the next
          // API node, as a client that lost the answer would: counted once at the end.
          if (apiNodes.length > 0 && Number(deposit.id.split("-")[1]) % 5 === 0) {
            if (await credit(via(), deposit)) failoverStats.deliberateRetries++;
          }
        } else await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight.delete(deposit.id);
      }
    };
    const inFlight = new Set<string>();
    // One trader: pairs in order, so a buy finds its sell resting; retries keep their ids.
    const trader = async () => {
      while (running) {
        const pending = orders.filter((o) => !o.answered || !o.cancelled);
        const batch = pending.length > 0 ? pending : newOrders();
        if (pending.length === 0) orders.push(...batch);
        for (const order of batch) {
          if (!running) break;
          await placeOrder(via(), order, apiNodes.length > 0 ? via : undefined);
        }
        if (batch.some((o) => !o.answered || !o.cancelled)) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const workers = [...Array.from({ length: 4 }, worker), trader()];
    return {
      stop: async () => {
        running = false;
        await Promise.all(workers);
      },
      timer: new Promise((resolve) => setTimeout(resolve, stopAfterMs)),
    };
  };

  /**
   * Cluster: the next standby, starting while the workload runs (as an operator's restart
   * would); the next kill waits until it follows the leader.
   */
  let nextStandby: Promise<ServerProcess> | undefined;
  const standbyReady = async () => {
    if (!nextStandby) return;
    standby = await nextStandby;
    nextStandby = undefined;
    dataDirs.push(standby.dataDir);
  };
  for (let round = 0; round < rounds; round++) {
    const clients = runClients(100 + Math.floor(random() * 700));
    await clients.timer;
    await standbyReady();
    if (standby) {
      // Failover: the leader dies (or, in the failover test's round 1, is paused); the standby
      // takes over. Cluster clients keep sending through the API nodes meanwhile.
      const old = server;
      const paused = backend.kind === "failover" && round === 1;
      const killedMs = Date.now();
      const killed = paused ? undefined : old.stop("SIGKILL");
      if (paused) old.process.kill("SIGSTOP");
      // Seven processes on a shared 2-core machine: a takeover may take long; it must happen.
      await waitForOutput(standby, /running at http/, apiNodes.length > 0 ? 120_000 : 60_000);
      failoverStats.takeoverMs.push(Date.now() - killedMs);
      console.log(
        `failover round ${round}: ${paused ? "paused" : "killed"} → serving in ${Date.now() - killedMs} ms`,
      );
      if (apiNodes.length > 0) nextStandby = startServer({ env, standby: true });
      await clients.stop();
      await killed;
      server = standby;
      if (paused) {
        // The paused leader wakes up after the failover: it must not append; it stops.
        const exited = new Promise<number | null>((resolve) => old.process.once("exit", resolve));
        old.process.kill("SIGCONT");
        failoverStats.pausedExitCode = await exited;
      }
      if (nextStandby) {
        // Until it follows, the old standby (now the leader) must not be taken for it.
        standby = undefined;
      } else {
        standby = await startServer({ env, standby: true });
        dataDirs.push(standby.dataDir);
      }
    } else {
      const killed = server.stop("SIGKILL");
      await clients.stop();
      await killed;
      server = await startServer({ dataDir, env });
    }
    price = await lastPrice(via());
  }
  await standbyReady();

  // The last run: finish every unacknowledged deposit and order, then check what users see.
  for (const deposit of deposits.filter((d) => !d.acknowledged)) {
    for (let attempt = 0; attempt < 5 && !deposit.acknowledged; attempt++) {
      deposit.acknowledged = await credit(via(), deposit);
    }
  }
  for (const order of orders) {
    for (let attempt = 0; attempt < 5 && (!order.answered || !order.cancelled); attempt++) {
      await placeOrder(via(), order);
    }
  }
  expect(orders.every((o) => o.answered && o.cancelled)).toBe(true);
  const seen = await whatUsersSee(server);
  const stopped = await server.stop("SIGTERM");
  expect(stopped.code).toBe(0);
  const live = /Stopped at journal sequence (\d+), state hash ([0-9a-f]{64})/.exec(server.output());
  expect(live, server.output()).not.toBeNull();
  // The standby had followed every record: it takes over at the leader's last state.
  let final = live!;
  /** Cluster: where each API node's follower kernel stopped (sequence, state hash). */
  const apiStops: RegExpExecArray[] = [];
  if (standby) {
    const takeover = await waitForOutput(
      standby,
      /Engine node: leading from sequence (\d+), state hash ([0-9a-f]{64})/,
    );
    expect(takeover[1]).toBe(live![1]);
    expect(takeover[2]).toBe(live![2]);
    await waitForOutput(standby, /running at http/);
    // Every API node has published a trade of the new leader's tape, so it has published
    // everything before it (stream order) before it is stopped.
    const takenOverMs = Date.now();
    for (let waited = 0; tapeClients.some((c) => !c.trades.some((t) => t.atMs > takenOverMs));) {
      if (waited >= 30_000) {
        const state = apiNodes.map(
          (node, i) =>
            `node ${i}: exit ${node.process.exitCode}, closed ${tapeClients[i]!.closed}, ` +
            `${tapeClients[i]!.trades.length} trades, last at ${tapeClients[i]!.trades.at(-1)?.atMs}` +
            `\n${node.output().slice(-2_000)}`,
        );
        throw new Error(
          `no trade of the new leader (after ${takenOverMs}) on every API node:\n${state.join("\n")}` +
            `\nstandby:\n${standby.output().slice(-3_000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      waited += 100;
    }
    // The WebSocket clients stayed connected through every failover (API nodes never went away).
    for (const client of tapeClients) expect(client.closed).toBe(false);
    for (const node of apiNodes) {
      expect((await node.stop("SIGTERM")).code, node.output()).toBe(0);
      const stop = /Stopped at journal sequence (\d+), state hash ([0-9a-f]{64})/.exec(
        node.output(),
      );
      expect(stop, node.output()).not.toBeNull();
      // It had followed at least as far as the leader's last record.
      expect(BigInt(stop![1]!)).toBeGreaterThanOrEqual(BigInt(live![1]!));
      apiStops.push(stop!);
    }
    expect((await standby.stop("SIGTERM")).code).toBe(0);
    final = /Stopped at journal sequence (\d+), state hash ([0-9a-f]{64})/.exec(standby.output())!;
    expect(final, standby.output()).not.toBeNull();
  }

  // The read models rebuilt from the journal agree with the kernel's balances.
  const rebuilt = spawnSync(
    process.execPath,
    ["--import", "tsx", "apps/server/scripts/rebuild-read-models.ts"],
    {
      cwd: root,
      // The test's own DATABASE_URL (set by CI) must not point the file backend elsewhere.
      env: { ...process.env, DATABASE_URL: "", ...env, DATA_DIR: dataDir },
      encoding: "utf8",
    },
  );
  expect(rebuilt.status, rebuilt.stderr + rebuilt.stdout).toBe(0);
  const rebuiltTo = JSON.parse(rebuilt.stdout.trim().split("\n").pop()!) as {
    stateHash: string;
    differences: unknown[];
  };
  expect(rebuiltTo.differences).toEqual([]);
  expect(rebuiltTo.stateHash).toBe(final[2]);

  // Replay the whole journal offline and check it.
  const onFatal = (error: unknown) => {
    throw error;
  };
  const database =
    backend.kind === "postgres"
      ? await openDatabase({ kind: "postgres", url: backend.url, schema: backend.schema })
      : undefined;
  const journal = hasLease(backend)
    ? await openJetStreamJournal({
        servers: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
        stream: backend.stream,
        onFatal,
      })
    : database
      ? await openPgJournal({ database, onFatal })
      : await openFileJournal({ directory: `${dataDir}/journal`, onFatal });
  const kernel = kernelPort.createState();
  const applications = new Map<string, number>();
  const placements = new Map<string, number>();
  // State hashes the replay must reach: the leader's at its last record, and (cluster) each
  // API node's follower at the sequence it stopped at.
  const checkpoints = new Map<bigint, string[]>([[BigInt(live![1]!), [live![2]!]]]);
  for (const stop of apiStops) {
    const sequence = BigInt(stop[1]!);
    checkpoints.set(sequence, [...(checkpoints.get(sequence) ?? []), stop[2]!]);
  }
  /** BTC/USDT's public tape up to the leader's last record, in journal order. */
  const tape: string[] = [];
  // Up to the leader's last record (after a failover the new leader appended its own ticks;
  // the cluster test reads those too, up to where its API nodes stopped).
  const last = [...checkpoints.keys()].reduce((a, b) => (a > b ? a : b));
  for await (const record of journal.read(1n, last)) {
    const command = kernelPort.decodeCommand(record.payload);
    const step = kernelPort.apply(kernel, command);
    for (const hash of checkpoints.get(record.sequence) ?? []) {
      expect(kernelPort.stateHash(kernel), `state hash at ${record.sequence}`).toBe(hash);
    }
    if (record.sequence > BigInt(live![1]!)) continue;
    // A public trade is a recorded print: a rejected or repeated record_tick is none (WsTrade).
    if (
      command.type === "record_tick" &&
      command.instrumentId === "BTCUSDT" &&
      step.result.ok &&
      !step.duplicate
    ) {
      tape.push(tradeKey(command));
    }
    if (command.type === "credit_deposit" && step.result.ok && !step.duplicate) {
      applications.set(command.id, (applications.get(command.id) ?? 0) + 1);
    }
    if (command.type === "place_order" && /^o:[^:]+:bank-/.test(command.id) && !step.duplicate) {
      placements.set(command.id, (placements.get(command.id) ?? 0) + 1);
    }
  }
  await journal.close();
  await database?.close();
  kernelPort.checkInvariants(kernel);
  expect(journal.head.toString()).toBe(final[1]);

  // Cluster: each API node's WebSocket client got BTC/USDT's public trades exactly as the
  // journal's tape has them: from the first one it received up to the leader's last record,
  // every tick, in journal order, none missing or repeated (the protocol has no sequence
  // numbers: the journal is the reference), across every failover.
  for (const client of tapeClients) {
    const received = client.trades;
    expect(received.length).toBeGreaterThan(0);
    // The print's size, as the leader's own trades have it (the tape carries it).
    for (const trade of received) expect(Number(trade.quantity), trade.id).toBeGreaterThan(0);
    const from = tape.indexOf(tradeKey(received[0]!));
    expect(from, "first trade received is on the tape").toBeGreaterThanOrEqual(0);
    const expected = tape.slice(from);
    expect(received.slice(0, expected.length).map(tradeKey)).toEqual(expected);
    failoverStats.tradesChecked.push(expected.length);
  }

  // Exactly-once orders: one order per client order id, each placed once.
  expect(placements.size).toBe(orders.length);
  for (const order of orders) {
    const id = `o:${owners[order.user]}:${order.clientOrderId}`;
    expect(placements.get(id) ?? 0, order.clientOrderId).toBe(1);
  }
  // Conservation per asset: users and Candor's accounts hold exactly what came in.
  for (const assetId of ["BTC", "USDT"]) {
    const deposited = deposits
      .filter((d) => (d.assetId ?? "USDT") === assetId)
      .reduce((sum, d) => sum + d.units, 0n);
    const held = [...owners, "system:fees"].reduce((sum, ownerId) => {
      const balances = totalsOf(kernel, ownerId);
      return sum + balances.filter((b) => b.assetId === assetId).reduce((t, b) => t + b.total, 0n);
    }, 0n);
    expect(held, assetId).toBe(deposited);
  }
  // The statement each user checked agrees with the replayed ledger.
  for (const [index, ownerId] of owners.entries()) {
    const replayed = totalsOf(kernel, ownerId);
    for (const b of replayed) {
      expect(seen.balances[index]!.get(`${b.wallet}/${b.assetId}`) ?? 0n, ownerId).toBe(b.total);
    }
  }

  const acknowledged = deposits.filter((d) => d.acknowledged);
  expect(acknowledged.length).toBe(deposits.length);
  for (const deposit of deposits) {
    expect(applications.get(`operator_deposit:${deposit.id}`) ?? 0, deposit.id).toBe(1);
  }
  expect([...applications.values()].every((count) => count === 1)).toBe(true);
  // Kept on failure, for a look at the journal.
  removeDataDir(dataDir);
  dataDirs.forEach(removeDataDir);
}
