-- Issue 16 (bank deposits) and later issue 17 (identity documents): uploaded images, stored as
-- re-encoded files under UPLOADS_DIR with the random id as their name; this table says whose
-- they are and what for. The client's file name and declared type are never recorded.
CREATE TABLE uploads (
  id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
  owner_id text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('bank_deposit_proof', 'identity_document')),
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  byte_size integer NOT NULL CHECK (byte_size > 0),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  sha256 text NOT NULL,
  created_at_ms bigint NOT NULL
);
CREATE INDEX uploads_owner ON uploads (owner_id, created_at_ms);

-- A user's request to have a bank transfer credited. Nothing credits by itself: an operator
-- moves it pending → crediting → credited (the ledger's posting is `bank_deposit:<id>`) or
-- pending → rejected with a reason. A proof image backs one request only.
CREATE TABLE bank_deposits (
  id bigserial PRIMARY KEY,
  owner_id text NOT NULL,
  asset_id text NOT NULL,
  amount numeric(40,0) NOT NULL CHECK (amount > 0),
  proof_upload_id text NOT NULL UNIQUE REFERENCES uploads (id),
  state text NOT NULL CHECK (state IN ('pending', 'crediting', 'credited', 'rejected')),
  reject_reason text,
  posting_seq bigint,
  operator_id text,
  created_at_ms bigint NOT NULL,
  decided_at_ms bigint
);
CREATE INDEX bank_deposits_owner ON bank_deposits (owner_id, id);
CREATE INDEX bank_deposits_state ON bank_deposits (state, id);
