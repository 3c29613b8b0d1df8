// One idempotency key per (user_id, key): concurrent claims of the same key serialize on this constraint.
CREATE CONSTRAINT idempotency_key_unique IF NOT EXISTS FOR (k:IdempotencyKey) REQUIRE k.id IS UNIQUE
