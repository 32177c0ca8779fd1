import { connect, type NatsConnection } from "nats";
import { Engine, type Applied, type EngineOptions, type Unstamped } from "../engine/engine.ts";
import {
  followJetStream,
  openJetStreamJournal,
  type JetStreamFollower,
} from "../journal/jetstream-journal.ts";
import { JournalFailedError, silentLogger, type Journal } from "../journal/journal.ts";
import { clusterSubjects, RemoteEngine } from "./command-bus.ts";

/**
 * The leader acknowledged a command but this node's follower did not apply it in time (its
 * stream connection is down or far behind): answered 503, and the client's retry by id gets
 * the first answer.
 */
export class FollowerBehindError extends Error {
  override name = "FollowerBehindError";
  constructor(sequence: bigint) {
    super(`api node: the follower has not applied acknowledged sequence ${sequence} in time`);
  }
}

/**
 * An API node's engine (`ROLE=api`, issue 25): a follower kernel that applies every record of
 * the leader's journal stream, exactly as a hot standby does, but never campaigns for the lease
 * and never appends. Reads (`query`, `recall`, `subscribe`) are answered from it; `submit` is
 * forwarded to the leader through the command bus (`RemoteEngine`, retried by id) and resolves
 * only once this follower has applied the acknowledged record, so a route that reads after it
 * writes sees its own write. Followed records reach subscribers as live records, so the
 * node's WebSocket hubs publish them as the single process's do.
 */
export class FollowerEngine<S, C extends { id: string; atMs: number }, R, E> extends Engine<
  S,
  C,
  R,
  E
> {
  private waiting = new Map<bigint, (() => void)[]>();

  constructor(
    options: EngineOptions<S, C, R, E>,
    private readonly remote: Pick<RemoteEngine<C, R, E>, "submit">,
    /** How long an answer waits for the follower to apply its record (default 15,000 ms). */
    private readonly followWaitMs = 15_000,
  ) {
    super(options);
    super.subscribe((applied) => {
      for (const [sequence, resolves] of this.waiting) {
        if (sequence > applied.sequence) continue;
        this.waiting.delete(sequence);
        for (const resolve of resolves) resolve();
      }
    });
  }

  /** Forwards to the leader; answers once this node's kernel holds the acknowledged record. */
  override async submit(command: Unstamped<C>): Promise<Applied<C, R, E>> {
    const applied = await this.remote.submit(command);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.applied(applied.sequence),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new FollowerBehindError(applied.sequence)),
            this.followWaitMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    return { ...applied, replay: false };
  }

  /** Resolves once this follower has applied `sequence`. */
  applied(sequence: bigint): Promise<void> {
    if (this.sequence >= sequence) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiting.get(sequence);
      if (list) list.push(resolve);
      else this.waiting.set(sequence, [resolve]);
    });
  }
}

export interface ApiNodeOptions<S, C extends { id: string; atMs: number }, R, E> extends Omit<
  EngineOptions<S, C, R, E>,
  "journal" | "clockTickMs" | "snapshotEvery"
> {
  jetStream: { servers: string; stream: string; replicas: number };
  /** The command bus's subject prefix (`CLUSTER_SUBJECTS`). */
  subjects: string;
  onFatal: (error: unknown) => void;
  /** Tests: the forwarding deadlines (`RemoteEngineOptions`). */
  attemptTimeoutMs?: number;
  deadlineMs?: number;
}

export interface ApiNode<S, C extends { id: string; atMs: number }, R, E> {
  engine: FollowerEngine<S, C, R, E>;
  close(): Promise<void>;
}

/** Starts an API node's follower kernel on the journal stream and its command forwarder. */
export async function startApiNode<S, C extends { id: string; atMs: number }, R, E>(
  options: ApiNodeOptions<S, C, R, E>,
): Promise<ApiNode<S, C, R, E>> {
  const logger = options.logger ?? silentLogger;
  let fatal = false;
  const onFatal = (error: unknown) => {
    if (fatal) return;
    fatal = true;
    logger.error({ error: String(error) }, "api node: stopping");
    options.onFatal(error);
  };
  const journal = readOnly(
    await openJetStreamJournal({ ...options.jetStream, onFatal, logger, verifyOnOpen: false }),
  );
  const connection: NatsConnection = await connect({
    servers: options.jetStream.servers.split(","),
    name: "candor-api-node",
    maxReconnectAttempts: -1,
  });
  const remote = new RemoteEngine<C, R, E>({
    connection,
    subjects: clusterSubjects(options.subjects),
    attemptTimeoutMs: options.attemptTimeoutMs,
    deadlineMs: options.deadlineMs,
    logger,
  });
  const engine = new FollowerEngine<S, C, R, E>(
    { ...options, journal, onFatal, clockTickMs: 0, snapshotEvery: 0 },
    remote,
  );
  await engine.start({ standby: true });
  const follower: JetStreamFollower = await followJetStream({
    servers: options.jetStream.servers,
    stream: options.jetStream.stream,
    from: engine.sequence + 1n,
    onRecord: (record) => engine.follow(record, { live: true }),
    onError: onFatal,
    logger,
  });
  return {
    engine,
    async close() {
      await follower.stop();
      await engine.stop().catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}

/** The stream as an API node holds it: read at start, never appended to. */
function readOnly(journal: Journal): Journal {
  return {
    append: () => Promise.reject(new JournalFailedError("journal: an API node never appends")),
    read: (from, to) => journal.read(from, to),
    get head() {
      return journal.head;
    },
    get headHash() {
      return journal.headHash;
    },
    stats: () => journal.stats(),
    close: () => journal.close(),
  };
}
