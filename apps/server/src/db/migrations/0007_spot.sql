-- Issue 8: a client order id (the place_order command id) finds its order after the kernel's
-- idempotency window, so a late retry still returns the first result. Not unique: the read
-- model must accept whatever the journal holds.
CREATE INDEX rm_orders_client_order_id ON rm_orders (client_order_id);
