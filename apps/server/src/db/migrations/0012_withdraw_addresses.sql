-- Issue 16: the withdrawal address book. One row per saved address; the user and the address
-- are unique together (checksummed text), and a new or changed address is usable from
-- usable_from_ms on.
CREATE TABLE wallet_withdraw_addresses (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL,
  network text NOT NULL CHECK (network IN ('ethereum', 'bsc', 'cronos')),
  address text NOT NULL,
  remark text NOT NULL,
  usable_from_ms bigint NOT NULL,
  created_at_ms bigint NOT NULL,
  UNIQUE (user_id, network, address)
);
CREATE INDEX wallet_withdraw_addresses_user ON wallet_withdraw_addresses (user_id, id);
