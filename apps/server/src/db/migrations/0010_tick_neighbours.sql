-- The tape viewer reads an instrument's ticks around one tick, in journal order.
CREATE INDEX rm_ticks_instrument_sequence ON rm_ticks (instrument_id, sequence);
