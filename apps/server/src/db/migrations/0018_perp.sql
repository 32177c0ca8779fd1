-- Issue 19: perpetual contracts as the projector reads them from the kernel's events.
-- Orders: from the placing command and its result (place, close, reverse), or from the first
-- fill of an order the kernel placed itself (close all, take-profit / stop-loss, liquidation);
-- perp_order_done finishes them. Prices in ticks and amounts in the quote's smallest units:
-- the service formats them with the market's terms.
CREATE TABLE rm_perp_orders (
  order_id int8 PRIMARY KEY,
  client_order_id text NOT NULL,
  owner_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  market_id text NOT NULL,
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  order_type text NOT NULL CHECK (order_type IN ('limit', 'market')),
  time_in_force text NOT NULL,
  price_ticks int8,
  quantity_lots int8 NOT NULL,
  filled_lots int8 NOT NULL,
  reduce_only boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'filled', 'cancelled', 'expired')),
  created_at_ms int8 NOT NULL,
  sequence int8 NOT NULL,
  updated_sequence int8 NOT NULL
);
CREATE INDEX rm_perp_orders_owner ON rm_perp_orders (owner_id, mode, order_id);

-- Fills (one row per side), forced events (liquidation, takeover, ADL, cover, TP/SL trigger)
-- and funding payments of each owner, each with the tape tick ids it used (JSON array) and its
-- figures (JSON, bigints as decimal strings). `ref` makes a row unique within its command.
CREATE TABLE rm_perp_records (
  id bigserial PRIMARY KEY,
  owner_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  market_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('fill', 'forced', 'funding')),
  ref text NOT NULL,
  sequence int8 NOT NULL,
  at_ms int8 NOT NULL,
  tick_ids text NOT NULL,
  data text NOT NULL,
  UNIQUE (sequence, kind, owner_id, ref)
);
CREATE INDEX rm_perp_records_owner ON rm_perp_records (owner_id, mode, kind, id);
-- The disclosure adds up each account's perpetual postings of the last 90 days.
CREATE INDEX rm_statement_lines_perp ON rm_statement_lines (mode, at_ms) WHERE reason LIKE 'perp_%';
