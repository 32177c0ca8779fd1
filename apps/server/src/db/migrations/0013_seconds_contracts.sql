-- Issue 20: seconds contracts as the projector reads them from the kernel's events
-- (seconds_purchased, then seconds_settled with the same contract). `id` orders pages.
CREATE TABLE rm_seconds_contracts (
  id bigserial PRIMARY KEY,
  contract_id text NOT NULL UNIQUE,
  owner_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  instrument_id text NOT NULL,
  period_ms int8 NOT NULL,
  asset_id text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('up', 'down')),
  stake numeric(40,0) NOT NULL CHECK (stake > 0),
  payout_bps integer NOT NULL,
  payout_max numeric(40,0) NOT NULL,
  bought_at_ms int8 NOT NULL,
  expires_at_ms int8 NOT NULL,
  open_tick_id text NOT NULL,
  open_price text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'settled')),
  settle_tick_id text,
  settle_price text,
  settle_tick_at_ms int8,
  settled_at_ms int8,
  outcome text CHECK (outcome IN ('win', 'loss', 'tie', 'no_tick')),
  returned numeric(40,0),
  sequence int8 NOT NULL
);
CREATE INDEX rm_seconds_contracts_owner ON rm_seconds_contracts (owner_id, mode, id);
CREATE INDEX rm_seconds_contracts_settled ON rm_seconds_contracts (mode, settled_at_ms);
-- The disclosure adds up the ledger's postings of settled contracts by their reference.
CREATE INDEX rm_statement_lines_seconds ON rm_statement_lines (reference) WHERE reason LIKE 'seconds_%';
