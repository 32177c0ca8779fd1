import type { Journal, JournalLogger, JournalRecord } from "../journal/journal.ts";
import { silentLogger } from "../journal/journal.ts";
import type { SnapshotStore } from "../journal/snapshot-store.ts";

/** Wraps a record-at-a-time read as runs of one record, for journals without `readRuns`. */
async function* oneRecordRuns(records: AsyncIterable<JournalRecord>) {
  for await (const record of records) yield [record];
}

/** Outcome of applying one command, as the kernel returns it. */
export interface KernelStep<Result, Event> {
  result: Result;
  events: Event[];
  duplicate: boolean;
}

/**
 * What the engine needs from the kernel (`packages/kernel`, issue 3). Keeping it a port lets the
 * engine be tested with a tiny fake kernel and keeps every kernel call in one adapter file.
 */
export interface KernelPort<State, Command extends { id: string; atMs: number }, Result, Event> {
  createState(): State;
  apply(state: State, command: Command): KernelStep<Result, Event>;
  /**
   * Optional: `apply` for a replayed record that no subscriber will see. Same state and result,
   * and at least the events `answerEvents` keeps; may leave out events only subscribers read.
   */
  applyQuiet?(state: State, command: Command): KernelStep<Result, Event>;
  encodeCommand(command: Command): Uint8Array;
  decodeCommand(bytes: Uint8Array): Command;
  snapshot(state: State): Uint8Array;
  restore(bytes: Uint8Array): State;
  stateHash(state: State): string;
  checkInvariants(state: State): void;
  /** The periodic clock command, or undefined when the kernel has none. */
  clockTick?(id: string, atMs: number): Command;
  /**
   * The `atMs` of the command the kernel remembers under `id`, if any, for kernels that compare
   * `atMs` as content. Candor's kernel compares every field except `atMs`, so it needs none.
   */
  rememberedAtMs?(state: State, id: string): number | undefined;
  /**
   * The events of an applied command that the engine keeps to answer its duplicates (see
   * `Engine.recall`), or undefined to keep nothing. Keep only what answers need: the engine holds
   * them for the kernel's idempotency window.
   */
  answerEvents?(command: Command, result: Result, events: Event[]): Event[] | undefined;
  /** How long the kernel remembers command ids, in ms of command time (`atMs`). */
  idempotencyWindowMs?(state: State): number;
  /**
   * Optional: a key under which the engine remembers the journal sequence of the last record
   * that applied `command` with `result` (`Engine.lastSequenceOf`), or undefined for records
   * not worth remembering. Candor keys the tape's recorded ticks by instrument, so a node that
   * just started knows the sequence of each instrument's last trade (its next trade's
   * `previousSequence`). Called for every record, replayed or live: keep it cheap.
   */
  sequenceKey?(command: Command, result: Result): string | undefined;
  /**
   * Optional: a compact memory for the kept answers of replayed records (see `AnswerMemory`);
   * without it the engine keeps them as objects.
   */
  answerMemory?(): AnswerMemory<Command, Result, Event>;
}

/**
 * Kept answers of replayed records, compact: `keep` stores what rebuilds the first application
 * (the record's bytes and a few numbers) and returns a handle, or -1 when it cannot (the engine
 * then keeps the objects); `first` rebuilds it, equal to the kept one, when a retry asks.
 */
export interface AnswerMemory<Command, Result, Event> {
  keep(
    sequence: bigint,
    payload: Uint8Array,
    command: Command,
    result: Result,
    events: Event[],
  ): number;
  atMs(handle: number): number;
  first(handle: number): FirstApplication<Command, Result, Event>;
  drop(handle: number): void;
}

/** A standby engine was asked to write: callers retry on the leader (issue 25). */
export class NotLeaderError extends Error {
  override name = "NotLeaderError";
  constructor() {
    super("engine: this node is a standby, not the leader");
  }
}

/** A command as callers submit it: the engine stamps `atMs`. */
export type Unstamped<Command> = Command extends unknown ? Omit<Command, "atMs"> : never;

/** One applied command, as subscribers of the events bus see it. */
export interface Applied<Command, Result, Event> {
  sequence: bigint;
  command: Command;
  result: Result;
  /** Empty for a duplicate: nothing happened (see `first`). */
  events: Event[];
  duplicate: boolean;
  /** True while the engine replays the journal at start-up. */
  replay: boolean;
  /**
   * For a duplicate: the first application of its id with the events the kernel port keeps
   * (`KernelPort.answerEvents`), while the engine still holds them. The duplicate is answered
   * from these journaled events, as it was the first time.
   */
  first?: FirstApplication<Command, Result, Event>;
}

/** The first application of a command id, kept to answer its duplicates. */
export interface FirstApplication<Command, Result, Event> {
  /** Journal sequence of the record that applied it. */
  sequence: bigint;
  command: Command;
  result: Result;
  /** The events kept by `KernelPort.answerEvents` (a subset of the command's events). */
  events: Event[];
}

export interface EngineOptions<State, Command extends { id: string; atMs: number }, Result, Event> {
  kernel: KernelPort<State, Command, Result, Event>;
  journal: Journal;
  snapshots: SnapshotStore;
  /** Milliseconds since the epoch; injected so tests control time. */
  now?: () => number;
  logger?: JournalLogger;
  /** A snapshot is taken after every this many records (default 10,000; 0 = never). */
  snapshotEvery?: number;
  /** Interval of the clock command, in ms (default 1,000; 0 = no clock). */
  clockTickMs?: number;
  /** Called when the engine cannot go on (kernel assertion, journal failure): stop the process. */
  onFatal?: (error: unknown) => void;
}

interface Waiter<Command, Result, Event> {
  command: Command;
  sequence: bigint | undefined;
  resolve: (applied: Applied<Command, Result, Event>) => void;
  reject: (error: unknown) => void;
}

/**
 * The single writer: stamps each command's time, appends it to the journal, and once the
 * journal says it is durable applies it to the kernel in sequence order, publishes its events
 * and only then answers the caller. Start-up restores the newest valid snapshot and replays
 * the records after it.
 */
export class Engine<State, Command extends { id: string; atMs: number }, Result, Event> {
  private state!: State;
  private appliedSequence = 0n;
  private lastAtMs = 0;
  private pending: Waiter<Command, Result, Event>[] = [];
  /** Stamps of commands journaled but not yet applied, by id. */
  private inFlightAtMs = new Map<string, number>();
  /**
   * First applications kept for answering duplicates, by command id, oldest first (commands are
   * applied in time order), dropped once older than the kernel's idempotency window: a handle
   * into `compact` (replayed user orders), or the objects.
   */
  private firsts = new Map<string, number | FirstApplication<Command, Result, Event>>();
  private readonly compact: AnswerMemory<Command, Result, Event> | undefined;
  /** Command time of the oldest kept answer when last looked at (at most the true oldest). */
  private oldestKeptAtMs = Number.NEGATIVE_INFINITY;
  /** Journal sequence of the last record applied under each `KernelPort.sequenceKey`. */
  private lastSequenceByKey = new Map<string, bigint>();
  private listeners = new Set<(applied: Applied<Command, Result, Event>) => void>();
  private clock: NodeJS.Timeout | undefined;
  private snapshotting: Promise<void> | undefined;
  private archiving: Promise<void> | undefined;
  private stopped = false;
  /** A standby follows the leader's journal and refuses submits until `promote` (issue 25). */
  private standby = false;
  /** Replayed records before this sequence are applied quietly (see `start`'s `eventsFrom`). */
  private quietBefore = 0n;
  /**
   * The state hash at `sequence`, computed at most once per applied sequence: a start-up hashes
   * the replayed state, and the server logs and announces it again right after (the hash of the
   * W9 end state is ~80–110 ms of CPU). Only `applyRecord` and `start` change the state.
   */
  private hashed: { sequence: bigint; stateHash: string } | undefined;
  private journal: Journal;
  private failure: unknown;
  private readonly now: () => number;
  private readonly logger: JournalLogger;
  private readonly snapshotEvery: number;

  constructor(private readonly options: EngineOptions<State, Command, Result, Event>) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? silentLogger;
    this.snapshotEvery = options.snapshotEvery ?? 10_000;
    this.journal = options.journal;
    this.compact = options.kernel.answerMemory?.();
  }

  /** Restores the newest valid snapshot, replays later records, and starts the clock. */
  async start(
    options: {
      /**
       * Subscribers need the events of records from this sequence on (the read models' cursor
       * + 1); earlier replayed records reach them as `replay` with only what answers need.
       */
      eventsFrom?: bigint;
      /** Start as a standby: no clock, no submits; records come by `follow` until `promote`. */
      standby?: boolean;
    } = {},
  ): Promise<{ sequence: bigint; stateHash: string; replayed: number }> {
    const { kernel, snapshots } = this.options;
    const journal = this.journal;
    let snapshot = await snapshots.loadLatest();
    if (snapshot && options.eventsFrom !== undefined && snapshot.sequence >= options.eventsFrom) {
      // A subscriber (the read models) needs the events of records the snapshot already holds:
      // replay from the start instead. Rare: only after the projector fell behind a snapshot.
      this.logger.warn(
        { snapshot: snapshot.sequence.toString(), eventsFrom: options.eventsFrom.toString() },
        "engine: replaying the whole journal so read models can catch up",
      );
      snapshot = undefined;
    }
    // A standby's journal is the leader's growing stream, read at open: the leader may have
    // snapshotted past that head since. The follower then starts after the snapshot and
    // refuses to start if the stream does not hold the record after it.
    if (snapshot && snapshot.sequence > journal.head && !options.standby) {
      throw new Error(
        `snapshot at sequence ${snapshot.sequence} is ahead of the journal head ${journal.head}; ` +
          "the journal has lost records, refusing to start",
      );
    }
    this.state = snapshot ? kernel.restore(snapshot.bytes) : kernel.createState();
    this.appliedSequence = snapshot?.sequence ?? 0n;
    this.hashed = undefined;
    let replayed = 0;
    const from = this.appliedSequence + 1n;
    this.quietBefore = options.eventsFrom ?? 0n;
    // A run of records at a time when the journal offers it: one await per read, not per record.
    const runs = journal.readRuns?.(from) ?? oneRecordRuns(journal.read(from));
    for await (const run of runs) {
      for (const record of run) {
        this.applyRecord(
          record.sequence,
          kernel.decodeCommand(record.payload),
          true,
          record.payload,
        );
      }
      replayed += run.length;
    }
    kernel.checkInvariants(this.state);
    const stateHash = this.stateHash();
    this.logger.info(
      {
        sequence: this.appliedSequence.toString(),
        stateHash,
        snapshot: snapshot?.sequence.toString() ?? null,
        replayed,
      },
      "engine: state restored",
    );
    // Segments sealed before the last run's newest snapshot may not be archived yet (the writer
    // only: a standby's journal belongs to the leader).
    if (snapshot && !options.standby) this.archiveThrough(snapshot.sequence);
    this.standby = options.standby ?? false;
    if (!this.standby) this.startClock();
    return { sequence: this.appliedSequence, stateHash, replayed };
  }

  /**
   * A standby applies one record of the leader's journal, read back checked (CRC, hash chain,
   * no gaps), exactly as a replay does: same kernel, same order, so the same state hash.
   */
  follow(record: JournalRecord, options: { live?: boolean } = {}) {
    if (!this.standby) throw new Error("engine: only a standby follows a journal");
    if (record.sequence <= this.appliedSequence) return;
    // `live` (an API node's follower kernel): subscribers see the record as new, so its
    // WebSocket hubs publish it. A standby never snapshots either way (the leader does).
    this.applyRecord(
      record.sequence,
      this.options.kernel.decodeCommand(record.payload),
      !options.live,
      record.payload,
    );
  }

  /**
   * Makes a standby the writer: `journal` is opened after this node won the lease, so its head
   * is the stream's; the records the standby had not followed yet are applied first, then the
   * clock starts and submits are accepted. Every later append names the stream position it
   * follows, so if another writer appended meanwhile the append fails and the engine stops.
   */
  async promote(journal: Journal): Promise<{ sequence: bigint; stateHash: string }> {
    if (!this.standby) throw new Error("engine: only a standby is promoted");
    this.journal = journal;
    for await (const record of journal.read(this.appliedSequence + 1n)) {
      this.applyRecord(
        record.sequence,
        this.options.kernel.decodeCommand(record.payload),
        true,
        record.payload,
      );
    }
    this.options.kernel.checkInvariants(this.state);
    this.standby = false;
    const promoted = { sequence: this.appliedSequence, stateHash: this.stateHash() };
    this.logger.info(
      { sequence: promoted.sequence.toString(), stateHash: promoted.stateHash },
      "engine: promoted to leader",
    );
    this.startClock();
    return promoted;
  }

  /** True while this engine is a standby (follows, refuses submits). */
  get isStandby() {
    return this.standby;
  }

  private startClock() {
    const clockTickMs = this.options.clockTickMs ?? 1_000;
    if (clockTickMs > 0 && this.options.kernel.clockTick) {
      this.clock = setInterval(() => this.tick(), clockTickMs);
      this.clock.unref();
    }
  }

  /**
   * Journals a command and resolves once it is durable and applied. Rejections by the kernel
   * come back in `result`; a rejected promise means the command was NOT acknowledged (it may or
   * may not be in the journal: retry with the same id).
   */
  submit(unstamped: Unstamped<Command>): Promise<Applied<Command, Result, Event>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.stopped) return Promise.reject(new Error("engine is stopped"));
    if (this.standby) return Promise.reject(new NotLeaderError());
    // A retry keeps the first stamp of its id, so the kernel answers it as a duplicate.
    const id = (unstamped as { id: string }).id;
    let atMs = this.inFlightAtMs.get(id) ?? this.options.kernel.rememberedAtMs?.(this.state, id);
    if (atMs === undefined) {
      // Time never goes backwards in the journal, even if the wall clock does.
      atMs = Math.max(this.now(), this.lastAtMs);
      this.lastAtMs = atMs;
    }
    const command = { ...unstamped, atMs } as Command;
    let bytes: Uint8Array;
    try {
      bytes = this.options.kernel.encodeCommand(command);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter<Command, Result, Event> = {
        command,
        sequence: undefined,
        resolve,
        reject,
      };
      this.pending.push(waiter);
      if (!this.inFlightAtMs.has(id)) this.inFlightAtMs.set(id, atMs);
      this.journal.append(bytes).then(
        (sequence) => {
          waiter.sequence = sequence;
          this.drain();
        },
        (error: unknown) => this.fail(error),
      );
    });
  }

  /** Subscribes to applied commands (live and replayed); returns the unsubscribe function. */
  subscribe(listener: (applied: Applied<Command, Result, Event>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The first application of a command id with its kept events, if the engine still holds it:
   * commands the kernel port keeps (`answerEvents`), applied (live or replayed) within the
   * kernel's idempotency window. Undefined otherwise: the read models have it by then.
   */
  recall(id: string): FirstApplication<Command, Result, Event> | undefined {
    const kept = this.firsts.get(id);
    return typeof kept === "number" ? this.compact!.first(kept) : kept;
  }

  /**
   * The journal sequence of the last record applied (replayed, followed or live) under `key`
   * (`KernelPort.sequenceKey`) since this engine started, or undefined: records the snapshot it
   * started from holds are not seen, so the caller looks those up elsewhere (the read models).
   */
  lastSequenceOf(key: string): bigint | undefined {
    return this.lastSequenceByKey.get(key);
  }

  /** Runs a read against the current state. `fn` must not mutate it. */
  query<T>(fn: (state: State) => T): T {
    return fn(this.state);
  }

  get sequence() {
    return this.appliedSequence;
  }

  /** SHA-256 of the canonical snapshot of the current state (computed once per sequence). */
  stateHash(): string {
    const hashed = this.hashed;
    if (hashed !== undefined && hashed.sequence === this.appliedSequence) return hashed.stateHash;
    const stateHash = this.options.kernel.stateHash(this.state);
    this.hashed = { sequence: this.appliedSequence, stateHash };
    return stateHash;
  }

  /** Stops the clock and waits for the journal to flush. */
  async stop() {
    this.stopped = true;
    if (this.clock) clearInterval(this.clock);
    await this.journal.close();
    await this.snapshotting;
    await this.archiving;
  }

  private tick() {
    const { kernel } = this.options;
    if (!kernel.clockTick || this.stopped) return;
    const atMs = Math.max(this.now(), this.lastAtMs);
    const command = kernel.clockTick(`clock:${atMs}`, atMs);
    const { atMs: _ignored, ...unstamped } = command;
    this.submit(unstamped as Unstamped<Command>).catch(() => {});
  }

  /** Applies durable commands from the head of the queue, strictly in sequence order. */
  private drain() {
    while (this.pending.length > 0) {
      const head = this.pending[0]!;
      if (head.sequence === undefined) return;
      this.pending.shift();
      if (this.inFlightAtMs.get(head.command.id) === head.command.atMs) {
        this.inFlightAtMs.delete(head.command.id);
      }
      let applied: Applied<Command, Result, Event>;
      try {
        applied = this.applyRecord(head.sequence, head.command, false);
      } catch (error) {
        head.reject(error);
        this.fail(error);
        return;
      }
      head.resolve(applied);
    }
  }

  /** `payload`: the journal record's bytes, for replayed records (live commands: undefined). */
  private applyRecord(sequence: bigint, command: Command, replay: boolean, payload?: Uint8Array) {
    if (sequence !== this.appliedSequence + 1n) {
      throw new Error(`engine: record ${sequence} out of order after ${this.appliedSequence}`);
    }
    if (command.atMs > this.lastAtMs) this.lastAtMs = command.atMs;
    const kernel = this.options.kernel;
    // The state changes from here (even if `apply` throws half-way): the kept hash is stale.
    this.hashed = undefined;
    // A replay nobody listens to (a restart before subscribers attach, a standby catching up),
    // or of records the subscribers already have (before `eventsFrom`), skips the views only
    // subscribers read.
    const step =
      replay && (this.listeners.size === 0 || sequence < this.quietBefore) && kernel.applyQuiet
        ? kernel.applyQuiet(this.state, command)
        : kernel.apply(this.state, command);
    this.appliedSequence = sequence;
    const applied: Applied<Command, Result, Event> = {
      sequence,
      command,
      result: step.result,
      events: step.events,
      duplicate: step.duplicate,
      replay,
    };
    if (step.duplicate) {
      const first = this.recall(command.id);
      if (first) applied.first = first;
    } else {
      this.keepFirst(sequence, command, step, payload);
      const key = kernel.sequenceKey?.(command, step.result);
      if (key !== undefined) this.lastSequenceByKey.set(key, sequence);
    }
    for (const listener of this.listeners) {
      try {
        listener(applied);
      } catch (error) {
        this.logger.error({ error: String(error) }, "engine: event listener failed");
      }
    }
    if (
      !replay &&
      !this.standby &&
      this.snapshotEvery > 0 &&
      sequence % BigInt(this.snapshotEvery) === 0n
    ) {
      this.takeSnapshot(sequence);
    }
    return applied;
  }

  /** Keeps what answers a command's duplicates; forgets what the kernel has forgotten. */
  private keepFirst(
    sequence: bigint,
    command: Command,
    step: KernelStep<Result, Event>,
    payload: Uint8Array | undefined,
  ) {
    const { kernel } = this.options;
    if (!kernel.answerEvents) return;
    const kept = kernel.answerEvents(command, step.result, step.events);
    if (kept) {
      // Applied anew under a kept id: the kernel forgot the old command, so does the engine
      // (deleted first so the map stays in time order).
      this.forget(command.id);
      const handle =
        payload && this.compact
          ? this.compact.keep(sequence, payload, command, step.result, kept)
          : -1;
      this.firsts.set(
        command.id,
        handle !== -1 ? handle : { sequence, command, result: step.result, events: kept },
      );
      if (command.atMs < this.oldestKeptAtMs) this.oldestKeptAtMs = command.atMs;
    }
    if (this.firsts.size === 0) return;
    const windowMs = kernel.idempotencyWindowMs?.(this.state) ?? 0;
    const horizonMs = command.atMs - windowMs;
    // Nothing to drop while the oldest seen is inside the window (the usual case: no iterator
    // per command). A stale oldest is only earlier than the true one, so this never skips work.
    if (this.oldestKeptAtMs >= horizonMs) return;
    for (const [id, first] of this.firsts) {
      const atMs = typeof first === "number" ? this.compact!.atMs(first) : first.command.atMs;
      this.oldestKeptAtMs = atMs;
      if (atMs >= horizonMs) return;
      this.forget(id);
    }
    this.oldestKeptAtMs = Number.POSITIVE_INFINITY;
  }

  private forget(id: string) {
    const kept = this.firsts.get(id);
    if (kept === undefined) return;
    this.firsts.delete(id);
    if (typeof kept === "number") this.compact!.drop(kept);
  }

  private takeSnapshot(sequence: bigint) {
    if (this.snapshotting) return;
    const { kernel, snapshots } = this.options;
    const bytes = kernel.snapshot(this.state);
    const stateHash = kernel.stateHash(this.state);
    this.snapshotting = snapshots
      .save(sequence, bytes)
      .then(
        () => {
          this.logger.info({ sequence: sequence.toString(), stateHash }, "engine: snapshot saved");
          this.archiveThrough(sequence);
        },
        (error: unknown) =>
          // A lost snapshot only lengthens the next replay; the journal is the record.
          this.logger.warn(
            { sequence: sequence.toString(), error: String(error) },
            "engine: snapshot failed",
          ),
      )
      .finally(() => (this.snapshotting = undefined));
  }

  /**
   * Lets the journal compress sealed records the snapshot at `sequence` holds (in the
   * background; a failure is logged and the records stay where they are).
   */
  private archiveThrough(sequence: bigint) {
    const journal = this.journal;
    if (!journal.archiveThrough || this.stopped) return;
    const archiving = journal
      .archiveThrough(sequence)
      .then(
        () => {},
        (error: unknown) =>
          this.logger.warn(
            { sequence: sequence.toString(), error: String(error) },
            "engine: journal archive failed",
          ),
      )
      .finally(() => {
        if (this.archiving === archiving) this.archiving = undefined;
      });
    this.archiving = archiving;
  }

  private fail(error: unknown) {
    if (this.failure !== undefined) return;
    this.failure = error;
    const waiting = this.pending;
    this.pending = [];
    for (const waiter of waiting) waiter.reject(error);
    this.logger.error({ error: String(error) }, "engine: stopped");
    this.options.onFatal?.(error);
  }
}
