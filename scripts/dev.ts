// Development: the API server restarting on change, and Vite's dev server proxying /api to it.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const children = [
  spawn(process.execPath, ["--import", "tsx", "--watch", "apps/server/src/main.ts"], {
    cwd: root,
    stdio: "inherit",
    // The browser is at Vite's origin, not the API's: wallet sign-in must name that one.
    // Development only: the real house gets play money once, so real-mode seconds contracts
    // can be tried locally (a journaled deposit; production funds it by operator deposit).
    env: {
      PUBLIC_URL: "http://localhost:5173",
      SECONDS_HOUSE_DEV_FUNDING: "100000",
      // Crypto deposits and payouts on the in-process test chain (valueless tokens).
      CHAIN_MODE: "local",
      ...process.env,
    },
  }),
  spawn(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "apps/web"], {
    cwd: root,
    stdio: "inherit",
  }),
];
const stop = () => children.forEach((child) => child.kill("SIGINT"));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
