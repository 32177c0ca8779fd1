-- Issue 4: the journal on PostgreSQL (used when DATABASE_URL is set) and kernel snapshots.
-- One row per record; `record` holds exactly the bytes of the file format (crc32, length,
-- sequence, payload). `chain_hash` is set on the last record of each committed batch:
-- SHA-256(previous chain_hash || the batch's record bytes).
CREATE TABLE journal_records (
  sequence int8 PRIMARY KEY,
  record bytea NOT NULL,
  chain_hash bytea
);
CREATE INDEX journal_records_chain ON journal_records (sequence) WHERE chain_hash IS NOT NULL;
CREATE TABLE kernel_snapshots (
  sequence int8 PRIMARY KEY,
  checksum bytea NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
