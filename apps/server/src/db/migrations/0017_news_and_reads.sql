-- Issue 23: news (by category and stock symbol, with a read count) and who has read which
-- notice or news item (counted once per user).
CREATE TABLE notice_reads (
  notice_id bigint NOT NULL REFERENCES notices (id),
  user_id bigint NOT NULL,
  read_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, notice_id)
);
CREATE TABLE news (
  id bigserial PRIMARY KEY,
  category text NOT NULL CHECK (category IN ('market', 'crypto', 'stocks', 'platform')),
  symbol text CHECK (symbol IS NULL OR length(symbol) BETWEEN 1 AND 32),
  published_at timestamptz NOT NULL,
  operator_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX news_published_at ON news (published_at DESC, id DESC);
CREATE INDEX news_symbol ON news (symbol, published_at DESC) WHERE symbol IS NOT NULL;
CREATE TABLE news_texts (
  news_id bigint NOT NULL REFERENCES news (id),
  locale text NOT NULL,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
  PRIMARY KEY (news_id, locale)
);
CREATE TABLE news_reads (
  news_id bigint NOT NULL REFERENCES news (id),
  user_id bigint NOT NULL,
  read_at timestamptz NOT NULL,
  PRIMARY KEY (news_id, user_id)
);
ALTER TABLE notices ADD COLUMN operator_id text;
