import {
  getBalance,
  getPerpMarkets,
  getPerpOpenOrders,
  getPerpPositions,
  systemOwners,
  type Command,
  type KernelState,
  type Mode,
} from "@candor/kernel";
import type { Unstamped } from "../../engine/engine.ts";

type DefineCommand = Extract<Command, { type: "define_perp_market" }>;

/** A perpetual market of the deployment (the kernel's `define_perp_market` without id/time). */
export type PerpMarketConfig = Omit<DefineCommand, "type" | "id" | "atMs">;

const common = {
  quoteAssetId: "USDT",
  quantityLotsMin: 1,
  quantityLotsMax: 1_000_000,
  leverageMax: 50,
  leverageDefault: 10,
  feeBpsMaker: 2,
  feeBpsTaker: 5,
  fundingIntervalMs: 28_800_000,
  fundingCapBps: 75,
  interestBpsPerDay: 3,
  priceBandBps: 500,
  markBasisCapBps: 0,
  liquidationFeeBps: 50,
} as const;

/**
 * The markets a new deployment starts with, on the simulated market's crypto tape. One lot at
 * one tick is 100 USDT units (0.0001 USDT) in both. Tiers: 0.5 % maintenance up to 10,000 USDT
 * of notional (50×), then 1 % (20×).
 */
export const defaultPerpMarkets: readonly PerpMarketConfig[] = [
  {
    ...common,
    marketId: "BTC-PERP",
    instrumentId: "BTCUSDT",
    priceStep: "0.1",
    contractSize: "0.001",
    tiers: "0:50:0:50;10000000000:100:50000000:20",
  },
  {
    ...common,
    marketId: "ETH-PERP",
    instrumentId: "ETHUSDT",
    priceStep: "0.01",
    contractSize: "0.01",
    tiers: "0:50:0:50;10000000000:100:50000000:20",
  },
];

/** Fixed ids: a repeat on a later start is refused with `market_exists` and changes nothing. */
export function perpSetupCommands(
  markets: readonly PerpMarketConfig[],
): Unstamped<DefineCommand>[] {
  return markets.map((m) => ({ type: "define_perp_market", id: `setup:perp:${m.marketId}`, ...m }));
}

export interface PerpMakerGateway {
  submit(command: Unstamped<Command>): Promise<{ result: { ok: boolean } }>;
  query<T>(fn: (state: KernelState) => T): T;
}

const owner = systemOwners.marketMaker;

/**
 * The labelled market maker on the perpetual books (`system:market_maker`, as on spot): a few
 * post-only levels each side around the mark, through ordinary commands, margined from its own
 * contract wallet. Its positions and fills are like anyone's. Demo: funded once from the demo
 * faucet. Real: the kernel refuses a system owner's wallet transfer in real mode; the operator
 * funds its real contract wallet by `POST /api/v1/operator/market-maker/perp-funding` (kernel
 * `fund_perp_market_maker`), and until then it skips the real books (see decisions.md).
 */
export class PerpMarketMaker {
  private readonly quoted = new Map<string, { markTicks: bigint; atMs: number; orders: number }>();
  private running = false;
  private funded = false;

  constructor(
    private readonly gateway: PerpMakerGateway,
    private readonly options: {
      modes?: readonly Mode[];
      levels?: number;
      spreadBps?: number;
      levelStepBps?: number;
      lotsPerLevel?: number;
      requoteBps?: number;
      requoteIntervalMs?: number;
      /** Demo contract-wallet funding, USDT smallest units (default 5,000,000 USDT). */
      demoFunding?: bigint;
    } = {},
  ) {}

  /**
   * Requotes the books whose mark moved, whose quotes traded, or that are old. Calls never
   * overlap: a call while one is running does nothing (the next tick calls again).
   */
  async refresh(atMs: number): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.run(atMs);
    } catch {
      // A failed submit (journal stopped): the next tick tries again.
    } finally {
      this.running = false;
    }
  }

  private async fundDemo(): Promise<void> {
    if (this.funded) return;
    this.funded = true;
    const amount = this.options.demoFunding ?? 5_000_000_000_000n;
    const have = this.gateway.query((s) => getBalance(s, owner, "demo", "contract", "USDT"));
    if (have.available + have.held > 0n) return;
    await this.gateway.submit({
      type: "grant_demo",
      id: "perpmm:fund:demo:USDT",
      ownerId: owner,
      mode: "demo",
      assetId: "USDT",
      amount,
    });
    await this.gateway.submit({
      type: "transfer_wallet",
      id: "perpmm:transfer:demo:USDT",
      ownerId: owner,
      mode: "demo",
      assetId: "USDT",
      amount,
      sourceWallet: "fund",
      targetWallet: "contract",
    });
  }

  private async run(atMs: number): Promise<void> {
    const modes = this.options.modes ?? ["demo", "real"];
    if (modes.includes("demo")) await this.fundDemo();
    for (const mode of modes) {
      // Without margin in its contract wallet every order would only be refused (and journaled).
      const margin = this.gateway.query((s) => getBalance(s, owner, mode, "contract", "USDT"));
      if (margin.available + margin.held === 0n) continue;
      const markets = this.gateway.query((s) => getPerpMarkets(s, mode));
      for (const market of markets) {
        if (market.mark === null) continue;
        const key = `${market.marketId}|${mode}`;
        const mine = this.gateway
          .query((s) => getPerpOpenOrders(s, owner, mode))
          .filter((o) => o.marketId === market.marketId);
        const last = this.quoted.get(key);
        const mark = market.mark.markTicks;
        if (last) {
          const traded = mine.length < last.orders || mine.some((o) => o.filledLots > 0);
          const moved =
            ((mark > last.markTicks ? mark - last.markTicks : last.markTicks - mark) * 10_000n) /
            last.markTicks;
          const old = atMs - last.atMs >= (this.options.requoteIntervalMs ?? 30_000);
          if (!traded && !old && moved < BigInt(this.options.requoteBps ?? 5)) continue;
        }
        for (const o of mine) {
          await this.gateway.submit({
            type: "cancel_perp_order",
            id: `perpmm:cancel:${mode}:${o.orderId}`,
            ownerId: owner,
            mode,
            orderId: o.orderId,
          });
        }
        // An operator lowered the cap below the maker's leverage (issue 17): it follows the cap,
        // like any user must before opening more (its existing position is not touched).
        const record = this.gateway
          .query((s) => getPerpPositions(s, owner, mode))
          .find((p) => p.marketId === market.marketId);
        if (record && record.leverage > market.leverageMax) {
          await this.gateway.submit({
            type: "set_perp_leverage",
            id: `perpmm:leverage:${mode}:${market.marketId}:${atMs}`,
            ownerId: owner,
            mode,
            marketId: market.marketId,
            leverage: market.leverageMax,
          });
        }
        let placed = 0;
        const levels = this.options.levels ?? 6;
        const spread = BigInt(this.options.spreadBps ?? 10);
        const stepBps = BigInt(this.options.levelStepBps ?? 5);
        for (let k = 0; k < levels; k++) {
          for (const side of ["buy", "sell"] as const) {
            const offset = spread * 5n + BigInt(k) * stepBps * 10n; // in 0.1 bps
            const ticks =
              side === "buy"
                ? (mark * (100_000n - offset)) / 100_000n
                : (mark * (100_000n + offset) + 99_999n) / 100_000n;
            if (ticks < 1n) continue;
            const { result } = await this.gateway.submit({
              type: "place_perp_order",
              id: `perpmm:${mode}:${market.marketId}:${atMs}:${side}:${k}`,
              ownerId: owner,
              mode,
              marketId: market.marketId,
              side,
              orderType: "limit",
              timeInForce: "post_only",
              priceTicks: Number(ticks),
              quantityLots: (this.options.lotsPerLevel ?? 20) * (k + 1),
              reduceOnly: false,
            });
            if (result.ok) placed += 1;
          }
        }
        this.quoted.set(key, { markTicks: mark, atMs, orders: placed });
      }
    }
  }
}
