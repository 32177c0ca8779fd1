// What the W6 scripts share (http-bench.ts, projector-cpu.ts): a migrated database, an engine
// whose projector batches as the server does (50 ms, not as the tests do), the spot markets with
// one BTCUSDT tick, and the app on that engine.
import { instruments } from "@candor/market";
import { buildApp } from "../src/app.ts";
import type { Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrate.ts";
import { accountOpener } from "../src/engine/submit.ts";
import { spotSetupCommands } from "../src/modules/market/spot-markets.ts";
import { startTestEngine } from "../src/modules/spot/spot.testing.ts";

export async function benchApp(database: Database) {
  await migrate(database);
  const running = await startTestEngine(database, Date.now, { projectorFlushDelayMs: 50 });
  for (const command of spotSetupCommands(instruments)) await running.engine.submit(command);
  await running.engine.submit({
    type: "record_tick",
    id: "bench-tick-1",
    tickId: "bench-1",
    instrumentId: "BTCUSDT",
    price: "30000",
    tickAtMs: Date.now(),
  });
  const app = await buildApp({
    database,
    passwordCost: 10,
    captcha: "off",
    operatorToken: "bench-operator",
    engine: running.engine,
    accounts: accountOpener(running.engine),
  });
  return { running, app };
}
