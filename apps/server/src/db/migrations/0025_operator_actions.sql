-- Issue 17 (operator actions): frozen users, and manual adjustments that wait for a second
-- operator. An operator action's audit entry is in operator_audit (0014).

-- A frozen user cannot sign in and every session ends; unfreezing clears these.
ALTER TABLE users ADD COLUMN frozen_at timestamptz;
ALTER TABLE users ADD COLUMN frozen_by text;
ALTER TABLE users ADD COLUMN frozen_reason text;

-- A manual adjustment (an operator deposit to a user) above the configured amount waits here
-- until a second, different operator approves it; only then is the kernel command issued, and
-- it names both operators. Approved, rejected and credited requests stay as the record.
CREATE TABLE operator_adjustments (
  id bigserial PRIMARY KEY,
  -- The operator deposit's idempotency key (`body.id`): one request per key.
  request_key text NOT NULL UNIQUE,
  owner_id bigint NOT NULL,
  asset_id text NOT NULL,
  amount text NOT NULL,
  reference text NOT NULL,
  reason text NOT NULL,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'credited', 'rejected')),
  decided_by text,
  decided_reason text,
  decided_at timestamptz,
  posting_seq bigint,
  sequence text
);
CREATE INDEX operator_adjustments_status ON operator_adjustments (status, id);
CREATE INDEX operator_adjustments_owner ON operator_adjustments (owner_id, id);
