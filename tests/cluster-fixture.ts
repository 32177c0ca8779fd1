import { randomBytes } from "node:crypto";
import { connect } from "nats";
import { WebSocket } from "ws";
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

/** A message a WebSocket client received: its `type`, `data` and whatever else it carries. */
export type WsMessage = { type: string; data: unknown; [field: string]: unknown };

/**
 * A real `ws` client on `baseUrl`'s `/api/v1/ws`, subscribed to `channels` (with a session
 * token for private ones); collects every message it receives, and whether (and with which
 * close code) it was closed. It
 * pings every 10 s, as the protocol asks (the hub closes a connection silent for 60 s).
 */
export async function wsClient(baseUrl: string, channels: unknown[], token?: string) {
  const socket = new WebSocket(`${baseUrl.replace("http", "ws")}/api/v1/ws`, {
    headers: token ? { authorization: `Bearer ${token}`, origin: baseUrl } : {},
  });
  const messages: WsMessage[] = [];
  const state: { closed: boolean; closeCode?: number } = { closed: false };
  const pinger = setInterval(
    () => socket.send(JSON.stringify({ op: "ping", timeMs: Date.now() })),
    10_000,
  ).unref();
  socket.once("close", (code: number) => {
    state.closed = true;
    state.closeCode = code;
    clearInterval(pinger);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const subscribed = new Promise<void>((resolve) =>
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString()) as WsMessage;
      if (message.type === "subscribed") resolve();
      messages.push(message);
    }),
  );
  socket.send(JSON.stringify({ op: "subscribe", channels }));
  await subscribed;
  return {
    socket,
    messages,
    get closed() {
      return state.closed;
    },
    /** The close code the server sent (undefined while open). */
    get closeCode() {
      return state.closeCode;
    },
  };
}

/** A public trade as the WebSocket `trades` channel sends it. */
export interface TradeMessage {
  id: string;
  price: string;
  quantity: string;
  atMs: number;
}

/** A WebSocket client subscribed to an instrument's public trades. */
export async function tradesClient(baseUrl: string, instrumentId: string) {
  const client = await wsClient(baseUrl, [{ channel: "trades", instrumentId }]);
  return {
    socket: client.socket,
    messages: client.messages,
    get closed() {
      return client.closed;
    },
    get trades(): TradeMessage[] {
      return client.messages.filter((m) => m.type === "trade").map((m) => m.data as TradeMessage);
    },
    /** Each trade's id with its `sequence` and `previousSequence` links (`WsTrade`). */
    get links(): { id: string; sequence: number; previousSequence: number | null }[] {
      return client.messages
        .filter((m) => m.type === "trade")
        .map((m) => ({
          id: (m.data as TradeMessage).id,
          sequence: m.sequence as number,
          previousSequence: m.previousSequence as number | null,
        }));
    },
  };
}
