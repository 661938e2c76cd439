-- Idempotency-Key headers expire (docs/api.md): the purge finds the old keys of the client-key scopes by age.
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (created_at) WHERE scope IN ('api.orders', 'api.orders.restart', 'agents.place_order');
