import { randomBytes } from "node:crypto";
import { afterAll, describe, it } from "vitest";
import { dropSchema } from "../apps/server/src/testing/databases.ts";
import { kills, runCrashTest } from "./crash.ts";

// The same crash test with the journal in PostgreSQL, in a schema of its own dropped afterwards.
const url = process.env.DATABASE_URL;
const schema = `crash_${randomBytes(6).toString("hex")}`;

describe.skipIf(!url)("crash recovery [postgres]", () => {
  afterAll(() => dropSchema(schema));
  it(
    `bank workload across ${kills} SIGKILLs: deposits and orders exactly once, assets conserved, statements = ledger = tape, rebuilt read models agree (PostgreSQL journal)`,
    () => runCrashTest({ kind: "postgres", url: url!, schema }),
    900_000,
  );
});
