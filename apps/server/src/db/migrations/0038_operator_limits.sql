-- Editable limits (docs/back-office.md, "Limits"): the withdrawal terms, the two-approval
-- amounts, the daily transfer limits and the identity a withdrawal needs, as one document (json, not jsonb: the order of its tables is kept). The
-- first start writes the deployment's settings into it; afterwards the back office's changes
-- rule, each in the audit log with its reason. `version` counts the changes.
CREATE TABLE operator_limits (
  id smallint PRIMARY KEY CHECK (id = 1),
  limits json NOT NULL,
  version bigint NOT NULL,
  updated_at_ms bigint NOT NULL,
  updated_by text
);
