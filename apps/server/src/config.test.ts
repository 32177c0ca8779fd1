import { parseCountryProductBlocks } from "./http/country-product-gate.ts";
import { defaultWithdrawalConfig } from "./modules/wallet/wallet.withdrawals.ts";
import { withdrawalConfigOf } from "./serve.ts";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "./config.ts";

describe("readConfig", () => {
  it("uses the documented defaults", () => {
    expect(readConfig({})).toEqual({
      ADJUSTMENT_TWO_APPROVALS_ABOVE: "USDT:10000",
      PORT: 8080,
      HOST: "127.0.0.1",
      DATA_DIR: "./data",
      JOURNAL: "local",
      NATS_URL: "nats://127.0.0.1:4222",
      JOURNAL_STREAM: "CANDOR_JOURNAL",
      JOURNAL_REPLICAS: 1,
      LEADER_LEASE_TTL_MS: 3_000,
      CLUSTER_SUBJECTS: "candor",
      ROLE: "all",
      LOG_LEVEL: "info",
      SNAPSHOT_EVERY: 10_000,
      PASSWORD_COST: 17,
      PROOF_INTERVAL_MS: 3_600_000,
      CAPTCHA: "required",
      CAPTCHA_COST: 250_000,
      MARKET_SEED: 20_261_123,
      MARKET_BACKFILL_DAYS: 30,
      MARKET_TICK_INTERVAL_MS: 1_000,
      CHAIN_MODE: "off",
      CHAIN_NETWORK: "ethereum",
      CHAIN_TOKEN_DECIMALS: 6,
      CHAIN_DEPOSIT_MINIMUM: "10",
      CHAIN_POLL_MS: 4_000,
      BINANCE_STREAM_URL: "wss://stream.binance.com:9443",
      PERP_ENABLED: "true",
      SAVINGS_ENABLED: "true",
      STOCK_SESSIONS: "calendar",
      SECONDS_ENABLED: "true",
      WITHDRAW_ADDRESS_LOCK_MS: 86_400_000,
      WITHDRAW_REQUIRES_IDENTITY: "none",
      WITHDRAW_ADVANCED_ABOVE: "none",
      UPLOAD_MAX_BYTES: 5_242_880,
      UPLOAD_MAX_PIXELS: 40_000_000,
      BANK_DEPOSIT_ASSETS: "USDT",
    });
  });

  it("reads WITHDRAW_ADVANCED_ABOVE as ASSET:amount entries or none", () => {
    expect(
      readConfig({ WITHDRAW_ADVANCED_ABOVE: "USDT:5000,BTC:0.1" }).WITHDRAW_ADVANCED_ABOVE,
    ).toBe("USDT:5000,BTC:0.1");
    for (const bad of ["USDT", "USDT:-1", "usdt:5", "USDT:1e3", "USDT:5,"]) {
      expect(() => readConfig({ WITHDRAW_ADVANCED_ABOVE: bad }), bad).toThrow(
        /WITHDRAW_ADVANCED_ABOVE/,
      );
    }
  });

  it("reads the per-country product switches", () => {
    expect(readConfig({}).COUNTRY_PRODUCT_BLOCKS).toBeUndefined();
    const config = readConfig({ COUNTRY_PRODUCT_BLOCKS: "perp:US,GB;seconds:US" });
    expect(parseCountryProductBlocks(config.COUNTRY_PRODUCT_BLOCKS)).toEqual({
      perp: ["US", "GB"],
      seconds: ["US"],
    });
    for (const bad of ["perp:us", "perp", "forex:US", "perp:US;", "perp:USA", "perp:US,,GB"]) {
      expect(() => readConfig({ COUNTRY_PRODUCT_BLOCKS: bad }), bad).toThrow(
        /^COUNTRY_PRODUCT_BLOCKS=.* is invalid/,
      );
    }
  });

  it("reads withdrawal terms and two-approval amounts", () => {
    const config = readConfig({
      WITHDRAW_TERMS: "USDT:ethereum:20:5,USDT:bsc:10.5:0.8,ETH:ethereum:0.01:0.002",
      WITHDRAW_TWO_APPROVALS_ABOVE: "USDT:10000,ETH:5",
    });
    expect(withdrawalConfigOf(config)).toEqual({
      bankTerms: { USDT: { minimum: "10", fee: "1" } },
      terms: {
        USDT: { ethereum: { minimum: "20", fee: "5" }, bsc: { minimum: "10.5", fee: "0.8" } },
        ETH: { ethereum: { minimum: "0.01", fee: "0.002" } },
      },
      twoApprovalsAbove: { USDT: "10000", ETH: "5" },
    });
    expect(withdrawalConfigOf(readConfig({}))).toEqual(defaultWithdrawalConfig);
    expect(() => readConfig({ WITHDRAW_TERMS: "USDT:solana:1:1" })).toThrow(
      /^WITHDRAW_TERMS=.* is invalid/,
    );
    expect(() => readConfig({ WITHDRAW_TWO_APPROVALS_ABOVE: "USDT:-1" })).toThrow(
      /^WITHDRAW_TWO_APPROVALS_ABOVE=.* is invalid/,
    );
  });

  it("reads a leader lease with a JetStream journal on PostgreSQL", () => {
    const config = readConfig({
      LEADER_LEASE_BUCKET: "CANDOR_LEADER",
      JOURNAL: "jetstream",
      DATABASE_URL: "postgres://candor@db/candor",
      NODE_ID: "engine-a",
    });
    expect(config).toMatchObject({
      LEADER_LEASE_BUCKET: "CANDOR_LEADER",
      NODE_ID: "engine-a",
      CLUSTER_SUBJECTS: "candor",
    });
    expect(readConfig({ CLUSTER_SUBJECTS: "acme.candor" }).CLUSTER_SUBJECTS).toBe("acme.candor");
  });

  it("runs everything in one process unless ROLE=api, which needs JetStream and PostgreSQL", () => {
    expect(readConfig({}).ROLE).toBe("all");
    const api = { ROLE: "api", JOURNAL: "jetstream", DATABASE_URL: "postgres://candor@db/candor" };
    expect(readConfig(api).ROLE).toBe("api");
  });

  it("treats empty variables as unset", () => {
    expect(readConfig({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: "70000" }, /^PORT="70000" is invalid/],
    [{ PORT: "abc" }, /^PORT="abc" is invalid/],
    [{ DATABASE_SCHEMA: "Robert'); DROP" }, /^DATABASE_SCHEMA=.* is invalid: must be a lower-case/],
    [
      { DATABASE_URL: "mysql://x" },
      /^DATABASE_URL="mysql:\/\/x" is invalid: must start with postgres/,
    ],
    [{ LOG_LEVEL: "loud" }, /^LOG_LEVEL="loud" is invalid/],
    [{ UPLOAD_MAX_BYTES: "10" }, /^UPLOAD_MAX_BYTES="10" is invalid/],
    [{ BANK_DEPOSIT_ASSETS: "USDT;EUR" }, /^BANK_DEPOSIT_ASSETS="USDT;EUR" is invalid/],
    [{ SMTP_URL: "http://mail" }, /^SMTP_URL="http:\/\/mail" is invalid: must start with smtp/],
    [{ OPERATOR_TOKEN: "short" }, /^OPERATOR_TOKEN="short" is invalid: must be at least 16/],
    [{ PUBLIC_URL: "https://x.example/path" }, /^PUBLIC_URL=.* is invalid: must be an origin/],
    [{ PASSWORD_COST: "30" }, /^PASSWORD_COST="30" is invalid/],
    [{ CAPTCHA: "maybe" }, /^CAPTCHA="maybe" is invalid/],
    [{ CAPTCHA_COST: "10" }, /^CAPTCHA_COST="10" is invalid/],
    [{ LEADER_LEASE_BUCKET: "LEASE" }, /^LEADER_LEASE_BUCKET="LEASE" is invalid: needs JOURNAL=/],
    [
      { LEADER_LEASE_BUCKET: "LEASE", JOURNAL: "jetstream" },
      /^LEADER_LEASE_BUCKET="LEASE" is invalid: needs JOURNAL=jetstream and DATABASE_URL/,
    ],
    [{ LEADER_LEASE_BUCKET: "a.b" }, /^LEADER_LEASE_BUCKET="a.b" is invalid: must be letters/],
    [{ LEADER_LEASE_TTL_MS: "100" }, /^LEADER_LEASE_TTL_MS="100" is invalid/],
    [{ CLUSTER_SUBJECTS: "candor.>" }, /^CLUSTER_SUBJECTS="candor.>" is invalid: must be NATS/],
    [{ CLUSTER_SUBJECTS: "a b" }, /^CLUSTER_SUBJECTS="a b" is invalid/],
    [{ ROLE: "engine" }, /^ROLE="engine" is invalid/],
    [{ ROLE: "api" }, /^ROLE="api" is invalid: needs JOURNAL=jetstream and DATABASE_URL/],
    [
      { ROLE: "api", JOURNAL: "jetstream" },
      /^ROLE="api" is invalid: needs JOURNAL=jetstream and DATABASE_URL/,
    ],
  ])("rejects %o with one line naming the variable", (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });
});
