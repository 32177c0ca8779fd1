import { randomBytes } from "node:crypto";
import { connect } from "nats";
import { dropSchema } from "../apps/server/src/testing/databases.ts";
import { removeDataDir, type ServerProcess } from "./harness.ts";

/**
 * What a cluster test (issue 25) owns on the machine's PostgreSQL and NATS: a schema, a
 * JetStream journal stream, a lease bucket and a subject prefix, unique per run so parallel
 * runs never meet, and the server processes it started. `tearDown` kills what still runs and
 * deletes all of it.
 */
export function clusterFixture(name: string) {
  const suffix = randomBytes(6).toString("hex");
  const upper = name.toUpperCase();
  const names = {
    suffix,
    schema: `${name}_${suffix}`,
    stream: `CANDOR_${upper}_${suffix}`,
    bucket: `CANDOR_${upper}_LEASE_${suffix}`,
    prefix: `candor_${name}_${suffix}`,
  };
  const servers = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const processes: ServerProcess[] = [];
  return {
    ...names,
    processes,
    /** The settings of an engine node (leader or standby) of this cluster. */
    engineEnv(url: string): Record<string, string> {
      return {
        DATABASE_URL: url,
        DATABASE_SCHEMA: names.schema,
        JOURNAL: "jetstream",
        JOURNAL_STREAM: names.stream,
        LEADER_LEASE_BUCKET: names.bucket,
        LEADER_LEASE_TTL_MS: "2000",
        CLUSTER_SUBJECTS: names.prefix,
        CAPTCHA: "off",
      };
    },
    async tearDown(): Promise<void> {
      for (const server of processes) {
        // A killed process has a signal code and no exit code: `stop` would wait for it forever.
        const { exitCode, signalCode } = server.process;
        if (exitCode === null && signalCode === null) await server.stop("SIGKILL");
        removeDataDir(server.dataDir);
      }
      await dropSchema(names.schema);
      const connection = await connect({ servers });
      const manager = await connection.jetstreamManager();
      await manager.streams.delete(names.stream).catch(() => false);
      await manager.streams.delete(`KV_${names.bucket}`).catch(() => false);
      await connection.close();
    },
  };
}
