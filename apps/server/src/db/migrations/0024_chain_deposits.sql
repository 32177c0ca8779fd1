-- Issue 16 (crypto deposits and on-chain withdrawals). Each user's deposit address per network,
-- derived watch-only from the operator's extended public key at index = user id (this table
-- caches it and makes it findable by address).
CREATE TABLE chain_deposit_addresses (
  owner_id text NOT NULL,
  network text NOT NULL,
  derivation_index bigint NOT NULL,
  address text NOT NULL CHECK (address ~ '^0x[0-9a-f]{40}$'),
  created_at_ms bigint NOT NULL,
  PRIMARY KEY (owner_id, network),
  UNIQUE (network, address)
);

-- A token transfer to a deposit address, seen by the watcher. Credited exactly once: the row is
-- unique by chain, transaction hash and log index, and moves confirming → crediting (one
-- claimer) → credited; a transfer a reorganisation removed moves to dropped (and back to
-- confirming if it reappears). Amounts: token units (amount) and the asset's units (credit).
CREATE TABLE chain_deposits (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  chain_id integer NOT NULL,
  tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index integer NOT NULL CHECK (log_index >= 0),
  owner_id text NOT NULL,
  address text NOT NULL,
  token text NOT NULL,
  asset_id text NOT NULL,
  amount numeric(78,0) NOT NULL CHECK (amount > 0),
  credit_amount numeric(40,0) NOT NULL CHECK (credit_amount >= 0),
  block_number bigint NOT NULL,
  block_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('confirming', 'crediting', 'credited', 'dropped', 'below_minimum')),
  posting_seq bigint,
  seen_at_ms bigint NOT NULL,
  credited_at_ms bigint,
  UNIQUE (chain_id, tx_hash, log_index)
);
CREATE INDEX chain_deposits_owner ON chain_deposits (owner_id, id);
CREATE INDEX chain_deposits_state ON chain_deposits (chain_id, state);

-- How far the watcher has read each chain (it re-reads the last confirmations' worth of blocks
-- every round, so a reorganisation inside that depth is seen).
CREATE TABLE chain_cursors (
  chain_id integer PRIMARY KEY,
  scanned_to bigint NOT NULL
);

-- On-chain withdrawals (CHAIN_MODE=local: the operator's hot wallet in this process). The
-- signed transaction is stored before the withdrawal is marked sent and before it is
-- broadcast, so a retry or a restart re-broadcasts the same transaction (same hash) and never
-- signs a second payment for one withdrawal.
CREATE TABLE chain_withdrawal_sends (
  withdrawal_id bigint PRIMARY KEY,
  chain_id integer NOT NULL,
  tx_hash text NOT NULL UNIQUE,
  raw_tx text NOT NULL,
  nonce bigint NOT NULL,
  signed_at_ms bigint NOT NULL
);
