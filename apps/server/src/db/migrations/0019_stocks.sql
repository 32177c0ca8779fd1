-- Issue 21: stock orders and fills as the projector reads them from the kernel's events
-- (stock_order_placed, stock_order_filled, stock_order_closed). `order_id` is the kernel's.
CREATE TABLE rm_stock_orders (
  order_id int8 PRIMARY KEY,
  client_order_id text NOT NULL,
  owner_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  instrument_id text NOT NULL,
  asset_id text NOT NULL,
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  kind text NOT NULL CHECK (kind IN ('market', 'limit')),
  tif text NOT NULL CHECK (tif IN ('day', 'gtc')),
  origin text NOT NULL CHECK (origin IN ('user', 'take_profit', 'stop_loss')),
  quantity numeric(40,0) NOT NULL CHECK (quantity > 0),
  limit_price text,
  prepaid numeric(40,0) NOT NULL,
  placed_at_ms int8 NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'filled', 'cancelled', 'expired')),
  closed_at_ms int8,
  sequence int8 NOT NULL
);
CREATE INDEX rm_stock_orders_owner ON rm_stock_orders (owner_id, mode, order_id);
CREATE INDEX rm_stock_orders_client ON rm_stock_orders (client_order_id);

CREATE TABLE rm_stock_fills (
  order_id int8 PRIMARY KEY,
  owner_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  instrument_id text NOT NULL,
  asset_id text NOT NULL,
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  origin text NOT NULL,
  quantity numeric(40,0) NOT NULL,
  price text NOT NULL,
  notional numeric(40,0) NOT NULL,
  commission numeric(40,0) NOT NULL,
  stamp_duty numeric(40,0) NOT NULL,
  net numeric(40,0) NOT NULL,
  released numeric(40,0) NOT NULL,
  tick_id text NOT NULL,
  tick_price text NOT NULL,
  filled_at_ms int8 NOT NULL,
  sequence int8 NOT NULL
);
CREATE INDEX rm_stock_fills_owner ON rm_stock_fills (owner_id, mode, order_id);
