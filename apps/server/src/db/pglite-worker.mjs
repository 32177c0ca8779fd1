// The embedded database in a worker thread (`openDatabase({ kind: "pglite", worker: true })`):
// PGlite runs PostgreSQL compiled to WASM on the thread that calls it, so on the main thread
// every read-model write competed with HTTP requests and the kernel for the same core. Here it
// has a thread of its own; the main thread sends statements and gets rows back (structured
// clone keeps bigint, Date and Uint8Array).
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

// Plain JavaScript: a worker thread does not get the TypeScript loader of the main thread.
// The messages are typed in database.ts (PgliteRequest, PgliteResponse).

const INT8_OID = 20;
const port = parentPort;
const { dataDir, initOnly } = workerData;
const client = await PGlite.create({
  dataDir,
  parsers: { [INT8_OID]: (text) => BigInt(text) },
  // PostgreSQL's default 128 MB of shared buffers grows the WASM memory by ~60 MB past its
  // floor; the read models' working set is far smaller (issue 15: idle RSS). Written into the
  // folder's postgresql.conf once (PGlite replaces the line, it does not append).
  postgresqlconf: ["shared_buffers = 16MB"],
});

// `initOnly`: an empty folder is initialised (`initdb`) by a worker of its own, which then
// exits. `initdb` leaves ~430 MB of WASM and array buffers in the thread that ran it (a bare
// process: 650–750 MB RSS after `initdb`, ~170 MB after opening an existing folder); in the
// server's worker they were freed only at some later collection, so the first minute after a
// first start peaked that much higher. Ending the thread returns them at once; the database
// is then opened by a fresh worker (~0.7 s; issue 15, docs/benchmarks.md).
if (initOnly) {
  await client.close();
  port.postMessage({ ready: true });
  process.exit(0);
}

port.on("message", (request) => {
  void answer(request).then((response) => port.postMessage(response));
});
port.postMessage({ ready: true });

/** @param {{ id: number, kind: "query" | "exec" | "batch" | "close", sql?: string, parameters?: unknown[], statements?: { sql: string, parameters: unknown[] }[] }} request */
async function answer(request) {
  try {
    switch (request.kind) {
      case "query": {
        const result = await client.query(request.sql, request.parameters);
        return { id: request.id, rows: result.rows, affectedRows: result.affectedRows ?? 0 };
      }
      case "exec":
        await client.exec(request.sql);
        return { id: request.id, rows: [], affectedRows: 0 };
      case "batch":
        // One transaction, all or none; one message for the whole batch (database.ts).
        await client.transaction(async (transaction) => {
          for (const statement of request.statements) {
            await transaction.query(statement.sql, statement.parameters);
          }
        });
        return { id: request.id, rows: [], affectedRows: 0 };
      case "close":
        await client.close();
        return { id: request.id, rows: [], affectedRows: 0 };
    }
  } catch (error) {
    // PostgreSQL errors carry code, detail, constraint…: send every field, not only the message.
    const fields = { message: String(error) };
    if (error instanceof Error) {
      for (const [key, value] of Object.entries(error)) {
        if (value === null || ["string", "number", "boolean"].includes(typeof value)) {
          fields[key] = value;
        }
      }
      fields.message = error.message;
      fields.name = error.name;
    }
    return { id: request.id, error: fields };
  }
}
