-- Issue 17 (user half, second part): country of residence with its history, the anti-phishing
-- code shown in every e-mail, sign-in history, and uploaded avatars.

-- ISO 3166-1 alpha-2; null until the user picks one (wallet users and older accounts).
ALTER TABLE users ADD COLUMN country text CHECK (country ~ '^[A-Z]{2}$');
-- Shown at the top of every e-mail Candor sends the user, so a forged e-mail lacks it.
ALTER TABLE users ADD COLUMN anti_phishing_code text;
-- An uploaded avatar (owner-only image of the uploads module); null: the preset `avatar`.
ALTER TABLE users ADD COLUMN avatar_upload_id text REFERENCES uploads (id);

-- Every change of a user's country of residence, first choice included; operators read it.
CREATE TABLE user_country_history (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  from_country text,
  to_country text NOT NULL,
  -- registration: chosen when signing up; user: changed by the user (with a reason).
  source text NOT NULL CHECK (source IN ('registration', 'user')),
  reason text,
  created_at timestamptz NOT NULL
);
CREATE INDEX user_country_history_user ON user_country_history (user_id, id);

-- Every sign-in of a known user, failed attempts included. Only a masked address is kept.
CREATE TABLE sign_in_history (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  at timestamptz NOT NULL,
  method text NOT NULL CHECK (method IN ('password', 'wallet', 'register', 'demo')),
  succeeded boolean NOT NULL,
  -- Why a failed attempt failed: password, two_factor.
  failure text,
  user_agent text,
  ip_masked text
);
CREATE INDEX sign_in_history_user ON sign_in_history (user_id, id);

-- Avatars are uploads too (owner-only, checked and re-encoded like every upload).
ALTER TABLE uploads DROP CONSTRAINT uploads_purpose_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_purpose_check
  CHECK (purpose IN ('bank_deposit_proof', 'identity_document', 'avatar'));
