import path from "node:path";
import type { Command, CommandResult, Event, KernelState } from "@candor/kernel";
import type { Database } from "../db/database.ts";
import { openFileJournal } from "../journal/file-journal.ts";
import type { JournalLogger } from "../journal/journal.ts";
import { openPgJournal } from "../journal/pg-journal.ts";
import { fileSnapshotStore, pgSnapshotStore } from "../journal/snapshot-store.ts";
import { ReadModelProjector } from "../read-models/projector.ts";
import { Engine } from "./engine.ts";
import { kernelPort, type CandorEngine } from "./kernel-port.ts";

export interface OpenEngineOptions {
  /** The server's database: the journal lives in it when it is PostgreSQL. */
  database: Database;
  /** Folder of the file journal and snapshots (`DATA_DIR`), used when the database is PGlite. */
  dataDir: string;
  logger: JournalLogger;
  /** Called once on a journal or kernel failure: the process must exit. */
  onFatal: (error: unknown) => void;
  /** The journal on a JetStream stream instead of the database or DATA_DIR (issue 25). */
  jetStream?: { servers: string; stream: string; replicas: number };
  /**
   * Leader and hot standby on the JetStream journal (issue 25): the engine starts as leader or
   * as a standby that follows the stream; `leading` resolves when it leads.
   */
  lease?: { bucket: string; ttlMs: number; nodeId: string; replicas: number };
  now?: () => number;
  snapshotEvery?: number;
  clockTickMs?: number;
}

/** The running engine with its journal and read-model projector. */
export interface RunningEngine {
  engine: CandorEngine;
  projector: ReadModelProjector;
  /**
   * Resolves once this engine accepts submits (at once without a lease), with the sequence and
   * state hash it took over at.
   */
  leading: Promise<{ sequence: bigint; stateHash: string }>;
  close(): Promise<void>;
}

/**
 * Opens the journal (a JetStream stream when configured; else PostgreSQL when the server runs
 * on PostgreSQL, else segment files under `DATA_DIR/journal`), restores the kernel (snapshot + replay) and attaches the read-model
 * projector. Assets and markets are declared by the market module from its catalogue.
 */
export async function openEngine(options: OpenEngineOptions): Promise<RunningEngine> {
  const { database, logger, onFatal } = options;
  const onPostgres = database.kind === "postgres";
  if (options.lease && options.jetStream)
    return openEngineNode(options, options.jetStream, options.lease);
  const journal = options.jetStream
    ? // Loaded only when configured: the NATS client is not part of a single-process start.
      await (
        await import("../journal/jetstream-journal.ts")
      ).openJetStreamJournal({ ...options.jetStream, onFatal, logger })
    : onPostgres
      ? await openPgJournal({ database, onFatal, logger })
      : await openFileJournal({
          directory: path.join(options.dataDir, "journal"),
          onFatal,
          logger,
        });
  const snapshots = onPostgres
    ? pgSnapshotStore({ database, logger })
    : fileSnapshotStore({ directory: path.join(options.dataDir, "snapshots"), logger });
  const engine: CandorEngine = new Engine({
    kernel: kernelPort,
    journal,
    snapshots,
    now: options.now,
    logger,
    snapshotEvery: options.snapshotEvery,
    clockTickMs: options.clockTickMs,
    onFatal,
  });
  const projector = new ReadModelProjector(database, { logger });
  const cursor = await projector.load();
  engine.subscribe((applied) => projector.handle(applied));
  await engine.start({ eventsFrom: cursor + 1n });
  return {
    engine,
    projector,
    leading: Promise.resolve({ sequence: engine.sequence, stateHash: engine.stateHash() }),
    async close() {
      await engine.stop();
      await projector.flush();
    },
  };
}

/** An engine node with a lease: leader or hot standby (issue 25, `cluster/engine-node.ts`). */
async function openEngineNode(
  options: OpenEngineOptions,
  jetStream: NonNullable<OpenEngineOptions["jetStream"]>,
  lease: NonNullable<OpenEngineOptions["lease"]>,
): Promise<RunningEngine> {
  const { database, logger } = options;
  const { startEngineNode } = await import("../cluster/engine-node.ts");
  const projector = new ReadModelProjector(database, { logger });
  const node = await startEngineNode<KernelState, Command, CommandResult, Event>({
    nodeId: lease.nodeId,
    kernel: kernelPort,
    snapshots:
      database.kind === "postgres"
        ? pgSnapshotStore({ database, logger })
        : fileSnapshotStore({ directory: path.join(options.dataDir, "snapshots"), logger }),
    jetStream,
    lease: { bucket: lease.bucket, ttlMs: lease.ttlMs, replicas: lease.replicas },
    projector,
    logger,
    onFatal: options.onFatal,
    now: options.now,
    snapshotEvery: options.snapshotEvery,
    clockTickMs: options.clockTickMs,
  });
  return {
    engine: node.engine,
    projector,
    leading: node.leading,
    async close() {
      await node.close();
      await projector.flush();
    },
  };
}
