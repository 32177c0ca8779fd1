import { z } from "zod";

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  /** PostgreSQL schema for every table (default: the server's search path, usually public). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case SQL identifier")
    .optional(),
  /**
   * Where the journal lives: `local` (PostgreSQL with DATABASE_URL, else segment files under
   * DATA_DIR) or `jetstream` (a NATS JetStream stream, replicated by NATS; issue 25).
   */
  JOURNAL: z.enum(["local", "jetstream"]).default("local"),
  NATS_URL: z
    .string()
    .regex(
      /^(nats|tls):\/\/[^,]+(,(nats|tls):\/\/[^,]+)*$/,
      "must be nats://host:port, comma-separated",
    )
    .default("nats://127.0.0.1:4222"),
  /** The journal's JetStream stream (one per deployment). */
  JOURNAL_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be letters, digits, _ or -")
    .default("CANDOR_JOURNAL"),
  /** Copies JetStream keeps of the journal: 3 on a three-server NATS cluster, 1 on one server. */
  JOURNAL_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /**
   * Leader and hot standby (issue 25): engine nodes sharing one JetStream journal hold a lease
   * in this JetStream key-value bucket; the holder serves, the others follow the stream and take
   * over when the lease lapses. Needs JOURNAL=jetstream and DATABASE_URL.
   */
  LEADER_LEASE_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be letters, digits, _ or -")
    .optional(),
  /**
   * NATS subject prefix of the cluster's command path and fan-out (issue 25): the leader answers
   * forwarded commands on `<prefix>.commands` and publishes applied records on
   * `<prefix>.applied`; every node tells the others of session revocations and mode switches
   * on `<prefix>.sessions`. One prefix per deployment; used with LEADER_LEASE_BUCKET.
   */
  CLUSTER_SUBJECTS: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,3}$/, "must be NATS subject tokens")
    .default("candor"),
  /**
   * What this process runs (issue 25): `all` (the default: kernel, journal, projector, market
   * clock, HTTP and WebSocket) or `api` (HTTP and WebSocket on a follower kernel of the
   * JetStream journal; commands are forwarded to the leader on CLUSTER_SUBJECTS). `api` needs
   * JOURNAL=jetstream and DATABASE_URL.
   */
  ROLE: z.enum(["all", "api"]).default("all"),
  /** How long a leader's lease lives without renewal, in ms: about the failover time. */
  LEADER_LEASE_TTL_MS: z.coerce.number().int().min(500).max(60_000).default(3_000),
  /** This node's name in the lease and logs (default: host name and process id). */
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be letters, digits, _, . or -")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** A kernel snapshot is written after every this many journal records. */
  SNAPSHOT_EVERY: z.coerce.number().int().min(0).default(10_000),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).optional(),
  OPERATOR_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+$/, "must be an origin like https://trade.example.com")
    .optional(),
  PASSWORD_COST: z.coerce.number().int().min(10).max(20).default(17),
  CAPTCHA: z.enum(["required", "off"]).default("required"),
  /** Proof-of-work captcha cost: the largest secret number a client may have to try. */
  CAPTCHA_COST: z.coerce.number().int().min(1_000).max(100_000_000).default(250_000),
  /** Publish a proof of liabilities every this many ms (default hourly; 0 = on request only). */
  PROOF_INTERVAL_MS: z.coerce.number().int().min(0).max(604_800_000).default(3_600_000),
  /** Seed of the price simulator: the same seed gives the same simulated history. */
  MARKET_SEED: z.coerce.number().int().min(0).max(4_294_967_295).default(20_261_123),
  /** Days of simulated history written on the first start. */
  MARKET_BACKFILL_DAYS: z.coerce.number().int().min(1).max(90).default(30),
  /** Time between two simulated ticks of one open instrument, in ms. */
  MARKET_TICK_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /**
   * Tests only: a violent simulated tape for one instrument, `INSTRUMENT:jumpsPerDay:jumpBpsMax`
   * (e.g. `ETHUSDT:17280:200`, a jump of up to 2 % either way every 5 s on average). The
   * simulator stays seeded and every tick is journaled on the public tape like any other; it
   * only lets a browser test see a crash liquidate a position without waiting for one.
   */
  MARKET_TEST_JUMPS: z
    .string()
    .regex(/^[A-Z0-9.]{1,20}:\d{1,6}:\d{1,4}$/, "must be INSTRUMENT:jumpsPerDay:jumpBpsMax")
    .optional(),
  /** Comma-separated instrument ids priced from Binance's public stream (e.g. BTCUSDT,ETHUSDT). */
  MARKET_BINANCE_INSTRUMENTS: z
    .string()
    .regex(/^[A-Z0-9]+(,[A-Z0-9]+)*$/, "must be instrument ids separated by commas")
    .optional(),
  /** "false" switches perpetual contracts off for this deployment. */
  PERP_ENABLED: z.enum(["true", "false"]).default("true"),
  /** "false" switches savings plans and mining products off for this deployment. */
  SAVINGS_ENABLED: z.enum(["true", "false"]).default("true"),
  /**
   * Products not offered to residents of some countries: `product:CC,CC;product:CC` with
   * products perp, seconds, stocks, savings, loans and ISO 3166-1 alpha-2 codes, e.g.
   * `perp:US,GB;seconds:US`. Opening is refused (closing, selling, repaying and redeeming are
   * not), and a blocked product needs the user to have chosen a country. Default: none.
   */
  COUNTRY_PRODUCT_BLOCKS: z
    .string()
    .regex(
      /^(perp|seconds|stocks|savings|loans):[A-Z]{2}(,[A-Z]{2})*(;(perp|seconds|stocks|savings|loans):[A-Z]{2}(,[A-Z]{2})*)*$/,
      "must be product:CC,CC entries separated by semicolons",
    )
    .optional(),
  /** "false" switches seconds contracts off for this deployment. */
  /**
   * Development and browser tests only: `always-open` treats the stock exchanges as open at any
   * hour (the simulator ticks them and orders are taken), so a stock trade can be tried at
   * night. Production keeps `calendar` (the exchanges' sessions and holidays).
   */
  STOCK_SESSIONS: z.enum(["calendar", "always-open"]).default("calendar"),
  SECONDS_ENABLED: z.enum(["true", "false"]).default("true"),
  /** Development only: whole USDT credited once to the real house, journaled as a deposit. */
  SECONDS_HOUSE_DEV_FUNDING: z
    .string()
    .regex(/^[1-9]\d{0,11}$/, "must be a whole number of USDT")
    .optional(),
  /** How long a new or changed withdrawal address waits before it can be used, ms (24 h). */
  WITHDRAW_ADDRESS_LOCK_MS: z.coerce.number().int().min(0).max(2_592_000_000).default(86_400_000),
  /**
   * Withdrawal minimum and fee per asset and network: `ASSET:network:minimum:fee`, separated
   * by commas (default `USDT:ethereum:20:5,USDT:bsc:10:1,USDT:cronos:10:1`).
   */
  WITHDRAW_TERMS: z
    .string()
    .regex(
      /^[A-Z0-9]{1,16}:(ethereum|bsc|cronos):\d{1,18}(\.\d{1,18})?:\d{1,18}(\.\d{1,18})?(,[A-Z0-9]{1,16}:(ethereum|bsc|cronos):\d{1,18}(\.\d{1,18})?:\d{1,18}(\.\d{1,18})?)*$/,
      "must be ASSET:network:minimum:fee entries separated by commas",
    )
    .optional(),
  /**
   * Withdrawals to a bound bank card (paid from the fiat wallet): minimum and fee per asset,
   * `ASSET:minimum:fee` separated by commas (default `USDT:10:1`).
   */
  WITHDRAW_BANK_TERMS: z
    .string()
    .regex(
      /^[A-Z0-9]{1,16}:\d{1,18}(\.\d{1,18})?:\d{1,18}(\.\d{1,18})?(,[A-Z0-9]{1,16}:\d{1,18}(\.\d{1,18})?:\d{1,18}(\.\d{1,18})?)*$/,
      "must be ASSET:minimum:fee entries separated by commas",
    )
    .optional(),
  /** Amount per asset above which two different operators approve: `USDT:10000,BTC:1`. */
  WITHDRAW_TWO_APPROVALS_ABOVE: z
    .string()
    .regex(
      /^[A-Z0-9]{1,16}:\d{1,18}(\.\d{1,18})?(,[A-Z0-9]{1,16}:\d{1,18}(\.\d{1,18})?)*$/,
      "must be ASSET:amount entries separated by commas",
    )
    .optional(),
  /**
   * Manual adjustments (operator deposits to a user, issue 17): per asset, the amount above
   * which a second, different named operator must approve before anything is credited:
   * `USDT:10000,BTC:0.5` (default `USDT:10000`; `none` turns the rule off).
   */
  ADJUSTMENT_TWO_APPROVALS_ABOVE: z
    .string()
    .regex(
      /^(none|[A-Z0-9]{1,16}:\d{1,18}(\.\d{1,18})?(,[A-Z0-9]{1,16}:\d{1,18}(\.\d{1,18})?)*)$/,
      "must be ASSET:amount entries separated by commas, or none",
    )
    .default("USDT:10000"),
  /**
   * The identity tier a user must have passed to request a withdrawal: `none` (default),
   * `basic` or `advanced` (issue 17).
   */
  WITHDRAW_REQUIRES_IDENTITY: z.enum(["none", "basic", "advanced"]).default("none"),
  /**
   * Per asset, the withdrawal amount above which the advanced identity tier must have passed:
   * `USDT:5000,BTC:0.1` (default `none`); at or below it WITHDRAW_REQUIRES_IDENTITY applies.
   */
  WITHDRAW_ADVANCED_ABOVE: z
    .string()
    .regex(
      /^(none|[A-Z0-9]{1,16}:\d{1,18}(\.\d{1,18})?(,[A-Z0-9]{1,16}:\d{1,18}(\.\d{1,18})?)*)$/,
      "must be ASSET:amount entries separated by commas, or none",
    )
    .default("none"),
  /** Folder of uploaded images (default DATA_DIR/uploads); must not be inside the web root. */
  UPLOADS_DIR: z.string().min(1).optional(),
  /** Largest upload in bytes (default 5 MiB). */
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1_024).max(52_428_800).default(5_242_880),
  /** Most pixels (width × height) an uploaded image may have (default 40 million). */
  UPLOAD_MAX_PIXELS: z.coerce.number().int().min(10_000).max(268_402_689).default(40_000_000),
  /** Assets a bank transfer can be credited in, comma-separated (default USDT). */
  BANK_DEPOSIT_ASSETS: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/, "must be asset ids separated by commas")
    .default("USDT"),
  /** The operator's bank account users transfer to; bank deposits are off while it is unset. */
  BANK_ACCOUNT_NUMBER: z.string().min(1).max(100).optional(),
  BANK_ACCOUNT_NAME: z.string().min(1).max(200).optional(),
  BANK_NAME: z.string().min(1).max(200).optional(),
  /** SWIFT/BIC, sort code or routing number. */
  BANK_CODE: z.string().min(1).max(100).optional(),
  /** What users should write in the transfer's reference, or any other instruction. */
  BANK_DEPOSIT_NOTE: z.string().min(1).max(500).optional(),
  /**
   * Crypto deposits and on-chain withdrawals: "off" (default), "local" (an in-process test chain
   * with a valueless test token, for development and demos: never in production) or "rpc"
   * (a node at CHAIN_RPC_URL, deposit addresses from CHAIN_XPUB).
   */
  CHAIN_MODE: z.enum(["off", "local", "rpc"]).default("off"),
  CHAIN_RPC_URL: z
    .string()
    .regex(/^https?:\/\//, "must start with http:// or https://")
    .optional(),
  CHAIN_ID: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  CHAIN_NETWORK: z.enum(["ethereum", "bsc", "cronos"]).default("ethereum"),
  /** The USDT contract on the chain (rpc mode). */
  CHAIN_TOKEN: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be an 0x address")
    .optional(),
  CHAIN_TOKEN_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
  /** The operator's extended public key (xpub…); never a private key (rpc mode). */
  CHAIN_XPUB: z
    .string()
    .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/, "must be an xpub")
    .optional(),
  /** Blocks before a deposit is credited or a withdrawal completed (default 12; local 3). */
  CHAIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(10_000).optional(),
  /** Smallest deposit credited, whole units (default 10). */
  CHAIN_DEPOSIT_MINIMUM: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,18})?$/)
    .default("10"),
  CHAIN_POLL_MS: z.coerce.number().int().min(0).max(3_600_000).default(4_000),
  BINANCE_STREAM_URL: z
    .string()
    .regex(/^wss?:\/\//, "must start with ws:// or wss://")
    .default("wss://stream.binance.com:9443"),
});

/** Server configuration, read from the environment at start-up. */
export type Config = z.infer<typeof ConfigSchema>;

/** Thrown for bad configuration; its message is one line naming the variable and the problem. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export function readConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set", as it does in most shells and .env files.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = ConfigSchema.safeParse(present);
  if (parsed.success) {
    const config = parsed.data;
    // Two engine nodes share one journal only through JetStream, and their read models and
    // sessions only through PostgreSQL.
    if (config.LEADER_LEASE_BUCKET && (config.JOURNAL !== "jetstream" || !config.DATABASE_URL)) {
      throw new ConfigError(
        `LEADER_LEASE_BUCKET=${JSON.stringify(config.LEADER_LEASE_BUCKET)} is invalid: needs JOURNAL=jetstream and DATABASE_URL`,
      );
    }
    // An API node follows the JetStream journal and shares sessions through PostgreSQL.
    if (config.ROLE === "api" && (config.JOURNAL !== "jetstream" || !config.DATABASE_URL)) {
      throw new ConfigError(`ROLE="api" is invalid: needs JOURNAL=jetstream and DATABASE_URL`);
    }
    return config;
  }
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0]);
  throw new ConfigError(`${name}=${JSON.stringify(env[name] ?? "")} is invalid: ${issue.message}`);
}
