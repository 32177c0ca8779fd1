import { randomBytes } from "node:crypto";
import { connect, type NatsConnection, type Subscription } from "nats";
import type { SessionBus, SessionChange } from "../modules/auth/sessions.ts";
import { silentLogger, type JournalLogger } from "../journal/journal.ts";

/**
 * Session changes between the nodes of a cluster (issue 25, docs/deploy.md §4), on NATS core
 * publish/subscribe: every node (API nodes and the engine leader) publishes each revocation and
 * mode switch made through it on `<prefix>.sessions`, with its node id, and on a message from
 * another node forgets the session from its cache and, for a revocation, closes the ended
 * session's WebSocket streams (`Sessions`). An operator's sign-out travels the same way
 * (`operator_revoke`, the session's token hash, no user id) and closes that session's
 * support-desk streams on every node (`OperatorAccounts`).
 *
 * NATS core is at-most-once: a message lost while a node is disconnected is not sent again.
 * Nothing is unsafe then, only slower: the node's session cache still ends after
 * `sessionCacheMs` (3 s) and the database refuses the session; its open WebSocket streams
 * stay open until their client reconnects. Payloads are small JSON (no bigints beyond the user
 * id, sent as a decimal string); malformed ones are dropped and logged.
 */

/** The subject session changes travel on, under the cluster's `CLUSTER_SUBJECTS` prefix. */
export function sessionsSubject(prefix: string): string {
  return `${prefix}.sessions`;
}

interface WireMessage {
  nodeId: string;
  kind: "revoke" | "mode" | "operator_revoke";
  /** A user's id; absent for an operator's session. */
  userId?: string;
  tokenHash?: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The wire message's change, or undefined when it is not one (a bug or a stranger). */
function decode(data: Uint8Array): { change: SessionChange; nodeId: string } | undefined {
  let message: Partial<WireMessage>;
  try {
    message = JSON.parse(decoder.decode(data)) as Partial<WireMessage>;
  } catch {
    return undefined;
  }
  if (typeof message !== "object" || message === null) return undefined;
  const { nodeId, kind, userId, tokenHash } = message;
  if (typeof nodeId !== "string") return undefined;
  if (tokenHash !== undefined && typeof tokenHash !== "string") return undefined;
  if (kind === "operator_revoke") {
    // An operator session: no user id, always one session.
    return userId === undefined && tokenHash ? { nodeId, change: { kind, tokenHash } } : undefined;
  }
  if (typeof userId !== "string" || !/^\d{1,20}$/.test(userId)) return undefined;
  if (kind === "revoke") {
    return {
      nodeId,
      change: { kind, userId: BigInt(userId), ...(tokenHash ? { tokenHash } : {}) },
    };
  }
  if (kind === "mode" && tokenHash) {
    return { nodeId, change: { kind, userId: BigInt(userId), tokenHash } };
  }
  return undefined;
}

/** A `SessionBus` on a NATS connection the caller owns (tests; `connectSessionBus` below). */
export function natsSessionBus(options: {
  connection: NatsConnection;
  subject: string;
  /** This node's id (default: random); only compared with the ids in received messages. */
  nodeId?: string;
  logger?: JournalLogger;
}): SessionBus & { stop(): Promise<void> } {
  const { connection, subject } = options;
  const logger = options.logger ?? silentLogger;
  const nodeId = options.nodeId ?? randomBytes(8).toString("hex");
  const listeners = new Set<(change: SessionChange, nodeId: string) => void>();
  const subscription: Subscription = connection.subscribe(subject, {
    callback: (error, message) => {
      if (error) {
        logger.warn({ error: String(error) }, "session bus: subscription error");
        return;
      }
      const decoded = decode(message.data);
      if (!decoded) {
        logger.error({ subject }, "session bus: malformed message dropped");
        return;
      }
      for (const listener of listeners) {
        try {
          listener(decoded.change, decoded.nodeId);
        } catch (listenerError) {
          logger.error({ error: String(listenerError) }, "session bus: a listener failed");
        }
      }
    },
  });
  return {
    nodeId,
    publish(change) {
      const message: WireMessage =
        change.kind === "operator_revoke"
          ? { nodeId, kind: change.kind, tokenHash: change.tokenHash }
          : {
              nodeId,
              kind: change.kind,
              userId: change.userId.toString(),
              ...(change.tokenHash ? { tokenHash: change.tokenHash } : {}),
            };
      try {
        connection.publish(subject, encoder.encode(JSON.stringify(message)));
      } catch (error) {
        // A closed connection: the other nodes' caches end within `sessionCacheMs` anyway.
        logger.warn({ error: String(error) }, "session bus: publish failed");
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      listeners.clear();
      await subscription.drain().catch(() => undefined);
    },
  };
}

/**
 * The session bus on a NATS connection of its own (serve.ts: API nodes and engine nodes of a
 * cluster). `nodeName` (NODE_ID or host and process id) prefixes a random id, so two processes
 * given the same name still tell their messages apart. `stop` drains and closes.
 */
export async function connectSessionBus(
  servers: string,
  prefix: string,
  options: { nodeName: string; logger?: JournalLogger },
): Promise<SessionBus & { stop(): Promise<void> }> {
  const connection = await connect({ servers: servers.split(","), name: "candor-session-bus" });
  const bus = natsSessionBus({
    connection,
    subject: sessionsSubject(prefix),
    nodeId: `${options.nodeName}-${randomBytes(4).toString("hex")}`,
    logger: options.logger,
  });
  return {
    nodeId: bus.nodeId,
    publish: (change) => bus.publish(change),
    subscribe: (listener) => bus.subscribe(listener),
    async stop() {
      await bus.stop();
      await connection.close().catch(() => undefined);
    },
  };
}
