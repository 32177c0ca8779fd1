import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "./config.ts";

describe("readConfig", () => {
  it("uses the documented defaults", () => {
    expect(readConfig({})).toEqual({
      PORT: 8080,
      HOST: "127.0.0.1",
      DATA_DIR: "./data",
      LOG_LEVEL: "info",
      SNAPSHOT_EVERY: 10_000,
    });
  });

  it("treats empty variables as unset", () => {
    expect(readConfig({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: "70000" }, /^PORT="70000" is invalid/],
    [{ PORT: "abc" }, /^PORT="abc" is invalid/],
    [
      { DATABASE_URL: "mysql://x" },
      /^DATABASE_URL="mysql:\/\/x" is invalid: must start with postgres/,
    ],
    [{ LOG_LEVEL: "loud" }, /^LOG_LEVEL="loud" is invalid/],
  ])("rejects %o with one line naming the variable", (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });
});
