import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import type { WithdrawNetwork } from "@candor/contract";
import {
  defaultWithdrawalConfig,
  type WithdrawalConfig,
  type WithdrawalTerms,
} from "./modules/wallet/wallet.withdrawals.ts";
import type { StartingServer } from "./http/starting-server.ts";
import type { Store } from "./open-store.ts";
import { migrate } from "./db/migrate.ts";
import { accountOpener } from "./engine/submit.ts";
import { clusterSubjects, recentApplied, serveClusterCommands } from "./cluster/command-bus.ts";
import { connectSessionBus } from "./cluster/session-bus.ts";
import { openEngine } from "./engine/open-engine.ts";
import { kernelPort, type CandorEngine } from "./engine/kernel-port.ts";
import { pgSnapshotStore } from "./journal/snapshot-store.ts";
import type { Command, CommandResult, Event, KernelState } from "@candor/kernel";
import { createMarketModule, tickOfRecord } from "./modules/market/market.module.ts";
import { chainSetup } from "./modules/chain/chain-setup.ts";
import { uploadsDir } from "./modules/uploads/uploads-dir.ts";
import pino from "pino";
import { instruments } from "@candor/market";
import { version } from "./version.ts";
import { serverFile } from "./server-files.ts";
import { parseCountryProductBlocks } from "./http/country-product-gate.ts";

const shutdownGraceMs = 4_000;

/**
 * Everything after the port is open (`main.ts`): once the store is open (`open-store.ts`,
 * started before this module loaded), migrates, restores the kernel, builds the app on the already-listening server and hands requests over to it.
 * Market history (the simulated backfill and its candle writes) follows in the background:
 * charts fill in while the server already answers.
 */
export async function serve(config: Config, starting: StartingServer, store: Promise<Store>) {
  // Where start-up time goes, printed once ready: ms since the process started, per phase.
  const phases: string[] = [];
  const mark = (phase: string) => phases.push(`${phase} ${Math.round(performance.now())}`);
  mark("loaded");
  const { dataDir, database, pgJournalLock } = await store;
  mark("database");
  await migrate(database);
  mark("migrated");
  await database.db.insertInto("server_starts").values({ version }).execute();

  const logger = pino({ level: config.LOG_LEVEL });
  // A failed journal write or a broken kernel invariant: stop at once, acknowledge nothing more.
  const onFatal = (error: unknown) => {
    logger.fatal(
      { error: String(error) },
      "candor: stopping after a fatal journal or kernel error",
    );
    process.exit(70); // EX_SOFTWARE
  };
  // ROLE=api (issue 25): a follower kernel for reads, writes forwarded to the leader; no
  // projector, market simulator or tape here (the leader runs them).
  const apiNode = config.ROLE === "api";
  const running = apiNode
    ? await openApiEngine(config, database, logger, onFatal)
    : await openEngine({
        database,
        dataDir,
        logger,
        onFatal,
        snapshotEvery: config.SNAPSHOT_EVERY,
        jetStream:
          config.JOURNAL === "jetstream"
            ? {
                servers: config.NATS_URL,
                stream: config.JOURNAL_STREAM,
                replicas: config.JOURNAL_REPLICAS,
              }
            : undefined,
        lease: config.LEADER_LEASE_BUCKET
          ? {
              bucket: config.LEADER_LEASE_BUCKET,
              ttlMs: config.LEADER_LEASE_TTL_MS,
              nodeId: config.NODE_ID ?? `${hostname()}-${process.pid}`,
              replicas: config.JOURNAL_REPLICAS,
            }
          : undefined,
      });
  mark("journal replayed");
  let stopCommandBus: (() => Promise<void>) | undefined;
  if (config.LEADER_LEASE_BUCKET && !apiNode) {
    // A hot standby: its kernel follows the leader's journal while this server answers 503
    // (so a load balancer sends nothing here); it builds the app once it holds the lease.
    const stopStandby = () => process.exit(0);
    if (running.engine.isStandby) {
      console.log(`Engine node: standby at sequence ${running.engine.sequence}`);
      process.once("SIGTERM", stopStandby);
      process.once("SIGINT", stopStandby);
    }
    // What this node applies while it follows: published first when it leads (fan-out).
    const followed = recentApplied(running.engine);
    const takeover = await running.leading;
    // API nodes forward commands here and follow the applied records (docs/deploy.md §4).
    stopCommandBus = await serveClusterCommands(
      config.NATS_URL,
      clusterSubjects(config.CLUSTER_SUBJECTS),
      running.engine,
      { logger, backlog: () => followed.take() },
    );
    process.off("SIGTERM", stopStandby);
    process.off("SIGINT", stopStandby);
    console.log(
      `Engine node: leading from sequence ${takeover.sequence}, state hash ${takeover.stateHash}`,
    );
    mark("leading");
  }
  // History reads answer 503 until the projector has written what the journal held at start.
  const catchUpTo = running.engine.sequence;
  let caughtUp = false;
  const readModelsCaughtUp = () =>
    // An API node reads what the leader's projector wrote: it does not wait for it.
    (caughtUp ||= !running.projector || running.projector.cursor >= catchUpTo);
  console.log(
    `Journal: sequence ${running.engine.sequence}, state hash ${running.engine.stateHash()}`,
  );

  const webRoot = fileURLToPath(serverFile("../../web/dist"));
  // STOCK_SESSIONS=always-open (development, browser tests): stocks trade at any hour.
  const sessions =
    config.STOCK_SESSIONS === "always-open"
      ? instruments.map((i) =>
          i.products.includes("stock") ? { ...i, calendarId: "crypto" as const } : i,
        )
      : instruments;
  // MARKET_TEST_JUMPS (browser tests): one instrument's simulated tape jumps often and far.
  const jumps = config.MARKET_TEST_JUMPS?.split(":");
  const catalogue = jumps
    ? sessions.map((i) =>
        i.id === jumps[0]
          ? {
              ...i,
              simulation: {
                ...i.simulation,
                jumpsPerDay: Number(jumps[1]),
                jumpBpsMax: Number(jumps[2]),
              },
            }
          : i,
      )
    : sessions;
  const market = await createMarketModule({
    database,
    now: Date.now,
    instruments: catalogue,
    seed: config.MARKET_SEED,
    backfillDays: config.MARKET_BACKFILL_DAYS,
    tickIntervalMs: config.MARKET_TICK_INTERVAL_MS,
    // Defines the spot assets and markets from the catalogue, sends ticks and sessions to the
    // kernel as journaled commands (the public tape) and runs the market maker.
    kernel: running.engine,
    follower: apiNode,
    logger,
    binance: config.MARKET_BINANCE_INSTRUMENTS
      ? {
          baseUrl: config.BINANCE_STREAM_URL,
          instrumentIds: config.MARKET_BINANCE_INSTRUMENTS.split(","),
        }
      : undefined,
    // History is a pure function of the seed: simulated after the app serves, charts fill in.
    deferHistory: true,
  });
  let handler: Parameters<StartingServer["handOver"]>[0] | undefined;
  mark("market");
  const chain = await chainSetup(config, dataDir);
  // In a cluster (API nodes, an engine leader), every node tells the others of each session
  // revocation and mode switch made through it (docs/deploy.md §4); one process has no one to tell.
  const sessionBus =
    apiNode || config.LEADER_LEASE_BUCKET
      ? await connectSessionBus(config.NATS_URL, config.CLUSTER_SUBJECTS, {
          nodeName: config.NODE_ID ?? `${hostname()}-${process.pid}`,
          logger,
        })
      : undefined;
  const app = await buildApp({
    chain: chain?.settings,
    localChain: chain?.local,
    database,
    webRoot,
    logLevel: config.LOG_LEVEL,
    engine: running.engine,
    accounts: accountOpener(running.engine),
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    operatorToken: config.OPERATOR_TOKEN,
    withdrawAddressLockMs: config.WITHDRAW_ADDRESS_LOCK_MS,
    withdrawals: withdrawalConfigOf(config),
    adjustmentTwoApprovalsAbove: adjustmentThresholdsOf(config),
    withdrawRequiresIdentity: config.WITHDRAW_REQUIRES_IDENTITY,
    withdrawAdvancedAbove: assetAmountsOf(config.WITHDRAW_ADVANCED_ABOVE),
    countryProductBlocks: parseCountryProductBlocks(config.COUNTRY_PRODUCT_BLOCKS),
    publicUrl: config.PUBLIC_URL,
    port: config.PORT,
    passwordCost: config.PASSWORD_COST,
    captcha: config.CAPTCHA,
    captchaCost: config.CAPTCHA_COST,
    proofIntervalMs: config.PROOF_INTERVAL_MS || undefined,
    // An API node starts no timer that submits commands or writes read models (the leader's).
    apiNode,
    sessionBus,
    market,
    readModelsCaughtUp,
    savings: { enabled: config.SAVINGS_ENABLED === "true" },
    stocks: { instruments: catalogue },
    seconds: {
      enabled: config.SECONDS_ENABLED === "true",
      houseDevFunding: config.SECONDS_HOUSE_DEV_FUNDING,
    },
    perp: { enabled: config.PERP_ENABLED === "true", marketMaker: true },
    uploads: {
      dir: uploadsDir(config.UPLOADS_DIR, dataDir, webRoot),
      limits: { maxBytes: config.UPLOAD_MAX_BYTES, maxPixels: config.UPLOAD_MAX_PIXELS },
    },
    bankDeposits: {
      assets: config.BANK_DEPOSIT_ASSETS.split(","),
      bank: config.BANK_ACCOUNT_NUMBER
        ? {
            accountNumber: config.BANK_ACCOUNT_NUMBER,
            accountName: config.BANK_ACCOUNT_NAME ?? "",
            bankName: config.BANK_NAME ?? "",
            bankCode: config.BANK_CODE ?? null,
            note: config.BANK_DEPOSIT_NOTE ?? null,
          }
        : null,
    },
    // The app serves on the server that already listens, once it is ready.
    serverFactory: (appHandler) => {
      handler = appHandler;
      return starting.server;
    },
  });
  await app.ready();
  starting.handOver(handler!);
  mark("ready");
  console.log(`Database: ${database.kind}${database.kind === "pglite" ? ` in ${dataDir}` : ""}`);

  let stopMarketClock: (() => Promise<void>) | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, shutting down…`);
    // If draining hangs, leave anyway: the journal, not this process, is the record.
    setTimeout(() => process.exit(1), shutdownGraceMs).unref();
    await stopMarketClock?.();
    await stopCommandBus?.().catch(() => undefined);
    // The app did not listen itself (it serves on the starting server): close that here.
    const closed = new Promise((resolve) => starting.server.close(resolve));
    starting.server.closeIdleConnections();
    await app.close();
    await closed;
    await sessionBus?.stop();
    await running.close();
    console.log(
      `Stopped at journal sequence ${running.engine.sequence}, state hash ${running.engine.stateHash()}`,
    );
    await database.close();
    await pgJournalLock?.release();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  if (apiNode) {
    // Ticks come from the followed tape; the hub still sweeps (heartbeats, slow clients).
    const unsubscribe = running.engine.subscribe((applied) => {
      if (applied.replay) return;
      const tick = tickOfRecord(applied.command);
      if (tick) market.service.ingest(tick);
    });
    const sweeper = setInterval(() => market.hub.sweep(Date.now()), config.MARKET_TICK_INTERVAL_MS);
    stopMarketClock = async () => {
      unsubscribe();
      clearInterval(sweeper);
    };
    console.log(`API node: following from sequence ${running.engine.sequence}`);
    console.log(`Candor ${version} is running at ${starting.url.replace("[::1]", "localhost")}/`);
    return;
  }
  console.log("Market data: filling simulated history in the background…");
  await market.startHistory();
  if (!stopping) stopMarketClock = market.startClock(Date.now);
  mark("history");
  console.log(`Start-up (ms since the process started): ${phases.join(", ")}`);
  console.log(`Candor ${version} is running at ${starting.url.replace("[::1]", "localhost")}/`);
}

/**
 * An API node's engine (`ROLE=api`): the follower kernel of `cluster/api-node.ts` on the
 * journal stream, writes forwarded to the leader. Shaped like `openEngine`'s, without projector.
 */
async function openApiEngine(
  config: Config,
  database: Store["database"],
  logger: pino.Logger,
  onFatal: (error: unknown) => void,
) {
  const { startApiNode } = await import("./cluster/api-node.ts");
  const node = await startApiNode<KernelState, Command, CommandResult, Event>({
    kernel: kernelPort,
    snapshots: pgSnapshotStore({ database, logger }),
    jetStream: {
      servers: config.NATS_URL,
      stream: config.JOURNAL_STREAM,
      replicas: config.JOURNAL_REPLICAS,
    },
    subjects: config.CLUSTER_SUBJECTS,
    logger,
    onFatal,
  });
  const engine: CandorEngine = node.engine;
  return {
    engine,
    projector: undefined,
    leading: Promise.resolve({ sequence: engine.sequence, stateHash: engine.stateHash() }),
    close: () => node.close(),
  };
}

/** ADJUSTMENT_TWO_APPROVALS_ABOVE as the operator module reads it: asset → whole units. */
export function adjustmentThresholdsOf(config: Config): Record<string, string> {
  return assetAmountsOf(config.ADJUSTMENT_TWO_APPROVALS_ABOVE);
}

/** An `ASSET:amount,…` setting (or `none`) as asset → amount. */
export function assetAmountsOf(setting: string): Record<string, string> {
  if (setting === "none") return {};
  return Object.fromEntries(
    setting.split(",").map((entry) => entry.split(":") as [string, string]),
  );
}

/** WITHDRAW_TERMS, WITHDRAW_BANK_TERMS and WITHDRAW_TWO_APPROVALS_ABOVE as the wallet reads them. */
export function withdrawalConfigOf(config: Config): WithdrawalConfig {
  const result: WithdrawalConfig = {
    terms: config.WITHDRAW_TERMS === undefined ? defaultWithdrawalConfig.terms : {},
    twoApprovalsAbove:
      config.WITHDRAW_TWO_APPROVALS_ABOVE === undefined
        ? defaultWithdrawalConfig.twoApprovalsAbove
        : {},
  };
  const terms: Record<string, Partial<Record<WithdrawNetwork, WithdrawalTerms>>> = {};
  for (const entry of config.WITHDRAW_TERMS?.split(",") ?? []) {
    const [asset, network, minimum, fee] = entry.split(":") as [
      string,
      WithdrawNetwork,
      string,
      string,
    ];
    terms[asset] = { ...terms[asset], [network]: { minimum, fee } };
  }
  if (config.WITHDRAW_TERMS !== undefined) result.terms = terms;
  if (config.WITHDRAW_BANK_TERMS !== undefined) {
    result.bankTerms = Object.fromEntries(
      config.WITHDRAW_BANK_TERMS.split(",").map((entry) => {
        const [asset, minimum, fee] = entry.split(":") as [string, string, string];
        return [asset, { minimum, fee }];
      }),
    );
  } else {
    result.bankTerms = defaultWithdrawalConfig.bankTerms;
  }
  if (config.WITHDRAW_TWO_APPROVALS_ABOVE !== undefined) {
    result.twoApprovalsAbove = Object.fromEntries(
      config.WITHDRAW_TWO_APPROVALS_ABOVE.split(",").map((e) => e.split(":") as [string, string]),
    );
  }
  return result;
}
