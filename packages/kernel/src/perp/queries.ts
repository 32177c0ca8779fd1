// Read-only views of perpetuals for the engine and server (which never read `state.perp`).

import type { DepthLevel } from "../book/types.ts";
import type { KernelState } from "../state.ts";
import type { Mode } from "../types.ts";
import { poolOf, positionView } from "./engine.ts";
import { estimatedFundingRateE8, nextFundingAtMs } from "./funding.ts";
import { marginState } from "./margin.ts";
import { notional, unrealisedPnl } from "./position.ts";
import type { PerpPositionView } from "./kernel-types.ts";
import { sideOf } from "./kernel-state.ts";

/** An open perpetual order as the kernel holds it. */
export interface PerpOrderView {
  orderId: number;
  clientOrderId: string;
  marketId: string;
  mode: Mode;
  ownerId: string;
  side: "buy" | "sell";
  orderType: "limit" | "market";
  timeInForce: "gtc" | "ioc" | "fok" | "post_only";
  priceTicks: number;
  quantityLots: number;
  filledLots: number;
  reduceOnly: boolean;
  heldAmount: bigint;
  createdAtMs: number;
}

/** The owner's positions (and records with leverage and margin mode) in every perpetual. */
export function getPerpPositions(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): PerpPositionView[] {
  const accounts = state.perp.byOwner.get(mode + "|" + ownerId) ?? [];
  return [...accounts]
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((account) => positionView(state, account));
}

/** The owner's open perpetual orders, oldest first. */
export function getPerpOpenOrders(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): PerpOrderView[] {
  const views: PerpOrderView[] = [];
  for (const account of state.perp.byOwner.get(mode + "|" + ownerId) ?? []) {
    for (const id of account.orders) {
      const o = state.perp.orders.get(id)!;
      views.push({
        orderId: o.orderId,
        clientOrderId: o.clientOrderId,
        marketId: account.side.market.params.marketId,
        mode,
        ownerId,
        side: o.side,
        orderType: o.orderType,
        timeInForce: o.timeInForce,
        priceTicks: o.priceTicks,
        quantityLots: o.quantityLots,
        filledLots: o.filledLots,
        reduceOnly: o.reduceOnly,
        heldAmount: o.heldAmount,
        createdAtMs: o.createdAtMs,
      });
    }
  }
  return views.sort((a, b) => a.orderId - b.orderId);
}

/** The mark of a perpetual in one mode and the tape tick ids it came from, or null. */
export function getPerpMark(
  state: KernelState,
  marketId: string,
  mode: Mode,
): { markTicks: bigint; indexTicks: bigint; tickIds: string[] } | null {
  const market = state.perp.markets.get(marketId);
  const mark = market === undefined ? null : sideOf(market, mode).mark;
  if (mark === null) return null;
  return { markTicks: mark.priceTicks, indexTicks: mark.indexTicks, tickIds: [...mark.tickIds] };
}

/** A perpetual market's terms and, in one mode, its mark, book top and funding estimate. */
export interface PerpMarketInfo {
  marketId: string;
  instrumentId: string;
  quoteAssetId: string;
  quoteScale: number;
  priceStep: string;
  contractSize: string;
  quantityLotsMin: number;
  quantityLotsMax: number;
  leverageMax: number;
  leverageDefault: number;
  tiers: {
    notionalFloor: bigint;
    maintenanceMarginRateBps: number;
    maintenanceAmount: bigint;
    leverageMax: number;
  }[];
  feeBpsMaker: number;
  feeBpsTaker: number;
  fundingIntervalMs: number;
  fundingCapBps: number;
  priceBandBps: number;
  liquidationFeeBps: number;
  /** Quote smallest units of one lot at one tick. */
  tickLotUnits: bigint;
  mark: { markTicks: bigint; indexTicks: bigint; tickIds: string[] } | null;
  bestBidTicks: number | null;
  bestAskTicks: number | null;
  nextFundingAtMs: number;
  /** The funding rate the premium so far gives (1e-8 units), as it would settle now. */
  estimatedFundingRateE8: bigint;
  /** Open interest: lots long (= lots short). */
  openInterestLots: bigint;
}

export function getPerpMarkets(state: KernelState, mode: Mode): PerpMarketInfo[] {
  return [...state.perp.markets.values()]
    .sort((a, b) => (a.params.marketId < b.params.marketId ? -1 : 1))
    .map((market) => {
      const p = market.params;
      const side = sideOf(market, mode);
      let openInterestLots = 0n;
      for (const account of side.accounts.values()) {
        if (account.position.sizeLots > 0n) openInterestLots += account.position.sizeLots;
      }
      return {
        marketId: p.marketId,
        instrumentId: p.instrumentId,
        quoteAssetId: p.quoteAssetId,
        quoteScale: p.quoteScale,
        priceStep: p.priceStep,
        contractSize: p.contractSize,
        quantityLotsMin: p.quantityLotsMin,
        quantityLotsMax: p.quantityLotsMax,
        leverageMax: p.leverageMax,
        leverageDefault: p.leverageDefault,
        tiers: p.tiers.map((t) => ({ ...t })),
        feeBpsMaker: p.feeBpsMaker,
        feeBpsTaker: p.feeBpsTaker,
        fundingIntervalMs: p.fundingIntervalMs,
        fundingCapBps: p.fundingCapBps,
        priceBandBps: p.priceBandBps,
        liquidationFeeBps: p.liquidationFeeBps,
        tickLotUnits: p.tickLotUnits,
        mark:
          side.mark === null
            ? null
            : {
                markTicks: side.mark.priceTicks,
                indexTicks: side.mark.indexTicks,
                tickIds: [...side.mark.tickIds],
              },
        bestBidTicks: side.book.bestPrice("buy") ?? null,
        bestAskTicks: side.book.bestPrice("sell") ?? null,
        nextFundingAtMs: nextFundingAtMs(p, state.nowMs),
        estimatedFundingRateE8: estimatedFundingRateE8(
          p,
          side.premiumSamples,
          side.fundingStartMs,
          state.nowMs,
        ),
        openInterestLots,
      };
    });
}

/** A position with the figures of spec §3 at the current mark (quote smallest units). */
export interface PerpPositionFigures extends PerpPositionView {
  markTicks: bigint | null;
  markTickIds: string[];
  /** Quote smallest units of one lot at one tick (to turn ticks × lots into money). */
  tickLotUnits: bigint;
  notional: bigint;
  unrealisedPnl: bigint;
  /** Pool collateral + unrealised PnL: the position's margin (isolated) or the account's. */
  equity: bigint;
  maintenance: bigint;
  /** Maintenance / equity, basis points (null: equity ≤ 0). */
  marginRatioBps: bigint | null;
}

/** The owner's positions with their figures at each market's mark. */
export function getPerpPositionFigures(
  state: KernelState,
  ownerId: string,
  mode: Mode,
): PerpPositionFigures[] {
  const accounts = state.perp.byOwner.get(mode + "|" + ownerId) ?? [];
  return [...accounts]
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((account) => {
      const params = account.side.market.params;
      const mark = account.side.mark;
      const view = positionView(state, account);
      const u = params.tickLotUnits;
      if (mark === null || account.position.sizeLots === 0n) {
        return {
          ...view,
          markTicks: mark?.priceTicks ?? null,
          markTickIds: mark ? [...mark.tickIds] : [],
          tickLotUnits: u,
          notional: 0n,
          unrealisedPnl: 0n,
          equity: account.margin,
          maintenance: 0n,
          marginRatioBps: null,
        };
      }
      const figures = marginState(
        params,
        account.position,
        poolOf(state, account),
        mark.priceTicks,
      );
      return {
        ...view,
        markTicks: mark.priceTicks,
        markTickIds: [...mark.tickIds],
        tickLotUnits: u,
        notional: notional(account.position.sizeLots, mark.priceTicks, u),
        unrealisedPnl: unrealisedPnl(account.position, mark.priceTicks, u),
        equity: figures.equity,
        maintenance: figures.maintenance,
        marginRatioBps: figures.marginRatioBps,
      };
    });
}

/** Up to `levels` price levels per side of a perpetual's book in one mode, best first. */
export function getPerpDepth(
  state: KernelState,
  marketId: string,
  mode: Mode,
  levels: number,
): { bids: DepthLevel[]; asks: DepthLevel[] } | undefined {
  const market = state.perp.markets.get(marketId);
  if (market === undefined) return undefined;
  const book = sideOf(market, mode).book;
  return {
    bids: book.depth("buy", levels).map((level) => ({ ...level })),
    asks: book.depth("sell", levels).map((level) => ({ ...level })),
  };
}
