-- Each start of the server leaves a row, so an operator can see restarts and reuse of a data folder.
CREATE TABLE server_starts (
  id serial PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  version text NOT NULL
);
