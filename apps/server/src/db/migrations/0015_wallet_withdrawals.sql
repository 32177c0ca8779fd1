-- Issue 16: withdrawals. The record is written first, as 'requested', keyed by the kernel
-- command id (which is also the kernel's withdrawal id); the kernel's hold follows. A crash in
-- between leaves a 'requested' row that the service settles from the kernel's own state (held
-- → 'pending'; never held → removed), so no accepted request is lost and none is invented.
CREATE TABLE wallet_withdrawals (
  id bigserial PRIMARY KEY,
  command_id text NOT NULL UNIQUE,
  user_id bigint NOT NULL,
  asset_id text NOT NULL,
  network text NOT NULL CHECK (network IN ('ethereum', 'bsc', 'cronos')),
  address_id bigint NOT NULL,
  address text NOT NULL,
  amount numeric(40,0) NOT NULL CHECK (amount > 0),
  fee numeric(40,0) NOT NULL CHECK (fee >= 0),
  status text NOT NULL CHECK (status IN ('requested', 'pending', 'approved', 'sent', 'completed',
    'rejected', 'cancelled')),
  approvals_required integer NOT NULL CHECK (approvals_required IN (1, 2)),
  tx_hash text,
  reject_reason text,
  posting_seq bigint,
  requested_at_ms bigint NOT NULL,
  updated_at_ms bigint NOT NULL
);
CREATE INDEX wallet_withdrawals_user ON wallet_withdrawals (user_id, id);
CREATE INDEX wallet_withdrawals_status ON wallet_withdrawals (status, id);
-- Every step of a withdrawal, with the operator's id on operator steps.
CREATE TABLE wallet_withdrawal_steps (
  id bigserial PRIMARY KEY,
  withdrawal_id bigint NOT NULL REFERENCES wallet_withdrawals (id),
  status text NOT NULL,
  operator_id text,
  detail text,
  at_ms bigint NOT NULL
);
CREATE INDEX wallet_withdrawal_steps_withdrawal ON wallet_withdrawal_steps (withdrawal_id, id);
-- One approval per operator per withdrawal: the second must come from a different operator.
CREATE UNIQUE INDEX wallet_withdrawal_steps_approval ON wallet_withdrawal_steps
  (withdrawal_id, operator_id) WHERE status = 'approved';
