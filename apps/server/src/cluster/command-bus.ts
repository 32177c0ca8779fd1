import { deserialize, serialize } from "node:v8";
import {
  connect,
  ErrorCode,
  headers,
  type NatsConnection,
  type NatsError,
  type Subscription,
} from "nats";
import type { Applied, Engine, Unstamped } from "../engine/engine.ts";
import { silentLogger, type JournalLogger } from "../journal/journal.ts";

/**
 * The command path between API nodes and the engine leader (issue 25, step 3), on NATS core
 * request/reply. An API node sends an unstamped command to `<prefix>.commands`; the leader,
 * subscribed in one queue group, submits it to its engine and replies with the applied record
 * once the batch is durable in the stream. A standby is not subscribed, and a leader whose
 * submit fails (deposed, journal stopped) does not reply: the API node times out or gets "no
 * responders" and sends the same command again, with the same id, until a leader answers. The
 * kernel answers a repeated id as a duplicate with the first application (`Applied.first`), so
 * a retry can neither lose nor double a command.
 *
 * Fan-out: the leader publishes every live applied record on `<prefix>.applied` with its
 * journal sequence in a header. Journal sequences are contiguous, so a subscriber sees a gap
 * (NATS core is at-most-once; a leader that dies between apply and publish) as a jump.
 *
 * Payloads are `node:v8` serialisation: commands, results and events carry bigints, and every
 * node runs the same binary. NATS is the cluster's private network: only engine and API nodes
 * may publish on these subjects (NATS accounts/permissions, docs/deploy.md).
 */
export interface ClusterSubjects {
  commands: string;
  applied: string;
}

export function clusterSubjects(prefix: string): ClusterSubjects {
  return { commands: `${prefix}.commands`, applied: `${prefix}.applied` };
}

const queueGroup = "candor-engine";
const sequenceHeader = "Candor-Sequence";

/** Only what the command path needs from an engine (the leader's `Engine`). */
export type CommandEngine<C extends { id: string; atMs: number }, R, E> = Pick<
  Engine<unknown, C, R, E>,
  "submit" | "subscribe" | "isStandby"
>;

/**
 * On the leader: answers forwarded commands and publishes applied records. Call once the node
 * leads; returns the stop function (drains the subscription).
 */
export function serveCommands<C extends { id: string; atMs: number }, R, E>(options: {
  engine: CommandEngine<C, R, E>;
  connection: NatsConnection;
  subjects: ClusterSubjects;
  logger?: JournalLogger;
  /**
   * Records this node applied before it led (followed as a standby): published first, so
   * subscribers fill in what the old leader applied but did not live to publish. Subscribers
   * drop sequences they already have.
   */
  backlog?: readonly Applied<C, R, E>[];
}): () => Promise<void> {
  const { engine, connection, subjects } = options;
  const logger = options.logger ?? silentLogger;
  const subscription: Subscription = connection.subscribe(subjects.commands, {
    queue: queueGroup,
    callback: (error, message) => {
      if (error) {
        logger.warn({ error: String(error) }, "command bus: subscription error");
        return;
      }
      let command: Unstamped<C>;
      try {
        command = deserialize(message.data) as Unstamped<C>;
      } catch (decodeError) {
        // A malformed request from inside the cluster: a bug, not a client's input. No reply.
        logger.error({ error: String(decodeError) }, "command bus: undecodable command");
        return;
      }
      if (engine.isStandby) return; // Not the leader (yet): the API node retries.
      engine.submit(command).then(
        (applied) => message.respond(serialize(applied)),
        // Not acknowledged (deposed, journal failed, stopping): stay silent so it is retried.
        (submitError: unknown) =>
          logger.warn(
            { error: String(submitError), id: command.id },
            "command bus: submit failed, not answering",
          ),
      );
    },
  });
  const publish = (applied: Applied<C, R, E>) => {
    const header = headers();
    header.set(sequenceHeader, applied.sequence.toString());
    connection.publish(subjects.applied, serialize(applied), { headers: header });
  };
  // Backlog and live records in one turn of the event loop: nothing applied in between.
  for (const applied of options.backlog ?? []) publish(applied);
  const unsubscribe = engine.subscribe((applied) => {
    if (!applied.replay) publish(applied);
  });
  return async () => {
    unsubscribe();
    await subscription.drain();
  };
}

/**
 * The last `limit` records an engine applied (followed, replayed or live), oldest first: a
 * standby keeps them to publish as its backlog when it takes over.
 */
export function recentApplied<C, R, E>(
  engine: { subscribe(listener: (applied: Applied<C, R, E>) => void): () => void },
  limit = 10_000,
) {
  let records: Applied<C, R, E>[] = [];
  const unsubscribe = engine.subscribe((applied) => {
    records.push(applied);
    if (records.length > limit * 2) records = records.slice(-limit);
  });
  return {
    take(): Applied<C, R, E>[] {
      unsubscribe();
      const taken = records.slice(-limit);
      records = [];
      return taken;
    },
  };
}

/** `serveCommands` on a connection of its own (serve.ts, once the engine node leads). */
export async function serveClusterCommands<C extends { id: string; atMs: number }, R, E>(
  servers: string,
  subjects: ClusterSubjects,
  engine: CommandEngine<C, R, E>,
  options: { logger?: JournalLogger; backlog?: () => readonly Applied<C, R, E>[] } = {},
): Promise<() => Promise<void>> {
  const connection = await connect({ servers: servers.split(","), name: "candor-command-bus" });
  const stop = serveCommands({
    engine,
    connection,
    subjects,
    logger: options.logger,
    backlog: options.backlog?.(),
  });
  return async () => {
    await stop();
    await connection.close();
  };
}

/** Raised when no leader acknowledged a command before the deadline: NOT acknowledged. */
export class NoLeaderError extends Error {
  override name = "NoLeaderError";
  constructor(id: string, attempts: number) {
    super(`command bus: no leader acknowledged command ${id} after ${attempts} attempts`);
  }
}

export interface RemoteEngineOptions {
  connection: NatsConnection;
  subjects: ClusterSubjects;
  /** How long one attempt waits for the leader's reply (default 2,000 ms). */
  attemptTimeoutMs?: number;
  /** How long a command is retried before it fails as unavailable (default 15,000 ms). */
  deadlineMs?: number;
  /** Pause before a retry after "no responders" (default 100 ms). */
  retryDelayMs?: number;
  logger?: JournalLogger;
}

/**
 * An API node's engine: `submit` forwards to the leader and retries by id; `subscribe` feeds
 * the applied records the leader publishes, in sequence order, and reports gaps. There is no
 * kernel here: `query` is not offered (see docs/deploy.md §4 for how reads are answered).
 */
export class RemoteEngine<C extends { id: string; atMs: number }, R, E> {
  private listeners = new Set<(applied: Applied<C, R, E>) => void>();
  private gapListeners = new Set<(gap: { expected: bigint; received: bigint }) => void>();
  private lastSequence: bigint | undefined;
  private subscription: Subscription | undefined;
  private readonly attemptTimeoutMs: number;
  private readonly deadlineMs: number;
  private readonly retryDelayMs: number;
  private readonly logger: JournalLogger;

  constructor(private readonly options: RemoteEngineOptions) {
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 2_000;
    this.deadlineMs = options.deadlineMs ?? 15_000;
    this.retryDelayMs = options.retryDelayMs ?? 100;
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Sends the command to the leader until one acknowledges it (same id every time). Resolves
   * with the leader's applied record (a duplicate carries the first application); rejects with
   * `NoLeaderError` after the deadline, and the command then counts as not acknowledged.
   */
  async submit(command: Unstamped<C>): Promise<Applied<C, R, E>> {
    const payload = serialize(command);
    const giveUpAt = performance.now() + this.deadlineMs;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const remaining = giveUpAt - performance.now();
      try {
        const reply = await this.options.connection.request(
          this.options.subjects.commands,
          payload,
          {
            timeout: Math.max(1, Math.min(this.attemptTimeoutMs, remaining)),
          },
        );
        return deserialize(reply.data) as Applied<C, R, E>;
      } catch (error) {
        const code = (error as NatsError).code;
        if (code !== ErrorCode.Timeout && code !== ErrorCode.NoResponders) throw error;
        if (performance.now() >= giveUpAt) throw new NoLeaderError(command.id, attempts);
        this.logger.warn({ id: command.id, attempts, code }, "command bus: retrying command");
        if (code === ErrorCode.NoResponders) {
          await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs));
        }
      }
    }
  }

  /** Starts receiving the leader's applied records (call once). */
  start() {
    if (this.subscription) return;
    this.subscription = this.options.connection.subscribe(this.options.subjects.applied, {
      callback: (error, message) => {
        if (error) return;
        const sequence = BigInt(message.headers?.get(sequenceHeader) || "0");
        if (this.lastSequence !== undefined && sequence <= this.lastSequence) return;
        if (this.lastSequence !== undefined && sequence !== this.lastSequence + 1n) {
          const gap = { expected: this.lastSequence + 1n, received: sequence };
          this.logger.warn(
            { expected: gap.expected.toString(), received: sequence.toString() },
            "command bus: gap in applied records",
          );
          for (const listener of this.gapListeners) listener(gap);
        }
        this.lastSequence = sequence;
        const applied = deserialize(message.data) as Applied<C, R, E>;
        for (const listener of this.listeners) listener(applied);
      },
    });
  }

  /** Like `Engine.subscribe`, for live records only (an API node has no replay). */
  subscribe(listener: (applied: Applied<C, R, E>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called when a sequence number was skipped: the listener's view must resync. */
  onGap(listener: (gap: { expected: bigint; received: bigint }) => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  /** The last applied sequence received (undefined before the first). */
  get sequence() {
    return this.lastSequence;
  }

  async stop() {
    await this.subscription?.drain();
    this.subscription = undefined;
  }
}
