import { randomBytes } from "node:crypto";
import type {
  SecondsContractView,
  SecondsDisclosureView,
  SecondsProductView,
  WsSecondsContract,
} from "@candor/contract";
import {
  formatAmount,
  getAssets,
  getBalance,
  getLastTick,
  getNowMs,
  getSecondsOpenContract,
  getSecondsOpenContracts,
  getSecondsProducts,
  parseAmount,
  systemOwners,
  type Command,
  type Event,
  type KernelState,
  type Mode,
  type SecondsContractView as KernelContract,
} from "@candor/kernel";
import type { CandorApplied, CandorCommand, CandorFirst } from "../../engine/kernel-port.ts";
import { errorCodeOf } from "../../engine/reject-codes.ts";
import { ensureAccounts, submit } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import { breakEvenWinRateBps, type SecondsProductConfig } from "./seconds.products.ts";
import type {
  SecondsContractRow,
  SecondsListFilter,
  SecondsRepository,
} from "./seconds.repository.ts";

/** What the seconds module needs from the engine. */
export interface SecondsEngine {
  submit(command: CandorCommand): Promise<CandorApplied>;
  query<T>(fn: (state: KernelState) => T): T;
  recall(id: string): CandorFirst | undefined;
  subscribe(listener: (applied: CandorApplied) => void): () => void;
}

export interface SecondsSession {
  ownerId: string;
  mode: Mode;
}

/** Where the private `seconds` messages go (the WebSocket hub implements it). */
export interface SecondsStreamSink {
  publishPrivate(
    userId: string,
    mode: Mode,
    stream: "seconds",
    build: () => WsSecondsContract,
  ): void;
}

export interface SecondsServiceOptions {
  /** The private `seconds` stream: each user's contract when bought and when settled. */
  streams?: SecondsStreamSink;
  engine: SecondsEngine;
  repository: Pick<SecondsRepository, "contract" | "page" | "outcomes" | "usersNet">;
  now: () => number;
  /** False: the deployment switched seconds contracts off (SECONDS_ENABLED=false). */
  enabled: boolean;
  /** The open tick may be at most this old at purchase, ms (default 5,000). */
  tickAgeMaxMs?: number;
  /**
   * Demo only: the demo house is topped up from the demo faucet to this many whole units of
   * each asset when a demo purchase finds it below half. Demo money, never real.
   */
  houseDemoFunding?: Readonly<Record<string, string>>;
  /**
   * How long the disclosure figures are reused, ms (default 10,000): the Options page asks every
   * second and the figures are 30-day aggregates.
   */
  disclosureCacheMs?: number;
}

type PurchaseCommand = Extract<Command, { type: "seconds_purchase" }>;

const day = 86_400_000;
const recentMax = 10_000;

/**
 * Seconds contracts: products with their terms and disclosure, purchases through the journal,
 * and the user's contracts (open ones from the kernel, settled ones from the read model, the
 * latest settlements from memory while the read model catches up).
 */
export class SecondsService {
  private readonly recent = new Map<string, KernelContract>();
  private readonly disclosures = new Map<Mode, { atMs: number; view: SecondsDisclosureView }>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: SecondsServiceOptions) {
    this.unsubscribe = options.engine.subscribe((applied) => {
      for (const event of applied.events) {
        if (event.type !== "seconds_settled" && event.type !== "seconds_purchased") continue;
        const contract = event.contract;
        if (event.type === "seconds_settled") {
          this.recent.set(contract.contractId, contract);
          if (this.recent.size > recentMax) {
            this.recent.delete(this.recent.keys().next().value!);
          }
        }
        options.streams?.publishPrivate(contract.ownerId, contract.mode, "seconds", () => ({
          type: "seconds_contract",
          stream: "seconds",
          data: this.view(contract),
        }));
      }
    });
  }

  stop(): void {
    this.unsubscribe();
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  private scaleOf(assetId: string): number {
    const asset = this.options.engine.query((s) => getAssets(s)).find((a) => a.assetId === assetId);
    return asset?.scale ?? 0;
  }

  products(): SecondsProductView[] {
    return this.options.engine.query((state) =>
      getSecondsProducts(state).map((p) => {
        const tick = getLastTick(state, p.instrumentId);
        const scale = getAssets(state).find((a) => a.assetId === p.assetId)?.scale ?? 0;
        return {
          instrumentId: p.instrumentId,
          periodS: p.periodMs / 1_000,
          asset: p.assetId,
          assetDecimals: scale,
          payoutBps: p.payoutBps,
          breakEvenWinRateBps: breakEvenWinRateBps(p.payoutBps),
          stakeMin: formatAmount(p.stakeMin, scale),
          stakeMax: formatAmount(p.stakeMax, scale),
          graceS: Math.floor(p.graceMs / 1_000),
          open: p.open,
          lastPrice: tick?.price ?? null,
          lastTickId: tick?.tickId ?? null,
        };
      }),
    );
  }

  /** The disclosure: outcomes and the users' net result of the last 30 days, from the ledger. */
  async disclosure(mode: Mode): Promise<SecondsDisclosureView> {
    const cached = this.disclosures.get(mode);
    const nowMs = this.options.now();
    if (cached && nowMs - cached.atMs < (this.options.disclosureCacheMs ?? 10_000)) {
      return cached.view;
    }
    const view = await this.computeDisclosure(mode);
    this.disclosures.set(mode, { atMs: nowMs, view });
    return view;
  }

  private async computeDisclosure(mode: Mode): Promise<SecondsDisclosureView> {
    const toMs = this.options.now();
    const fromMs = toMs - 30 * day;
    const [outcomes, net] = await Promise.all([
      this.options.repository.outcomes(mode, fromMs),
      this.options.repository.usersNet(mode, fromMs),
    ]);
    const wonCount = outcomes.get("win") ?? 0;
    const lostCount = outcomes.get("loss") ?? 0;
    const refundedCount = (outcomes.get("tie") ?? 0) + (outcomes.get("no_tick") ?? 0);
    const settledCount = wonCount + lostCount + refundedCount;
    return {
      mode,
      fromMs,
      toMs,
      settledCount,
      wonCount,
      lostCount,
      refundedCount,
      wonShareBps: settledCount === 0 ? null : Math.floor((wonCount * 10_000) / settledCount),
      usersNet: net.map((n) => ({
        asset: n.assetId,
        amount: formatAmount(n.amount, this.scaleOf(n.assetId)),
      })),
    };
  }

  async purchase(
    session: SecondsSession,
    input: {
      requestId: string;
      instrumentId: string;
      periodS: number;
      direction: "up" | "down";
      stake: string;
    },
  ): Promise<{ contract: SecondsContractView; duplicate: boolean }> {
    if (!this.options.enabled) throw new AppError("seconds_disabled");
    const engine = this.options.engine;
    const periodMs = input.periodS * 1_000;
    const product = engine
      .query((s) => getSecondsProducts(s))
      .find((p) => p.instrumentId === input.instrumentId && p.periodMs === periodMs);
    if (!product) throw new AppError("seconds_product_not_found");
    const stake = parseAmount(input.stake, this.scaleOf(product.assetId));
    if (!stake.ok) throw new AppError(errorCodeOf(stake.code));
    const command: Omit<PurchaseCommand, "atMs"> = {
      type: "seconds_purchase",
      // No colons: the id travels in paths (`/contracts/:contractId`).
      id: `seconds-${session.ownerId}-${input.requestId}`,
      ownerId: session.ownerId,
      mode: session.mode,
      instrumentId: product.instrumentId,
      periodMs,
      direction: input.direction,
      stake: stake.value,
    };
    // A retry: the engine (within the idempotency window) or the read model has the first.
    const first = engine.recall(command.id);
    if (first) {
      const c = first.command;
      if (c.type !== "seconds_purchase" || !samePurchase(c, command)) {
        throw new AppError("client_order_id_reused");
      }
      const bought = purchasedOf(first.events);
      if (!first.result.ok || !bought)
        throw new AppError(errorCodeOf(first.result.ok ? "command_malformed" : first.result.code));
      return { contract: this.view(this.latest(bought)), duplicate: true };
    }
    const known = await this.options.repository.contract(command.id);
    if (known) {
      if (
        known.mode !== command.mode ||
        known.instrumentId !== command.instrumentId ||
        known.periodMs !== command.periodMs ||
        known.direction !== command.direction ||
        known.stake !== command.stake
      ) {
        throw new AppError("client_order_id_reused");
      }
      return { contract: this.view(this.latest(kernelOfRow(known))), duplicate: true };
    }
    await ensureAccounts(engine, session.ownerId, session.mode);
    if (session.mode === "demo") await this.topUpDemoHouse(product.assetId);
    const applied = await submit(engine, command);
    if (!applied.result.ok) {
      const code = applied.result.code;
      throw new AppError(
        code === "house_insufficient" ? "seconds_house_insufficient" : errorCodeOf(code),
      );
    }
    const bought =
      purchasedOf(applied.events) ?? (applied.first && purchasedOf(applied.first.events));
    if (!bought) throw new AppError("service_unavailable");
    return { contract: this.view(this.latest(bought)), duplicate: applied.duplicate };
  }

  /** The newest state of a contract the caller has some view of (it may have settled since). */
  private latest(contract: KernelContract): KernelContract {
    return (
      this.options.engine.query((s) => getSecondsOpenContract(s, contract.contractId)) ??
      this.recent.get(contract.contractId) ??
      contract
    );
  }

  async list(
    session: SecondsSession,
    filter: Omit<SecondsListFilter, "beforeId"> & { cursor?: string },
  ): Promise<{ items: SecondsContractView[]; nextCursor: string | null }> {
    if (filter.status === "open") {
      // Open contracts are the kernel's (at most a few dozen per user): never behind.
      const open = this.options.engine
        .query((s) => getSecondsOpenContracts(s, session.ownerId, session.mode))
        .filter(
          (c) =>
            (filter.instrumentId === undefined || c.instrumentId === filter.instrumentId) &&
            (filter.direction === undefined || c.direction === filter.direction) &&
            filter.outcome === undefined,
        );
      return { items: open.slice(0, filter.limit).map((c) => this.view(c)), nextCursor: null };
    }
    const rows = await this.options.repository.page(session.ownerId, session.mode, {
      ...filter,
      beforeId: filter.cursor === undefined ? undefined : BigInt(filter.cursor),
      limit: filter.limit + 1,
    });
    const shown = rows.slice(0, filter.limit);
    return {
      items: shown.map((row) => this.view(this.latest(kernelOfRow(row)))),
      nextCursor: rows.length > filter.limit ? String(shown[shown.length - 1]!.id) : null,
    };
  }

  async detail(session: SecondsSession, contractId: string): Promise<SecondsContractView> {
    const open = this.options.engine.query((s) => getSecondsOpenContract(s, contractId));
    const found =
      open ??
      this.recent.get(contractId) ??
      (await this.options.repository
        .contract(contractId)
        .then((r) => (r ? kernelOfRow(r) : undefined)));
    // Another user's contract answers like a missing one: ids reveal nothing.
    if (!found || found.ownerId !== session.ownerId || found.mode !== session.mode) {
      throw new AppError("seconds_contract_not_found");
    }
    return this.view(found);
  }

  /** Operator: a product's terms (applies to later purchases only). */
  async configure(
    config: SecondsProductConfig & { open: boolean },
    operatorId: string,
  ): Promise<SecondsProductView> {
    const scale = this.options.engine
      .query((s) => getAssets(s))
      .find((a) => a.assetId === config.asset)?.scale;
    if (scale === undefined) throw new AppError("asset_not_found");
    const command = configureCommand(
      config,
      scale,
      this.options.tickAgeMaxMs ?? 5_000,
      uniqueSuffix(),
      operatorId,
    );
    const applied = await submit(this.options.engine, command);
    if (!applied.result.ok) throw new AppError(errorCodeOf(applied.result.code));
    const product = this.products().find(
      (p) => p.instrumentId === config.instrumentId && p.periodS === config.periodS,
    );
    if (!product) throw new AppError("internal_error");
    return product;
  }

  /**
   * Start-up: configures the deployment's products that the kernel does not have yet (an
   * instrument without its asset is skipped).
   */
  async setup(products: readonly SecondsProductConfig[]): Promise<void> {
    const engine = this.options.engine;
    const have = new Set(
      engine.query((s) => getSecondsProducts(s)).map((p) => `${p.instrumentId}:${p.periodMs}`),
    );
    const assets = engine.query((s) => getAssets(s));
    for (const config of products) {
      if (have.has(`${config.instrumentId}:${config.periodS * 1_000}`)) continue;
      const scale = assets.find((a) => a.assetId === config.asset)?.scale;
      if (scale === undefined) continue;
      await submit(
        engine,
        configureCommand(
          { ...config, open: true },
          scale,
          this.options.tickAgeMaxMs ?? 5_000,
          "setup",
          "config",
        ),
      );
    }
    // The demo house is topped up by the first demo purchase that finds it short, not here:
    // starting an app journals nothing that moves money.
  }

  /**
   * Development only (SECONDS_HOUSE_DEV_FUNDING): credits the real house once with a journaled
   * deposit, so real-mode contracts can be tried on a fresh local start. Production funds the
   * house with money actually put in (POST /api/v1/operator/house/deposits).
   */
  async devFundRealHouse(asset: string, whole: string): Promise<void> {
    const engine = this.options.engine;
    const scale = engine.query((s) => getAssets(s)).find((a) => a.assetId === asset)?.scale;
    if (scale === undefined) return;
    const amount = parseAmount(whole, scale);
    if (!amount.ok || amount.value <= 0n) return;
    const balance = engine.query((s) => getBalance(s, systemOwners.house, "real", "fund", asset));
    if (balance.available + balance.held > 0n) return;
    await submit(engine, {
      type: "credit_deposit",
      id: `seconds:house:dev-funding:${asset}`,
      ownerId: systemOwners.house,
      mode: "real",
      assetId: asset,
      amount: amount.value,
      reference: "development funding (SECONDS_HOUSE_DEV_FUNDING)",
      operatorId: "config",
    });
  }

  private async topUpDemoHouse(assetId: string): Promise<void> {
    const text = (this.options.houseDemoFunding ?? { USDT: "1000000" })[assetId];
    if (text === undefined) return;
    const target = parseAmount(text, this.scaleOf(assetId));
    if (!target.ok) return;
    const { available, nowMs } = this.options.engine.query((s) => ({
      available: getBalance(s, systemOwners.house, "demo", "fund", assetId).available,
      nowMs: getNowMs(s),
    }));
    if (available * 2n >= target.value) return;
    await submit(this.options.engine, {
      type: "grant_demo",
      id: `seconds:house:demo:${assetId}:${nowMs}`,
      ownerId: systemOwners.house,
      mode: "demo",
      assetId,
      amount: target.value - available,
    });
  }

  view(c: KernelContract): SecondsContractView {
    const scale = this.scaleOf(c.assetId);
    const money = (v: bigint) => formatAmount(v, scale);
    return {
      contractId: c.contractId,
      mode: c.mode,
      instrumentId: c.instrumentId,
      direction: c.direction,
      periodS: c.periodMs / 1_000,
      asset: c.assetId,
      stake: money(c.stake),
      payoutBps: c.payoutBps,
      payoutMax: money(c.payoutMax),
      boughtAtMs: c.boughtAtMs,
      expiresAtMs: c.expiresAtMs,
      openPrice: c.openPrice,
      openTickId: c.openTickId,
      status: c.status,
      settlePrice: c.settlePrice,
      settleTickId: c.settleTickId,
      settleTickAtMs: c.settleTickAtMs,
      settledAtMs: c.settledAtMs,
      outcome: c.outcome,
      returned: c.returned === null ? null : money(c.returned),
      profit: c.returned === null ? null : money(c.returned - c.stake),
    };
  }
}

function configureCommand(
  config: SecondsProductConfig & { open: boolean },
  scale: number,
  tickAgeMaxMs: number,
  suffix: string,
  operatorId: string,
): CandorCommand {
  const amount = (text: string) => {
    const parsed = parseAmount(text, scale);
    if (!parsed.ok) throw new AppError(errorCodeOf(parsed.code));
    return parsed.value;
  };
  const periodMs = config.periodS * 1_000;
  return {
    type: "seconds_configure",
    id: `seconds:configure:${config.instrumentId}:${periodMs}:${suffix}`,
    instrumentId: config.instrumentId,
    periodMs,
    assetId: config.asset,
    payoutBps: config.payoutBps,
    stakeMin: amount(config.stakeMin),
    stakeMax: amount(config.stakeMax),
    exposureMax: amount(config.exposureMax),
    graceMs: config.graceS * 1_000,
    tickAgeMaxMs,
    open: config.open,
    operatorId,
  };
}

function purchasedOf(events: readonly Event[]): KernelContract | undefined {
  for (const e of events) if (e.type === "seconds_purchased") return e.contract;
  return undefined;
}

function samePurchase(first: PurchaseCommand, retry: Omit<PurchaseCommand, "atMs">): boolean {
  return (
    first.mode === retry.mode &&
    first.instrumentId === retry.instrumentId &&
    first.periodMs === retry.periodMs &&
    first.direction === retry.direction &&
    first.stake === retry.stake
  );
}

function kernelOfRow(r: SecondsContractRow): KernelContract {
  return {
    contractId: r.contractId,
    ownerId: r.ownerId,
    mode: r.mode,
    productId: `${r.instrumentId}:${r.periodMs}`,
    instrumentId: r.instrumentId,
    periodMs: r.periodMs,
    assetId: r.assetId,
    direction: r.direction,
    stake: r.stake,
    payoutBps: r.payoutBps,
    payoutMax: r.payoutMax,
    boughtAtMs: r.boughtAtMs,
    expiresAtMs: r.expiresAtMs,
    refundAtMs: r.expiresAtMs,
    openTickId: r.openTickId,
    openPrice: r.openPrice,
    openTickAtMs: 0,
    status: r.status,
    settleTickId: r.settleTickId,
    settlePrice: r.settlePrice,
    settleTickAtMs: r.settleTickAtMs,
    settledAtMs: r.settledAtMs,
    outcome: r.outcome,
    returned: r.returned,
  };
}

function uniqueSuffix(): string {
  return randomBytes(9).toString("base64url");
}
