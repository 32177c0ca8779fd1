-- Issue 17, product configuration: the per-country product switches, edited in the back office.
-- One row per country and product not offered there. COUNTRY_PRODUCT_BLOCKS seeds the table on
-- the first start after this migration (the marker row in product_config_seeds); from then on the
-- table rules and the setting is no longer read. Every change is in the operator audit log.
CREATE TABLE country_product_blocks (
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  product text NOT NULL CHECK (product IN ('perp', 'seconds', 'stocks', 'savings', 'loans')),
  PRIMARY KEY (country, product)
);

CREATE TABLE product_config_seeds (
  name text PRIMARY KEY,
  seeded_at_ms bigint NOT NULL
);
