-- Issue 19 (conditional orders everywhere): spot stop, take-profit and OCO orders as the kernel
-- reports them (conditional_accepted / conditional_triggered / conditional_done), so history
-- shows the trigger price, how each one ended and the tape tick that fired it.
CREATE TABLE rm_spot_conditional_orders (
  order_id int8 PRIMARY KEY,
  client_order_id text NOT NULL,
  owner_id text NOT NULL,
  mode text NOT NULL,
  market_id text NOT NULL,
  side text NOT NULL,
  kind text NOT NULL,
  order_type text NOT NULL,
  time_in_force text NOT NULL,
  trigger_ticks int8 NOT NULL,
  price_ticks int8,
  quantity_lots int8,
  quote_amount text,
  self_trade_mode text NOT NULL,
  oco_order_id int8,
  status text NOT NULL,
  reason text,
  tick_id text,
  tick_price text,
  result_order_id int8,
  reject_code text,
  created_at_ms int8 NOT NULL,
  done_at_ms int8,
  sequence int8 NOT NULL,
  updated_sequence int8 NOT NULL
);
CREATE INDEX rm_spot_conditional_orders_owner
  ON rm_spot_conditional_orders (owner_id, mode, order_id);
