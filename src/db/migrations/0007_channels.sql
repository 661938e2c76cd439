-- Inbound channels: integrations (signed inbound requests) and the receipts of delivered signed events.
-- Times are epoch ms from the Clock.

-- An integration signs requests to /api/v1/webhooks/*. Its secret must be readable to verify an
-- HMAC, so it is sealed (AES-256-GCM under a key derived from SECRET_KEY, the id as authenticated
-- data), never hashed. After a rotation the replaced secret stays valid until previous_expires_at.
CREATE TABLE integrations (
  id                      text PRIMARY KEY,        -- int_<hex>; the `k=` of a signature
  name                    text NOT NULL,
  events                  jsonb NOT NULL,          -- event names it may deliver, or ["*"]
  start_orders            boolean NOT NULL,
  flows                   jsonb NOT NULL,          -- flow ids it may name, or ["*"]
  channel                 text,                    -- null = any channel
  secret_sealed           text NOT NULL,
  previous_secret_sealed  text,
  previous_expires_at     bigint,
  created_by              text NOT NULL,
  created_at              bigint NOT NULL,
  last_used_at            bigint,
  revoked_at              bigint
);
CREATE INDEX integrations_created_idx ON integrations (created_at DESC, id DESC);

-- One row per signed event request that delivered (or is delivering) an event: a replay of the
-- same signed request inside the 5-minute window finds it and delivers nothing again.
-- `delivering` is a claim held while the engine delivers; a claim left by a crashed process is
-- taken over after a short while (see src/channels/signed/event-receipts.ts).
CREATE TABLE signed_event_receipts (
  integration_id  text NOT NULL,
  signature       text NOT NULL,                   -- the v1 hex (binds t and the raw body)
  order_id        text NOT NULL,
  event           text NOT NULL,
  state           text NOT NULL CHECK (state IN ('delivering', 'delivered')),
  node_id         text,
  claimed_at      bigint NOT NULL,
  delivered_at    bigint,
  expires_at      bigint NOT NULL,                 -- after this the request is stale anyway
  PRIMARY KEY (integration_id, signature)
);
CREATE INDEX signed_event_receipts_expires_idx ON signed_event_receipts (expires_at);
