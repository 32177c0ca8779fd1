/** Tables of market data (migration 0006). */
export interface MarketTables {
  market_candles: {
    instrument_id: string;
    interval: string;
    open_ms: bigint;
    open: bigint;
    high: bigint;
    low: bigint;
    close: bigint;
    volume: bigint;
    trades: number;
    source: string;
  };
}
