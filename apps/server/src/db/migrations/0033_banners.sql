-- Issue 17, back-office content: banners on the home page. A title, an optional link (an app
-- route or an https address), one language or every language (locale null), and a time window;
-- withdrawn_at ends it early. Publishing and withdrawing are in the operator audit log.
CREATE TABLE banners (
  id bigserial PRIMARY KEY,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
  link text CHECK (link IS NULL OR length(link) BETWEEN 1 AND 500),
  locale text,
  starts_at_ms bigint NOT NULL,
  ends_at_ms bigint,
  withdrawn_at_ms bigint,
  operator_id text,
  created_at_ms bigint NOT NULL,
  CHECK (ends_at_ms IS NULL OR ends_at_ms > starts_at_ms)
);
CREATE INDEX banners_starts ON banners (starts_at_ms DESC, id DESC);
