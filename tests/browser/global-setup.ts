import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import {
  chromiumArgs,
  chromiumPath,
  ensureFonts,
  removeDataDir,
  startServer,
  type ServerProcess,
} from "../harness.ts";
import { sharedEnv } from "./suite-env.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the shared server and Chromium are described once started (shared-suite.ts). */
    sharedSuiteFile: string;
  }
}

/** What `sharedSuiteFile` holds: the shared server and Chromium, or why they did not start. */
export interface SharedSuite {
  url?: string;
  browserWsEndpoint?: string;
  logFile: string;
  error?: string;
}

/**
 * One Candor server (the trading suite's settings) and one Chromium for the browser files
 * that need nothing of their own (`useSharedTradingSuite`), instead of a server start and a
 * Chromium launch in every such file. Both start in the background, so the unit files start
 * at once; the files wait for `sharedSuiteFile` (tests/browser/shared-suite.ts). Each file
 * uses only users of its own and a fresh browser context per test.
 */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "candor-shared-suite-"));
  const file = path.join(dir, "suite.json");
  const logFile = path.join(dir, "server.log");
  writeFileSync(logFile, "");
  project.provide("sharedSuiteFile", file);

  // Written whole, then renamed: a file waiting for it never reads half of it.
  const publish = (suite: SharedSuite) => {
    writeFileSync(`${file}.part`, JSON.stringify(suite));
    renameSync(`${file}.part`, file);
  };
  let server: ServerProcess | undefined;
  let browser: BrowserServer | undefined;
  const started = (async () => {
    ensureFonts();
    [server, browser] = await Promise.all([
      startServer({ env: sharedEnv, startTimeoutMs: 170_000, logFile }),
      chromium.launchServer({
        executablePath: chromiumPath(),
        args: chromiumArgs,
        host: "127.0.0.1",
        wsPath: `/candor-${randomBytes(12).toString("hex")}`,
      }),
    ]);
    publish({ url: server.url, browserWsEndpoint: browser.wsEndpoint(), logFile });
  })().catch((error: unknown) => publish({ logFile, error: String(error) }));

  return async () => {
    await started;
    await browser?.close();
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  };
}
