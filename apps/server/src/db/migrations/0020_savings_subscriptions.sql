-- Issue 22: ended savings subscriptions as the projector reads them from the kernel's
-- `savings_subscription_ended` events (active ones are the kernel's). `data` is the kernel's
-- final view of the subscription as JSON, amounts as decimal strings of smallest units.
CREATE TABLE rm_savings_subscriptions (
  id bigserial PRIMARY KEY,
  subscription_id text NOT NULL,
  owner_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  plan_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('ended', 'early_redeemed')),
  ended_at_ms int8 NOT NULL,
  data text NOT NULL,
  sequence int8 NOT NULL,
  UNIQUE (subscription_id, sequence)
);
CREATE INDEX rm_savings_subscriptions_owner ON rm_savings_subscriptions (owner_id, mode, id);
CREATE INDEX rm_savings_subscriptions_id ON rm_savings_subscriptions (subscription_id);
