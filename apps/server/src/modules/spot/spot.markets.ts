import type { SpotMarketView } from "@candor/contract";
import {
  getLastTick,
  getMarket,
  getMarkets,
  getMarketsOfInstrument,
  type KernelState,
  type MarketView,
} from "@candor/kernel";
import { AppError } from "../../http/app-error.ts";
import { marketView, type SpotMarketSettings } from "./spot.views.ts";

/** Reads of the kernel's spot markets, as the orders and queries services look them up. */
export class SpotMarkets {
  constructor(
    private readonly engine: { query<T>(fn: (state: KernelState) => T): T },
    private readonly settings: SpotMarketSettings,
  ) {}

  /** The market of an instrument id (`BTCUSDT`); open markets win over closed ones. */
  byInstrument(instrumentId: string): MarketView {
    // The instrument's markets only (one per order placed): not every market's view, sorted.
    const matches = this.engine.query((state) => getMarketsOfInstrument(state, instrumentId));
    const market = matches.find((m) => m.open) ?? matches[0];
    if (!market) throw new AppError("instrument_not_found");
    return market;
  }

  /** Every market id of an instrument (an instrument may have had several markets). */
  idsOfInstrument(instrumentId: string): string[] {
    const ids = this.engine
      .query((state) => getMarketsOfInstrument(state, instrumentId))
      .map((m) => m.marketId);
    if (ids.length === 0) throw new AppError("instrument_not_found");
    return ids;
  }

  byId(marketId: string): MarketView {
    const market = this.engine.query((state) => getMarket(state, marketId));
    if (!market) throw new AppError("instrument_not_found");
    return market;
  }

  /** Every market with its steps, limits, fees and last tape price. */
  views(): SpotMarketView[] {
    return this.engine.query((state) =>
      getMarkets(state).map((m) =>
        marketView(m, getLastTick(state, m.instrumentId), this.settings),
      ),
    );
  }
}
