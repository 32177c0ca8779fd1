import { it } from "vitest";
import { kills, runCrashTest } from "./crash.ts";

it(
  `keeps every acknowledged deposit exactly once across ${kills} SIGKILLs (file journal)`,
  () => runCrashTest({ kind: "file" }),
  900_000,
);
