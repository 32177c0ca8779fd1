/** Tables of market data (migrations 0006, 0035). */
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
  market_history: {
    id: number;
    from_ms: bigint;
    live_start_ms: bigint;
  };
}
