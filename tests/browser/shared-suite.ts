import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium, type Browser } from "playwright-core";
import { inject } from "vitest";
import type { SharedSuite } from "./global-setup.ts";

/** The server and Chromium that global-setup.ts started for the browser files to share. */
export interface SharedServer {
  url: string;
  /** What the shared server printed so far (all files' requests). */
  output(): string;
}

/**
 * Waits for the shared server and Chromium (they start in the background with the run) and
 * connects to that Chromium. `browser.close()` only disconnects this file.
 */
export async function connectSharedSuite(): Promise<{ server: SharedServer; browser: Browser }> {
  const file = inject("sharedSuiteFile");
  const deadline = Date.now() + 175_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the shared browser-test server did not start`);
    await sleep(200);
  }
  const suite = JSON.parse(readFileSync(file, "utf8")) as SharedSuite;
  const output = () => readFileSync(suite.logFile, "utf8");
  if (suite.error || !suite.url || !suite.browserWsEndpoint) {
    throw new Error(`the shared browser-test server did not start: ${suite.error}\n${output()}`);
  }
  const browser = await chromium.connect(suite.browserWsEndpoint);
  return { server: { url: suite.url, output }, browser };
}
