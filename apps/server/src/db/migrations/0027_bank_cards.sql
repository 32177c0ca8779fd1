-- Issue 16: bank cards (spec: cardholder name, bank name, branch, account or card number) and
-- withdrawals to them. A bank-card withdrawal is a row of wallet_withdrawals with network
-- 'bank', paid from the fiat wallet; address_id is the card's id and address its masked number,
-- and the payee's details are copied onto the withdrawal so the operator can still pay it after
-- the user deletes the card. The bank's payment reference goes in tx_hash.
CREATE TABLE wallet_bank_cards (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL,
  cardholder text NOT NULL,
  bank_name text NOT NULL,
  branch text NOT NULL,
  card_number text NOT NULL,
  created_at_ms bigint NOT NULL,
  UNIQUE (user_id, card_number)
);
CREATE INDEX wallet_bank_cards_user ON wallet_bank_cards (user_id, id);

ALTER TABLE wallet_withdrawals DROP CONSTRAINT wallet_withdrawals_network_check;
ALTER TABLE wallet_withdrawals ADD CONSTRAINT wallet_withdrawals_network_check
  CHECK (network IN ('ethereum', 'bsc', 'cronos', 'bank'));
ALTER TABLE wallet_withdrawals ADD COLUMN wallet text NOT NULL DEFAULT 'fund'
  CHECK (wallet IN ('fund', 'fiat'));
ALTER TABLE wallet_withdrawals ADD COLUMN payee_cardholder text;
ALTER TABLE wallet_withdrawals ADD COLUMN payee_bank_name text;
ALTER TABLE wallet_withdrawals ADD COLUMN payee_branch text;
ALTER TABLE wallet_withdrawals ADD COLUMN payee_card_number text;
