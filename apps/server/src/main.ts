import { ConfigError, readConfig, type Config } from "./config.ts";
import { listenWhileStarting } from "./http/starting-server.ts";

// The port opens first: until the database is open, the journal replayed and the app built,
// every request is answered 503 with Retry-After (a refused connection tells a client
// nothing). So this file imports only the configuration and the starting server; the rest of
// the server is loaded after it listens (`serve.ts`).
async function main() {
  let config: Config;
  try {
    config = readConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`candor: configuration error: ${error.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const starting = await listenWhileStarting({ port: config.PORT, host: config.HOST });
  console.log(
    `Candor is starting at ${starting.url.replace("[::1]", "localhost")}/ (503 until ready)`,
  );
  // The database opens (PGlite on a worker thread) while the rest of the server loads.
  const { openStore } = await import("./open-store.ts");
  const store = openStore(config);
  store.catch(() => undefined); // awaited (and thrown) in serve()
  const { serve } = await import("./serve.ts");
  await serve(config, starting, store);
}

await main();
