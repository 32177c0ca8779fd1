-- Issue 23 (agents): the fees team members paid while agent levels existed and the agent's
-- rebate out of each, as the projector reads them from the kernel's `agent_fee` events (the
-- money itself moved in the kernel, fee account → agent). Smallest units. A read model: rebuilt
-- from the journal like the others. Agent levels and their history are read from the kernel.
CREATE TABLE rm_agent_fees (
  fee_id int8 PRIMARY KEY,
  agent_id text NOT NULL,
  member_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  product text NOT NULL CHECK (product IN ('spot', 'perp', 'stocks')),
  asset_id text NOT NULL,
  fee numeric(40,0) NOT NULL CHECK (fee > 0),
  referral_rebate numeric(40,0) NOT NULL CHECK (referral_rebate >= 0),
  rebate numeric(40,0) NOT NULL CHECK (rebate >= 0 AND rebate + referral_rebate <= fee),
  level int4 NOT NULL,
  at_ms int8 NOT NULL,
  sequence int8 NOT NULL
);
CREATE INDEX rm_agent_fees_agent ON rm_agent_fees (agent_id, mode, at_ms);
