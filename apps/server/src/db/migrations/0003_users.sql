-- Users sign in by e-mail, phone, wallet (EIP-4361) or as a demo-only user.
CREATE TABLE users (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('email', 'phone', 'wallet', 'demo')),
  email text UNIQUE,
  phone text UNIQUE,
  wallet_address text UNIQUE,
  demo_name text UNIQUE,
  password_hash text,
  trade_password_hash text,
  email_verified boolean NOT NULL DEFAULT false,
  nickname text NOT NULL,
  avatar integer NOT NULL DEFAULT 0,
  invite_code text NOT NULL UNIQUE,
  inviter_id bigint REFERENCES users (id),
  demo_only boolean NOT NULL DEFAULT false,
  verification text NOT NULL DEFAULT 'unverified',
  created_at timestamptz NOT NULL
);
-- User ids are what people type to send a transfer: start them at six digits.
ALTER SEQUENCE users_id_seq RESTART WITH 100001;
-- Only a hash of each bearer token is kept; a stolen table gives no usable token.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  mode text NOT NULL CHECK (mode IN ('real', 'demo')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_id ON sessions (user_id);
CREATE TABLE captchas (
  id text PRIMARY KEY,
  answer_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE TABLE email_codes (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  purpose text NOT NULL,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX email_codes_email ON email_codes (email, purpose, created_at);
CREATE TABLE login_failures (
  id bigserial PRIMARY KEY,
  account text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX login_failures_account ON login_failures (account, at);
CREATE TABLE wallet_nonces (
  nonce text PRIMARY KEY,
  address text NOT NULL,
  chain_id integer NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
-- Every e-mail the server sends, whether or not SMTP is configured: the operator's outbox.
CREATE TABLE outbox_emails (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  delivery text NOT NULL,
  created_at timestamptz NOT NULL
);
