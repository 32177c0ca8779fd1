-- Issue 16: transfer and quick-exchange records, written by the wallet service once the kernel
-- accepted the command (the ledger postings themselves are in rm_statement_lines). The request id
-- is the kernel command id, so a retry finds the record it made.
CREATE TABLE wallet_transfers (
  id bigserial PRIMARY KEY,
  command_id text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('wallet', 'user')),
  owner_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  asset_id text NOT NULL,
  amount numeric(40,0) NOT NULL CHECK (amount > 0),
  source_wallet text NOT NULL,
  target_wallet text NOT NULL,
  recipient_id text,
  recipient_name text,
  sender_name text,
  posting_seq bigint NOT NULL,
  at_ms bigint NOT NULL
);
CREATE INDEX wallet_transfers_owner ON wallet_transfers (owner_id, mode, id);
CREATE INDEX wallet_transfers_recipient ON wallet_transfers (recipient_id, mode, id);
CREATE TABLE wallet_exchanges (
  id bigserial PRIMARY KEY,
  quote_id text NOT NULL UNIQUE,
  owner_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  source_asset text NOT NULL,
  source_amount numeric(40,0) NOT NULL,
  target_asset text NOT NULL,
  target_amount numeric(40,0) NOT NULL,
  instrument_id text NOT NULL,
  tick_id text NOT NULL,
  price text NOT NULL,
  spread_bps integer NOT NULL,
  payment_posting_seq bigint NOT NULL,
  delivery_posting_seq bigint NOT NULL,
  quoted_at_ms bigint NOT NULL,
  expires_at_ms bigint NOT NULL,
  executed_at_ms bigint NOT NULL
);
CREATE INDEX wallet_exchanges_owner ON wallet_exchanges (owner_id, mode, id);
