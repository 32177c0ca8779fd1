-- Issue 15: the simulated history before the live tape is computed on demand, not stored. It is
-- a pure function of the seed, the instrument and this one row, written once by the first start:
-- the history runs from from_ms to live_start_ms (the first start's minute); candles that end
-- at or before live_start_ms are computed from the seeded simulator, later ones are stored in
-- market_candles (the live tape). A data folder that already stored its history gets
-- from_ms = live_start_ms = 0 (nothing computed).
CREATE TABLE market_history (
  id smallint PRIMARY KEY CHECK (id = 1),
  from_ms bigint NOT NULL,
  live_start_ms bigint NOT NULL,
  CHECK (from_ms <= live_start_ms)
);
