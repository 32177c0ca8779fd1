import { it } from "vitest";
import { kills, runCrashTest } from "./crash.ts";

it(
  `bank workload across ${kills} SIGKILLs: deposits and orders exactly once, assets conserved, statements = ledger = tape, rebuilt read models agree (file journal)`,
  () => runCrashTest({ kind: "file" }),
  900_000,
);
