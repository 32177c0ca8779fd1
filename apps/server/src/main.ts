import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "./app.ts";
import { ConfigError, readConfig, type Config } from "./config.ts";
import { openDatabase } from "./db/database.ts";
import { migrate } from "./db/migrate.ts";
import { accountOpener } from "./engine/submit.ts";
import { openEngine } from "./engine/open-engine.ts";
import { createMarketModule } from "./modules/market/market.module.ts";
import pino from "pino";
import { version } from "./version.ts";

const shutdownGraceMs = 4_000;

async function main() {
  let config: Config;
  try {
    config = readConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`candor: configuration error: ${error.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const dataDir = path.resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: "postgres", url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA }
      : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
  );
  await migrate(database);
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
  const running = await openEngine({
    database,
    dataDir,
    logger,
    onFatal,
    snapshotEvery: config.SNAPSHOT_EVERY,
  });
  console.log(
    `Journal: sequence ${running.engine.sequence}, state hash ${running.engine.stateHash()}`,
  );

  const webRoot = fileURLToPath(new URL("../../web/dist", import.meta.url));
  console.log("Market data: filling simulated history (the first start takes a little while)…");
  const market = await createMarketModule({
    database,
    now: Date.now,
    seed: config.MARKET_SEED,
    backfillDays: config.MARKET_BACKFILL_DAYS,
    tickIntervalMs: config.MARKET_TICK_INTERVAL_MS,
    // Defines the spot assets and markets from the catalogue, sends ticks and sessions to the
    // kernel as journaled commands (the public tape) and runs the market maker.
    kernel: running.engine,
    binance: config.MARKET_BINANCE_INSTRUMENTS
      ? {
          baseUrl: config.BINANCE_STREAM_URL,
          instrumentIds: config.MARKET_BINANCE_INSTRUMENTS.split(","),
        }
      : undefined,
  });
  const stopMarketClock = market.startClock(Date.now);
  const app = await buildApp({
    database,
    webRoot,
    logLevel: config.LOG_LEVEL,
    engine: running.engine,
    accounts: accountOpener(running.engine),
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    operatorToken: config.OPERATOR_TOKEN,
    publicUrl: config.PUBLIC_URL,
    port: config.PORT,
    passwordCost: config.PASSWORD_COST,
    captcha: config.CAPTCHA,
    captchaCost: config.CAPTCHA_COST,
    proofIntervalMs: config.PROOF_INTERVAL_MS || undefined,
    market,
  });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  console.log(`Candor ${version} is running at ${address.replace("[::1]", "localhost")}/`);
  console.log(`Database: ${database.kind}${database.kind === "pglite" ? ` in ${dataDir}` : ""}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, shutting down…`);
    // If draining hangs, leave anyway: the journal, not this process, is the record.
    setTimeout(() => process.exit(1), shutdownGraceMs).unref();
    await stopMarketClock();
    await app.close();
    await running.close();
    console.log(
      `Stopped at journal sequence ${running.engine.sequence}, state hash ${running.engine.stateHash()}`,
    );
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

await main();
