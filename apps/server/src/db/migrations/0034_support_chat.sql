-- Issue 23, customer support chat: one conversation per user, or per signed-out visitor who gave
-- an e-mail (the answer is e-mailed too; the browser keeps the conversation token, of which only
-- the SHA-256 is stored). Messages are text or an image of the uploads module (purpose
-- support_image, owner-only). Each side keeps a read position: the unread count of a side is the
-- other side's messages after it.
CREATE TABLE support_conversations (
  id bigserial PRIMARY KEY,
  user_id bigint UNIQUE REFERENCES users (id),
  visitor_email text CHECK (visitor_email IS NULL OR length(visitor_email) BETWEEN 3 AND 254),
  visitor_token_hash text UNIQUE CHECK (visitor_token_hash IS NULL OR visitor_token_hash ~ '^[0-9a-f]{64}$'),
  visitor_locale text,
  user_read_up_to bigint NOT NULL DEFAULT 0,
  operator_read_up_to bigint NOT NULL DEFAULT 0,
  created_at_ms bigint NOT NULL,
  updated_at_ms bigint NOT NULL,
  CHECK ((user_id IS NULL) = (visitor_token_hash IS NOT NULL)),
  CHECK ((visitor_token_hash IS NULL) = (visitor_email IS NULL))
);
CREATE INDEX support_conversations_updated ON support_conversations (updated_at_ms DESC, id DESC);
CREATE TABLE support_messages (
  id bigserial PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES support_conversations (id),
  side text NOT NULL CHECK (side IN ('user', 'operator')),
  text text CHECK (text IS NULL OR length(text) BETWEEN 1 AND 2000),
  upload_id text REFERENCES uploads (id),
  operator_id text,
  client_message_id text NOT NULL,
  sent_at_ms bigint NOT NULL,
  CHECK (text IS NOT NULL OR upload_id IS NOT NULL),
  CHECK (side = 'user' OR upload_id IS NULL),
  UNIQUE (conversation_id, side, client_message_id)
);
CREATE INDEX support_messages_conversation ON support_messages (conversation_id, id);
ALTER TABLE uploads DROP CONSTRAINT uploads_purpose_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_purpose_check
  CHECK (purpose IN ('bank_deposit_proof', 'identity_document', 'avatar', 'support_image'));
