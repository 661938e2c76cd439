-- Orders REST API: idempotency keys, order documents, start details, list indexes,
-- outbound webhook subscriptions and their deliveries. Times are epoch ms from the Clock.

-- One row per Idempotency-Key: the UNIQUE constraint (not a read-then-write) makes racing
-- requests with one key start one order; the fingerprint binds the key to the body.
CREATE TABLE idempotency_keys (
  scope        text NOT NULL,            -- which start route: 'api.orders' for POST /api/v1/orders
  key          text NOT NULL,
  fingerprint  text NOT NULL,            -- hex SHA-256 of the canonical body
  -- Deferred: the key is claimed first (so racing requests wait on it), the order row follows in the same transaction.
  order_id     text NOT NULL REFERENCES orders (id) DEFERRABLE INITIALLY DEFERRED,
  created_at   bigint NOT NULL,
  CONSTRAINT idempotency_keys_scope_key_unique UNIQUE (scope, key)
);

-- Documents of an order (inbound email / PO text, later invoices); served at /docs/orders/:orderId/:documentId.
CREATE TABLE order_documents (
  id            text PRIMARY KEY,
  order_id      text NOT NULL REFERENCES orders (id),
  kind          text NOT NULL,           -- inbound | invoice | po | ...
  name          text NOT NULL,
  content_type  text NOT NULL,
  body          bytea NOT NULL,
  created_at    bigint NOT NULL
);
CREATE INDEX order_documents_order_idx ON order_documents (order_id, created_at);

-- What the start request gave beyond the order row (the run's vars change; a restart needs the originals).
CREATE TABLE order_origins (
  order_id    text PRIMARY KEY REFERENCES orders (id),
  start_vars  jsonb NOT NULL,
  started_by  text NOT NULL,
  created_at  bigint NOT NULL
);

-- List filters: newest first within one model / channel (status has orders_status_idx).
CREATE INDEX orders_model_created_idx ON orders (model, created_at DESC, id DESC);
CREATE INDEX orders_channel_created_idx ON orders (channel, created_at DESC, id DESC);

-- `q` search. With pg_trgm (shipped with the embedded server and the official images; a
-- trusted extension since PostgreSQL 13) one trigram index over the five searched fields
-- serves substring matches. Without it, prefix matches on each field use btree indexes.
-- The expression must stay identical to SEARCH_EXPRESSION in src/app/orders/order-search.ts.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE 'pg_trgm unavailable (%); order search falls back to prefix matching', SQLERRM;
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE $idx$CREATE INDEX orders_search_trgm_idx ON orders USING gin ((lower(id || E'\x1f' || coalesce(title, '') || E'\x1f' || coalesce(customer_id, '') || E'\x1f' || coalesce(contact_email, '') || E'\x1f' || coalesce(external_id, ''))) gin_trgm_ops)$idx$;
  ELSE
    CREATE INDEX orders_search_id_prefix_idx ON orders (lower(id) text_pattern_ops);
    CREATE INDEX orders_search_title_prefix_idx ON orders (lower(title) text_pattern_ops);
    CREATE INDEX orders_search_customer_prefix_idx ON orders (lower(customer_id) text_pattern_ops);
    CREATE INDEX orders_search_email_prefix_idx ON orders (lower(contact_email) text_pattern_ops);
    CREATE INDEX orders_search_external_prefix_idx ON orders (lower(external_id) text_pattern_ops);
  END IF;
END
$$;

-- Outbound webhook subscriptions; the signing secret is sealed with AES-256-GCM under a key
-- derived from SECRET_KEY (it must be readable to sign, so it cannot be a hash).
CREATE TABLE webhook_subscriptions (
  id             text PRIMARY KEY,
  url            text NOT NULL,
  events         jsonb NOT NULL,          -- list of event names, or ["*"]
  secret_sealed  text NOT NULL,
  created_by     text NOT NULL,
  created_at     bigint NOT NULL
);
CREATE INDEX webhook_subscriptions_created_idx ON webhook_subscriptions (created_at DESC, id DESC);

-- One delivery per outbox event and matching subscription; the id stays the same across retries.
CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL,    -- creation order: first attempts of one subscription and order go out in it
  subscription_id  text NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  outbox_id        text NOT NULL,
  order_id         text NOT NULL,
  event            text NOT NULL,
  body             text NOT NULL,         -- the exact JSON sent (and signed) on every attempt
  status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  response_status  integer,
  last_error       text,
  last_attempt_at  bigint,
  created_at       bigint NOT NULL,
  delivered_at     bigint,
  updated_at       bigint NOT NULL,
  CONSTRAINT webhook_deliveries_outbox_subscription_unique UNIQUE (outbox_id, subscription_id)
);
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at DESC, seq DESC);
