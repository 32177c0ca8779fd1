-- Issue 17 (operator half): named operators with roles, password + mandatory TOTP, their own
-- sessions (separate from user sessions) and an audit log of every operator action.

CREATE TABLE operators (
  id bigserial PRIMARY KEY,
  email text NOT NULL UNIQUE,
  display_name text NOT NULL,
  role text NOT NULL CHECK (role IN ('support', 'compliance', 'finance', 'admin')),
  password_hash text NOT NULL,
  -- TOTP is mandatory: an operator without a confirmed secret cannot open a session.
  totp_secret text NOT NULL,
  totp_confirmed_at timestamptz,
  totp_last_used_step bigint,
  disabled_at timestamptz,
  created_by bigint REFERENCES operators (id),
  created_at timestamptz NOT NULL
);

-- Operator sessions: only SHA-256 hashes of bearer tokens are kept.
CREATE TABLE operator_sessions (
  token_hash text PRIMARY KEY,
  operator_id bigint NOT NULL REFERENCES operators (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

-- Every operator action, with who, why and (when it touches one) which user.
CREATE TABLE operator_audit (
  id bigserial PRIMARY KEY,
  operator_id bigint REFERENCES operators (id),
  action text NOT NULL,
  reason text NOT NULL,
  user_id bigint,
  detail text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL
);
CREATE INDEX operator_audit_user ON operator_audit (user_id, id);
