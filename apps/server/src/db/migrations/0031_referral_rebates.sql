-- Issue 23: rebates paid to inviters, as the projector reads them from the kernel's
-- `referral_rebate` events (the money itself moved in the kernel, fee account → inviter).
-- Amounts are smallest units. A read model: rebuilt from the journal like the others.
CREATE TABLE rm_referral_rebates (
  posting_seq int8 PRIMARY KEY,
  inviter_id text NOT NULL,
  invitee_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  product text NOT NULL CHECK (product IN ('spot', 'perp', 'stocks')),
  asset_id text NOT NULL,
  fee numeric(40,0) NOT NULL,
  rebate numeric(40,0) NOT NULL CHECK (rebate > 0 AND rebate <= fee),
  at_ms int8 NOT NULL,
  sequence int8 NOT NULL
);
CREATE INDEX rm_referral_rebates_inviter ON rm_referral_rebates (inviter_id, mode, at_ms);
