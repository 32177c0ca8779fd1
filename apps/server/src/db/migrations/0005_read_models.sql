-- Issue 4: read models projected from the kernel's events (rebuildable from the journal with
-- `npm run rebuild-read-models`). Amounts are numeric(40,0) counts of smallest units.
CREATE TABLE read_model_cursor (
  name text PRIMARY KEY,
  sequence int8 NOT NULL
);
CREATE TABLE rm_orders (
  order_id int8 PRIMARY KEY,
  client_order_id text,
  owner_id text,
  mode text,
  market_id text,
  side text,
  order_type text,
  time_in_force text,
  price_ticks int8,
  quantity_lots int8,
  filled_lots int8 NOT NULL DEFAULT 0,
  remaining_lots int8,
  status text NOT NULL,
  created_at_ms int8,
  sequence int8 NOT NULL,
  updated_sequence int8 NOT NULL
);
CREATE INDEX rm_orders_owner ON rm_orders (owner_id, mode, order_id);
CREATE TABLE rm_fills (
  fill_id int8 PRIMARY KEY,
  sequence int8 NOT NULL,
  market_id text NOT NULL,
  mode text NOT NULL,
  maker_order_id int8 NOT NULL,
  taker_order_id int8 NOT NULL,
  maker_owner_id text NOT NULL,
  taker_owner_id text NOT NULL,
  taker_side text NOT NULL,
  price_ticks int8 NOT NULL,
  quantity_lots int8 NOT NULL,
  base_amount numeric(40,0) NOT NULL,
  quote_amount numeric(40,0) NOT NULL,
  fee_maker numeric(40,0) NOT NULL,
  fee_maker_asset_id text NOT NULL,
  fee_taker numeric(40,0) NOT NULL,
  fee_taker_asset_id text NOT NULL,
  tick_id text,
  at_ms int8 NOT NULL
);
CREATE INDEX rm_fills_sequence ON rm_fills (sequence);
CREATE INDEX rm_fills_maker ON rm_fills (maker_owner_id, fill_id);
CREATE INDEX rm_fills_taker ON rm_fills (taker_owner_id, fill_id);
CREATE TABLE rm_statement_lines (
  posting_seq int8 NOT NULL,
  account text NOT NULL,
  owner_id text NOT NULL,
  mode text NOT NULL,
  wallet text NOT NULL,
  asset_id text NOT NULL,
  amount numeric(40,0) NOT NULL,
  from_held boolean NOT NULL,
  reason text NOT NULL,
  command_id text NOT NULL,
  sequence int8 NOT NULL,
  at_ms int8 NOT NULL,
  order_id int8,
  fill_id int8,
  tick_id text,
  operator_id text,
  reference text,
  PRIMARY KEY (posting_seq, account)
);
CREATE INDEX rm_statement_owner ON rm_statement_lines (owner_id, mode, asset_id, posting_seq);
CREATE TABLE rm_ticks (
  instrument_id text NOT NULL,
  tick_id text NOT NULL,
  price text NOT NULL,
  tick_at_ms int8 NOT NULL,
  recorded_at_ms int8 NOT NULL,
  sequence int8 NOT NULL,
  PRIMARY KEY (instrument_id, tick_id)
);
CREATE INDEX rm_ticks_sequence ON rm_ticks (sequence);
