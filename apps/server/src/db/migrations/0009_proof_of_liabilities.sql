-- Proof of liabilities (issue 24): every published root, and the secret the per-user salts are
-- derived from (HMAC of the journal sequence and the user id), so a tree can be rebuilt.
CREATE TABLE proof_publications (
  sequence bigint PRIMARY KEY,
  published_at timestamptz NOT NULL,
  root_hash text NOT NULL CHECK (root_hash ~ '^[0-9a-f]{64}$'),
  root_json text NOT NULL
);
CREATE TABLE proof_secret (
  id smallint PRIMARY KEY CHECK (id = 1),
  secret text NOT NULL CHECK (secret ~ '^[0-9a-f]{64}$')
);
