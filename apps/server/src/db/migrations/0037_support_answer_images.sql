-- Images in support answers (docs/back-office.md): an operator's message may carry an image,
-- the operator's own upload of purpose `support_image`. The check that only the user's side
-- carries images goes: 0034 left it unnamed, and PostgreSQL names a table's unnamed checks
-- support_messages_check, support_messages_check1, ... in order, so it is the second.
ALTER TABLE support_messages DROP CONSTRAINT support_messages_check1;
