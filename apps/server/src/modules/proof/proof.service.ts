import { randomBytes } from "node:crypto";
import type {
  EndpointData,
  LiabilityPublication,
  liabilitiesHistoryEndpoint,
  MyLiabilityProof,
  Transparency,
} from "@candor/contract";
import { formatDecimal } from "@candor/decimal";
import { getAssets, getLiabilities, getSystemBalances, type KernelState } from "@candor/kernel";
import type { RootJson } from "@candor/proof";
import { valuationPrices, valueIn } from "../../engine/valuation.ts";
import { AppError } from "../../http/app-error.ts";
import type { ProofRepository } from "./proof.repository.ts";
import { saltFor, type TreeBuilder } from "./tree-builder.ts";

/** Trading results on the transparency page cover this many days (as the issues ask; ESMA's CFD warning uses 12 months). */
const spotResultDays = 90;

/** The asset the transparency page values results in (as the wallet's account values). */
const valuationAsset = "USDT";

/** How old the figures read from postings may be. */
const postingFiguresMaxAgeMs = 60_000;

/** Every value and sum of the tree lies in [0, 2^128): far above any asset's supply. */
const treeBits = 128;

/** What the proof service reads of the engine: one consistent view of state and sequence. */
export interface ProofEngine {
  query<T>(fn: (state: KernelState) => T): T;
  readonly sequence: bigint;
}

/**
 * Proof of liabilities: builds the Merkle sum tree over real users' balances at one journal
 * sequence (on the builder's worker thread), publishes its root, and hands each user their own
 * inclusion proof. Salts are HMAC(secret, sequence | user id): unguessable to other users, and
 * the same tree comes out again from the same state.
 */
export class ProofService {
  /** The publication whose tree the builder holds (built by this process). */
  private latest: LiabilityPublication | undefined;
  /** The build in progress and the journal sequence of the state it reads. */
  private running: { sequence: bigint; promise: Promise<LiabilityPublication> } | undefined;
  /** The build that starts when the running one ends (it reads the state as of then). */
  private queued: Promise<LiabilityPublication> | undefined;
  private secretValue: Promise<string> | undefined;
  private postingFigures:
    | { atMs: number; value: Promise<Pick<Transparency, "spotResults" | "systemHistory">> }
    | undefined;

  constructor(
    private readonly repository: Pick<
      ProofRepository,
      "secret" | "insert" | "latest" | "spotTradingChanges" | "systemBalancesAt"
    >,
    private readonly engine: ProofEngine,
    private readonly builder: TreeBuilder,
    private readonly now: () => number,
  ) {}

  /**
   * Builds and publishes a tree of the current state. A call shares the running build when that
   * build read this state or a later one; otherwise it waits for the next build (one queued
   * after the running one, shared by every such call), so the tree it gets holds every change
   * made before the call — a user credited just before "publish" is in it.
   */
  publish(): Promise<LiabilityPublication> {
    const running = this.running;
    if (!running) return this.start();
    if (running.sequence >= this.engine.sequence) return running.promise;
    this.queued ??= running.promise
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<LiabilityPublication> {
    const entry = { sequence: this.engine.sequence, promise: this.build() };
    this.running = entry;
    void entry.promise.then(
      () => this.clearRunning(entry),
      () => this.clearRunning(entry),
    );
    return entry.promise;
  }

  private clearRunning(entry: NonNullable<ProofService["running"]>) {
    if (this.running === entry) this.running = undefined;
  }

  /** The latest published root (of this process or, after a restart, of the database). */
  async latestPublished(): Promise<LiabilityPublication> {
    if (this.latest) return this.latest;
    const [row] = await this.repository.latest(1);
    if (!row) throw new AppError("proof_not_published");
    return this.toPublication(row);
  }

  async history(limit: number): Promise<EndpointData<typeof liabilitiesHistoryEndpoint>> {
    const rows = await this.repository.latest(limit);
    return { items: rows.map((row) => this.toPublication(row)) };
  }

  /**
   * The user's inclusion proof in the latest tree this process built. After a restart the
   * builder holds no tree: the first request builds one (a fresh publication).
   */
  async mine(userId: string): Promise<MyLiabilityProof> {
    await this.queued;
    await this.running?.promise;
    const publication = this.latest ?? (await this.publish());
    const salt = saltFor(await this.secret(), BigInt(publication.sequence), userId);
    const found = await this.builder.proof(userId, salt);
    if (!found) throw new AppError("proof_not_included");
    if (found.rootHash !== publication.root.hash) {
      // A newer tree was built meanwhile: answer from it.
      return this.mine(userId);
    }
    return { publication, userId, proof: found.proof };
  }

  /** The transparency page's figures, read from the kernel at one sequence. */
  async transparency(): Promise<Transparency> {
    const read = this.engine.query((state) => ({
      sequence: this.engine.sequence,
      liabilities: getLiabilities(state, "real"),
      system: getSystemBalances(state, "real"),
      scales: new Map(getAssets(state).map((asset) => [asset.assetId, asset.scale])),
    }));
    const text = (assetId: string, amount: bigint) =>
      formatDecimal(amount, read.scales.get(assetId) ?? 0);
    const { assets, owners } = read.liabilities;
    const totals = assets.map((_, i) => owners.reduce((sum, owner) => sum + owner.values[i]!, 0n));
    const [row] = await this.repository.latest(1);
    const fromPostings = await this.fromPostings();
    return {
      ...fromPostings,
      sequence: read.sequence.toString(),
      liabilities: assets.map((assetId, i) => ({ assetId, amount: text(assetId, totals[i]!) })),
      users: owners.length,
      systemAccounts: read.system.map((holding) => ({
        ownerId: holding.ownerId,
        assetId: holding.assetId,
        amount: text(holding.assetId, holding.amount),
      })),
      proof: this.latest ?? (row ? this.toPublication(row) : null),
    };
  }

  /**
   * The transparency figures read from the ledger's postings (the statement read model): heavier
   * queries, so computed at most once a minute and shared.
   */
  private fromPostings(): Promise<Pick<Transparency, "spotResults" | "systemHistory">> {
    const now = this.now();
    if (!this.postingFigures || now - this.postingFigures.atMs >= postingFiguresMaxAgeMs) {
      const value = this.readPostingFigures(now);
      this.postingFigures = { atMs: now, value };
      // A failed read is not kept: the next request tries again.
      value.catch(() => {
        if (this.postingFigures?.value === value) this.postingFigures = undefined;
      });
    }
    return this.postingFigures.value;
  }

  private async readPostingFigures(
    now: number,
  ): Promise<Pick<Transparency, "spotResults" | "systemHistory">> {
    const day = 86_400_000;
    const history = [now - 30 * day, now - 7 * day, now - day, now];
    const [changes, system] = await Promise.all([
      this.repository.spotTradingChanges(now - spotResultDays * day),
      this.repository.systemBalancesAt(history),
    ]);
    const { prices, scales } = this.engine.query((state) => ({
      prices: valuationPrices(state, valuationAsset),
      scales: new Map(getAssets(state).map((asset) => [asset.assetId, asset.scale])),
    }));
    const valuationScale = scales.get(valuationAsset) ?? 0;
    const results = new Map<string, bigint | null>();
    for (const change of changes) {
      const value = valueIn(
        prices,
        change.assetId,
        change.amount,
        scales.get(change.assetId) ?? 0,
        valuationScale,
      );
      const sum = results.get(change.ownerId);
      results.set(change.ownerId, sum === null || value === null ? null : (sum ?? 0n) + value);
    }
    const totals = [...results.values()];
    const priced = totals.filter((total) => total !== null);
    return {
      spotResults: {
        days: spotResultDays,
        valuationAsset,
        accounts: priced.length,
        lost: priced.filter((total) => total < 0n).length,
        unpriced: totals.length - priced.length,
      },
      systemHistory: {
        atMs: history,
        accounts: system
          .filter((row) => row.amounts.some((amount) => amount !== 0n))
          .map((row) => ({
            ownerId: row.ownerId,
            assetId: row.assetId,
            amounts: row.amounts.map((amount) =>
              formatDecimal(amount, scales.get(row.assetId) ?? 0),
            ),
          })),
      },
    };
  }

  /** The salt secret (created in the database on first use). */
  private secret(): Promise<string> {
    this.secretValue ??= this.repository.secret(randomBytes(32).toString("hex"));
    return this.secretValue;
  }

  private async build(): Promise<LiabilityPublication> {
    // One synchronous read: the state and the sequence it reflects belong together.
    const { sequence, liabilities } = this.engine.query((state) => ({
      sequence: this.engine.sequence,
      liabilities: getLiabilities(state, "real"),
    }));
    const root: RootJson = await this.builder.build({
      ...liabilities,
      bits: treeBits,
      sequence,
      secret: await this.secret(),
    });
    const publication = {
      sequence: sequence.toString(),
      publishedAtMs: this.now(),
      root,
      scales: this.scalesOf(root.assets),
    };
    await this.repository.insert({
      sequence,
      publishedAt: new Date(publication.publishedAtMs),
      rootHash: root.hash,
      rootJson: JSON.stringify(root),
    });
    this.latest = publication;
    return publication;
  }

  /** A stored publication with the decimals of its assets (from the kernel's asset list). */
  private toPublication(row: { sequence: bigint; publishedAt: Date; rootJson: string }) {
    const root = JSON.parse(row.rootJson) as RootJson;
    return {
      sequence: row.sequence.toString(),
      publishedAtMs: row.publishedAt.getTime(),
      root,
      scales: this.scalesOf(root.assets),
    };
  }

  private scalesOf(assetIds: readonly string[]): number[] {
    const scales = new Map(this.engine.query(getAssets).map((a) => [a.assetId, a.scale]));
    return assetIds.map((assetId) => scales.get(assetId) ?? 0);
  }
}
