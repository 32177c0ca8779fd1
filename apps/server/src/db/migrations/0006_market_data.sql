-- Candles of every instrument and interval, from the simulator's backfill and the live tape.
-- Prices are integers in 10^-priceScale units of the instrument (packages/market), volumes in
-- 10^-quantityScale base units; the catalogue holds both scales.
CREATE TABLE market_candles (
  instrument_id text NOT NULL,
  interval text NOT NULL CHECK (interval IN ('1m', '5m', '15m', '1h', '4h', '1d', '1w')),
  open_ms bigint NOT NULL,
  open bigint NOT NULL CHECK (open > 0),
  high bigint NOT NULL CHECK (high > 0),
  low bigint NOT NULL CHECK (low > 0),
  close bigint NOT NULL CHECK (close > 0),
  volume bigint NOT NULL CHECK (volume >= 0),
  trades integer NOT NULL CHECK (trades >= 0),
  source text NOT NULL CHECK (source IN ('simulated', 'binance')),
  PRIMARY KEY (instrument_id, interval, open_ms)
);
