import { spawn, execSync, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { startCommand } from "../scripts/start-command.ts";

const root = path.resolve(import.meta.dirname, "..");

/** A Candor server process started by a test, on a free port. */
export interface ServerProcess {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** Sends a signal and resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; elapsedMs: number }>;
}

/**
 * Starts `apps/server/src/main.ts` as its own process through tsx (or, with `bundle`, the
 * build's `apps/server/dist/main.mjs`, exactly as `npm start` does) and waits for the line
 * that prints its URL.
 */
export async function startServer(
  options: {
    dataDir?: string;
    env?: Record<string, string>;
    startTimeoutMs?: number;
    bundle?: boolean;
    /**
     * A hot standby engine node (issue 25, LEADER_LEASE_BUCKET): resolves once it follows the
     * leader, with the URL it will serve on after taking over (503 until then).
     */
    standby?: boolean;
    /** Also appends everything the process prints to this file (a server shared by files). */
    logFile?: string;
    /** Runs the process inside this network namespace (`ip netns exec`; needs root). */
    netns?: string;
  } = {},
): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "candor-test-"));
  // The server ends with this process even if the test never stops it (exit-with-parent.mjs).
  const preload = ["--import", pathToFileURL(path.join(root, "tests/exit-with-parent.mjs")).href];
  const entry = options.bundle
    ? [...preload, ...startCommand().flags, "--enable-source-maps", "apps/server/dist/main.mjs"]
    : [...preload, "--import", "tsx", "apps/server/src/main.ts"];
  // `ip netns exec` enters the namespace and then execs node: the child's pid is node's.
  const [command, ...args] = options.netns
    ? ["ip", "netns", "exec", options.netns, process.execPath, ...entry]
    : [process.execPath, ...entry];
  const child = spawn(command!, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      // A day of simulated market history, not 30: the first start stays well inside the timeout.
      MARKET_BACKFILL_DAYS: "1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    if (options.logFile) appendFileSync(options.logFile, chunk);
  };
  child.stdout.on("data", record);
  child.stderr.on("data", record);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${output}`)),
      // Generous: a start under a loaded CI host (tsx compiling the sources) took over 60 s.
      options.startTimeoutMs ?? 120_000,
    );
    const onData = () => {
      const match = options.standby
        ? /Engine node: standby/.test(output) && /starting at (http:\/\/[^\s]+?)\/?\s/.exec(output)
        : /running at (http:\/\/[^\s]+?)\/?\s/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    stop(signal = "SIGINT") {
      if (child.exitCode !== null) return Promise.resolve({ code: child.exitCode, elapsedMs: 0 });
      const startedMs = Date.now();
      return new Promise((resolve) => {
        child.once("exit", (code) => resolve({ code, elapsedMs: Date.now() - startedMs }));
        child.kill(signal);
      });
    },
  };
}

export function removeDataDir(dataDir: string) {
  rmSync(dataDir, { recursive: true, force: true });
}

/** Debian font packages for the scripts of the 12 locales beyond Latin and Cyrillic. */
export const fontPackages = ["fonts-noto-cjk", "fonts-thai-tlwg"] as const;

/** The font packages that are not installed (dpkg's view); empty where dpkg is absent. */
export function missingFontPackages(): string[] {
  return fontPackages.filter((name) => {
    try {
      const status = execSync(`dpkg-query -W -f='\${Status}' ${name}`, {
        stdio: ["ignore", "pipe", "ignore"],
      }).toString();
      return !status.includes("ok installed");
    } catch (error) {
      // dpkg-query exits 1 for an unknown package, and is missing off Debian (nothing to do).
      return (error as { status?: number }).status === 1;
    }
  });
}

/**
 * Installs the CJK and Thai fonts as root (like Chromium below), so screenshots in jp, kr,
 * zh-Hant and th show real text; says what to install otherwise. Never downloads anything else.
 */
export function ensureFonts(): void {
  const missing = missingFontPackages();
  if (missing.length === 0) return;
  if (process.getuid?.() === 0) {
    execSync(
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")}`,
      { stdio: "inherit" },
    );
    return;
  }
  console.warn(
    `Fonts missing for CJK/Thai screenshots: sudo apt-get install -y ${missing.join(" ")}`,
  );
}

/** Finds Chromium, installing Debian's package when running as root; never downloads a browser. */
export function chromiumPath(): string {
  const candidate = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(candidate)) return candidate;
  if (process.getuid?.() === 0 && !process.env.CHROMIUM_PATH) {
    execSync(
      "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium",
      {
        stdio: "inherit",
      },
    );
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    `Chromium not found at ${candidate}. Install it with "sudo apt-get install -y chromium" ` +
      `or set CHROMIUM_PATH to a Chromium binary.`,
  );
}

export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launchBrowser(): Promise<Browser> {
  ensureFonts();
  return chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
}

/**
 * Chromium with a real (non-incognito) profile in `userDataDir`: what Chromium's installability
 * check needs, since it refuses to install apps from incognito contexts.
 */
export function launchPersistentBrowser(userDataDir: string): Promise<BrowserContext> {
  ensureFonts();
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    args: chromiumArgs,
    viewport: mobileViewport,
  });
}

/** The phone the app is designed for first. */
export const mobileViewport = { width: 390, height: 844 };

export const artifactsDir = path.join(root, "test-results");
