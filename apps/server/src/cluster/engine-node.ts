import { Engine, type Applied, type KernelPort } from "../engine/engine.ts";
import {
  followJetStream,
  openJetStreamJournal,
  type JetStreamFollower,
} from "../journal/jetstream-journal.ts";
import {
  JournalFailedError,
  silentLogger,
  type Journal,
  type JournalLogger,
} from "../journal/journal.ts";
import type { SnapshotStore } from "../journal/snapshot-store.ts";
import { LeaderLease } from "./leader-lease.ts";

/** The read-model projector as an engine node drives it (`ReadModelProjector` fits). */
export interface NodeProjector<C, R, E> {
  /** The last projected sequence, read from the database. */
  load(): Promise<bigint>;
  handle(applied: Applied<C, R, E>): void;
}

export interface EngineNodeOptions<S, C extends { id: string; atMs: number }, R, E> {
  /** This node's name (the lease's value; logs). */
  nodeId: string;
  kernel: KernelPort<S, C, R, E>;
  snapshots: SnapshotStore;
  jetStream: { servers: string; stream: string; replicas: number };
  lease: { bucket: string; ttlMs: number; replicas?: number };
  /** Only the leader projects; a standby keeps what the leader has not projected yet. */
  projector?: NodeProjector<C, R, E>;
  logger?: JournalLogger;
  /** Called once when this node must stop (journal fenced, lease lost, stream broken). */
  onFatal: (error: unknown) => void;
  /** Called once this node leads and accepts submits. */
  onLeader?: (engine: Engine<S, C, R, E>) => void;
  now?: () => number;
  /** Tests: the monotonic clock the lease's validity is measured by (default `performance.now`). */
  leaseNow?: () => number;
  snapshotEvery?: number;
  clockTickMs?: number;
}

/** Where a node took over: its applied sequence and state hash at that moment. */
export interface Takeover {
  sequence: bigint;
  stateHash: string;
}

/** A running engine node: leader, or hot standby until the lease passes to it. */
export interface EngineNode<S, C extends { id: string; atMs: number }, R, E> {
  engine: Engine<S, C, R, E>;
  readonly role: "leader" | "standby";
  /**
   * Resolves when this node leads (at once for a node that started as leader), with the
   * sequence and state hash it took over at (before its first own append).
   */
  leading: Promise<Takeover>;
  /** Stops following, flushes, stops the engine and gives the lease up. */
  close(): Promise<void>;
  /** Tests: stops renewing and campaigning as a paused or cut-off process would. */
  pauseLease(): void;
}

/**
 * An engine node of issue 25. The leader holds the JetStream key-value lease, writes the
 * journal stream and projects read models; a standby replays the stream into its own kernel
 * as it grows (same records, same order, same state hash) and campaigns for the lease. When
 * the leader stops renewing, the lease lapses after its TTL, the standby takes it, applies
 * what it had not followed yet, and from then on appends after the stream's last batch. A
 * leader that cannot renew in time refuses appends and stops; a leader that wakes up after
 * being paused is refused by the stream itself (expected last sequence) and stops.
 */
export async function startEngineNode<S, C extends { id: string; atMs: number }, R, E>(
  options: EngineNodeOptions<S, C, R, E>,
): Promise<EngineNode<S, C, R, E>> {
  const logger = options.logger ?? silentLogger;
  const lease = await LeaderLease.open(
    {
      servers: options.jetStream.servers,
      bucket: options.lease.bucket,
      ttlMs: options.lease.ttlMs,
      replicas: options.lease.replicas,
      nodeId: options.nodeId,
      logger,
    },
    options.leaseNow,
  );
  let fatal = false;
  const onFatal = (error: unknown) => {
    if (fatal) return;
    fatal = true;
    logger.error({ error: String(error), node: options.nodeId }, "engine node: stopping");
    options.onFatal(error);
  };
  const openJournal = async (verifyOnOpen: boolean) =>
    leaseGuarded(
      await openJetStreamJournal({ ...options.jetStream, onFatal, logger, verifyOnOpen }),
      lease,
    );

  let timer: NodeJS.Timeout | undefined;
  let paused = false;
  const keepLease = () => {
    lease.keepRenewing((reason) =>
      onFatal(new JournalFailedError(`engine node: the leader lease is lost (${reason})`)),
    );
  };

  const leaderFirst = await lease.acquire();
  // Renewals start the moment the lease is won: checking the stream, restoring and replaying
  // may take longer than the lease lives.
  if (leaderFirst) keepLease();
  const startJournal = await openJournal(true);
  const engine = new Engine<S, C, R, E>({
    kernel: options.kernel,
    journal: startJournal,
    snapshots: options.snapshots,
    now: options.now,
    logger,
    snapshotEvery: options.snapshotEvery,
    clockTickMs: options.clockTickMs,
    onFatal,
  });

  // The leader projects; a standby keeps the applied commands the leader has not projected.
  let projecting = false;
  let retained: Applied<C, R, E>[] = [];
  const projector = options.projector;
  const cursor = projector ? await projector.load() : undefined;
  if (projector) {
    engine.subscribe((applied) => {
      if (projecting) projector.handle(applied);
      else retained.push(applied);
    });
  }
  const startProjecting = async () => {
    if (!projector) return;
    const projected = await projector.load();
    for (const applied of retained) if (applied.sequence > projected) projector.handle(applied);
    retained = [];
    projecting = true;
  };

  let follower: JetStreamFollower | undefined;
  let role: "leader" | "standby" = leaderFirst ? "leader" : "standby";
  let markLeading!: (takeover: Takeover) => void;
  const leading = new Promise<Takeover>((resolve) => (markLeading = resolve));

  const lead = (takeover: Takeover) => {
    role = "leader";
    logger.info(
      { node: options.nodeId, sequence: engine.sequence.toString() },
      "engine node: leading",
    );
    options.onLeader?.(engine);
    markLeading(takeover);
  };

  const started = await engine.start({
    eventsFrom: cursor === undefined ? undefined : cursor + 1n,
    standby: !leaderFirst,
  });
  if (leaderFirst) {
    await startProjecting();
    lead({ sequence: started.sequence, stateHash: started.stateHash });
  } else {
    follower = await followJetStream({
      servers: options.jetStream.servers,
      stream: options.jetStream.stream,
      from: engine.sequence + 1n,
      onRecord: (record) => engine.follow(record),
      onError: onFatal,
      logger,
    });
    const campaignEveryMs = Math.max(50, Math.floor(lease.ttlMs / 6));
    const campaign = async () => {
      if (paused || fatal) return;
      if (await lease.acquire()) {
        keepLease();
        try {
          await follower?.stop();
          follower = undefined;
          const takeover = await engine.promote(await openJournal(false));
          await startJournal.close().catch(() => undefined);
          await startProjecting();
          lead(takeover);
        } catch (error) {
          onFatal(error);
        }
        return;
      }
      if (projector && retained.length > 0) {
        // Drop what the leader has projected, so a standby's memory stays bounded.
        const projected = await projector.load().catch(() => 0n);
        retained = retained.filter((applied) => applied.sequence > projected);
      }
      timer = setTimeout(() => void campaign(), campaignEveryMs);
    };
    timer = setTimeout(() => void campaign(), campaignEveryMs);
  }

  return {
    engine,
    get role() {
      return role;
    },
    leading,
    pauseLease() {
      paused = true;
      void lease.pause();
      if (timer) clearTimeout(timer);
    },
    async close() {
      paused = true;
      if (timer) clearTimeout(timer);
      await follower?.stop();
      await engine.stop().catch(() => undefined);
      if (role === "leader") await lease.release();
      await lease.close();
      if (role === "standby") await startJournal.close().catch(() => undefined);
    },
  };
}

/**
 * The journal with one more check before each append: this node's lease is still valid. The
 * stream's expected-last-sequence check refuses a stale writer once another has appended; this
 * also stops one whose lease lapsed before anyone has.
 */
function leaseGuarded(journal: Journal, lease: LeaderLease): Journal {
  return {
    append(payload) {
      if (!lease.held) {
        return Promise.reject(new JournalFailedError("journal: this node does not hold the lease"));
      }
      return journal.append(payload);
    },
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
