import { Worker } from "node:worker_threads";
import { connect, type KV, type NatsConnection } from "nats";
import type { JournalLogger } from "../journal/journal.ts";
import { serverFile } from "../server-files.ts";

export interface LeaderLeaseOptions {
  /** NATS servers, comma-separated. */
  servers: string;
  /** Key-value bucket holding the lease (one per deployment): `CANDOR_LEADER` by default. */
  bucket?: string;
  /** This node's name, stored as the lease's value so others can see who leads. */
  nodeId: string;
  /**
   * How long a lease lives without renewal, in ms: the bucket's TTL, so JetStream itself removes
   * a dead leader's lease. Failover takes about this long. Default 3,000.
   */
  ttlMs?: number;
  /** Copies of the bucket: 3 on a three-server NATS cluster. */
  replicas?: number;
  logger?: JournalLogger;
}

/** What a lease holder stores under the key. */
export interface LeaseHolder {
  nodeId: string;
  /** The NATS subject this leader answers commands on. */
  commandSubject?: string;
}

const leaseKey = "leader";

/**
 * A leader lease in a JetStream key-value bucket (issue 25): no home-made consensus. The bucket
 * keeps one value per key and removes it `ttlMs` after it was written, so:
 * - acquiring is `create` (succeeds only when no live lease exists);
 * - renewing is `update` with the revision this node last wrote (fails if anyone else wrote);
 * - a leader that stops renewing (killed, paused, cut off) loses the lease after `ttlMs`.
 * A holder counts its lease as valid only until `ttlMs` after it *sent* its last successful
 * write, which is never later than the server's expiry. The lease decides who should write;
 * the journal's expected-last-sequence check is what makes a stale writer's append fail.
 */
export class LeaderLease {
  private revision: number | undefined;
  private validUntilMs = 0;
  /** While a keeper thread renews: [valid until (epoch ms), revision, 1 held | 2 lost]. */
  private kept: Float64Array | undefined;
  private keeper: Worker | undefined;
  private constructor(
    private readonly connection: NatsConnection,
    private readonly kv: KV,
    private readonly options: LeaderLeaseOptions & { ttlMs: number },
    private readonly now: () => number,
  ) {}

  static async open(options: LeaderLeaseOptions, now: () => number = () => performance.now()) {
    const ttlMs = options.ttlMs ?? 3_000;
    const connection = await connect({
      servers: options.servers.split(","),
      name: `candor-lease-${options.nodeId}`,
      maxReconnectAttempts: -1,
    });
    const kv = await connection.jetstream().views.kv(options.bucket ?? "CANDOR_LEADER", {
      history: 1,
      ttl: ttlMs,
      replicas: options.replicas ?? 1,
    });
    return new LeaderLease(connection, kv, { ...options, ttlMs }, now);
  }

  get ttlMs() {
    return this.options.ttlMs;
  }

  /** True while this node holds a lease it renewed less than `ttlMs` ago. */
  get held() {
    if (this.kept) {
      return this.kept[2] === 1 && performance.timeOrigin + performance.now() < this.kept[0]!;
    }
    return this.revision !== undefined && this.now() < this.validUntilMs;
  }

  /**
   * Renews the lease from now on in a worker thread, so a busy main thread cannot let it lapse;
   * `onLost` is called once if a renewal is refused or comes too late.
   */
  keepRenewing(onLost: (reason: string) => void, holder: Omit<LeaseHolder, "nodeId"> = {}) {
    if (this.revision === undefined || this.keeper) return;
    const shared = new SharedArrayBuffer(3 * Float64Array.BYTES_PER_ELEMENT);
    this.kept = new Float64Array(shared);
    // The same instant on the epoch scale the keeper thread uses.
    this.kept[0] = performance.timeOrigin + performance.now() + (this.validUntilMs - this.now());
    this.kept[1] = this.revision;
    this.kept[2] = 1;
    this.keeper = new Worker(serverFile("cluster/lease-keeper.worker.mjs"), {
      // Plain JavaScript: without the main thread's TypeScript loader (tsx), which took
      // seconds to start in the thread — longer than the lease lives.
      execArgv: [],
      workerData: {
        servers: this.options.servers,
        bucket: this.options.bucket ?? "CANDOR_LEADER",
        key: leaseKey,
        value: this.encode(holder),
        ttlMs: this.options.ttlMs,
        shared,
      },
    });
    this.keeper.unref();
    this.keeper.on("message", (message: { lost?: string }) => {
      if (message.lost !== undefined) onLost(message.lost);
    });
    this.keeper.on("error", (error) => onLost(String(error)));
  }

  /** Takes the lease if nobody holds a live one; true when this node now holds it. */
  async acquire(holder: Omit<LeaseHolder, "nodeId"> = {}): Promise<boolean> {
    const sentAtMs = this.now();
    try {
      this.revision = await this.kv.create(leaseKey, this.encode(holder));
      this.validUntilMs = sentAtMs + this.options.ttlMs;
      return true;
    } catch {
      return false;
    }
  }

  /** Extends the lease; false (and no longer held) when another node wrote it meanwhile. */
  async renew(holder: Omit<LeaseHolder, "nodeId"> = {}): Promise<boolean> {
    if (this.revision === undefined) return false;
    const sentAtMs = this.now();
    try {
      this.revision = await this.kv.update(leaseKey, this.encode(holder), this.revision);
      this.validUntilMs = sentAtMs + this.options.ttlMs;
      return true;
    } catch (error) {
      this.options.logger?.warn({ error: String(error) }, "lease: renewal refused");
      // A refused update means someone else wrote the key: the lease is gone for good. A
      // timeout may have been written or not: keep the revision and retry while still valid.
      if (/wrong last sequence/i.test(String(error))) this.revision = undefined;
      return false;
    }
  }

  /** Who holds the lease now, if anyone (read from the bucket). */
  async holder(): Promise<LeaseHolder | undefined> {
    const entry = await this.kv.get(leaseKey);
    if (!entry || entry.operation !== "PUT") return undefined;
    return JSON.parse(new TextDecoder().decode(entry.value)) as LeaseHolder;
  }

  /** Gives the lease up so a standby takes over without waiting for the TTL. */
  async release() {
    await this.stopKeeper();
    if (this.revision === undefined) return;
    const revision = this.revision;
    this.revision = undefined;
    await this.kv.delete(leaseKey, { previousSeq: revision }).catch(() => undefined);
  }

  async close() {
    await this.stopKeeper();
    this.revision = undefined;
    await this.connection.close();
  }

  /** Tests: stops renewing without giving the lease up, as a paused process would. */
  async pause() {
    await this.stopKeeper();
  }

  /** Stops the keeper thread; the revision it last wrote becomes this object's again. */
  private async stopKeeper() {
    const keeper = this.keeper;
    if (!keeper || !this.kept) return;
    this.keeper = undefined;
    const held = this.kept[2] === 1;
    this.revision = held ? this.kept[1] : undefined;
    this.validUntilMs = held
      ? this.now() + (this.kept[0]! - performance.timeOrigin - performance.now())
      : 0;
    this.kept = undefined;
    await keeper.terminate();
  }

  private encode(holder: Omit<LeaseHolder, "nodeId">) {
    return new TextEncoder().encode(JSON.stringify({ ...holder, nodeId: this.options.nodeId }));
  }
}

/** Deletes a lease bucket (tests use one per run). */
export async function deleteLeaseBucket(servers: string, bucket: string) {
  const connection = await connect({ servers: servers.split(",") });
  try {
    const manager = await connection.jetstreamManager();
    await manager.streams.delete(`KV_${bucket}`).catch(() => false);
  } finally {
    await connection.close();
  }
}
