-- Issue 17 (user half): two-factor sign-in (TOTP), session descriptions for the security
-- centre, and identity verification (basic and advanced tiers) reviewed by an operator.

-- One TOTP secret per user. `confirmed_at` null means enrolment was started but no code has
-- been entered yet: sign-in does not ask for a code until it is set. `last_used_step` refuses a
-- code replayed within its 30-second window; failures lock code entry for a while.
CREATE TABLE user_totp (
  user_id bigint PRIMARY KEY REFERENCES users (id),
  secret text NOT NULL,
  confirmed_at timestamptz,
  last_used_step bigint,
  failed_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  created_at timestamptz NOT NULL
);
-- Single-use recovery codes: only SHA-256 hashes are kept.
CREATE TABLE user_recovery_codes (
  user_id bigint NOT NULL REFERENCES users (id),
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- What the security centre shows of a session: the device as its browser named itself, the
-- address it signed in from and when it was last used.
ALTER TABLE sessions ADD COLUMN user_agent text;
ALTER TABLE sessions ADD COLUMN ip text;
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz;

-- A user's identity submissions, newest last. A basic submission carries the identity fields,
-- an advanced one the uploaded document images. Each is decided once by an operator.
CREATE TABLE identity_submissions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  tier text NOT NULL CHECK (tier IN ('basic', 'advanced')),
  country text,
  real_name text,
  id_type text CHECK (id_type IN ('id_card', 'driving_licence', 'passport')),
  id_number text,
  front_upload_id text REFERENCES uploads (id),
  back_upload_id text REFERENCES uploads (id),
  selfie_upload_id text REFERENCES uploads (id),
  state text NOT NULL CHECK (state IN ('under_review', 'passed', 'not_approved')),
  reject_reason text,
  operator_id text,
  created_at_ms bigint NOT NULL,
  decided_at_ms bigint
);
CREATE INDEX identity_submissions_user ON identity_submissions (user_id, id);
CREATE INDEX identity_submissions_state ON identity_submissions (state, id);
-- At most one submission under review per user and tier.
CREATE UNIQUE INDEX identity_submissions_one_open
  ON identity_submissions (user_id, tier) WHERE state = 'under_review';
