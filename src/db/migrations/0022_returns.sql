-- Returns (contract 18, issue 36): a return is an order row of its own (flow tpl-return) linked to the order it
-- returns from; what it gives back is kept with it. docs/commerce.md "Returns".

-- The parent of a return (null for every other order). Only returns have one: lists and find_orders leave them out.
ALTER TABLE orders ADD COLUMN return_of text REFERENCES orders (id);
-- A parent's open returns: the payout hold asks for them, the return links (cancel with the parent, wake the parent)
-- sweep them. Returns that ended are read through order_returns.
CREATE INDEX orders_open_returns_idx ON orders (return_of) WHERE return_of IS NOT NULL AND status IN ('queued', 'running', 'waiting');

-- What a return gives back, fixed when it starts: the parent's lines it covers and the refund they are worth.
CREATE TABLE order_returns (
  return_id     text PRIMARY KEY REFERENCES orders (id),
  order_id      text NOT NULL REFERENCES orders (id),   -- the parent
  -- [{ lineNo, sku, sellerId, qty, amountMinor }]: lineNo is the parent's line, amountMinor that part's refund
  lines         jsonb NOT NULL,
  amount_minor  bigint NOT NULL CHECK (amount_minor >= 0),
  reason        text,
  created_at    bigint NOT NULL
);
CREATE INDEX order_returns_order_idx ON order_returns (order_id, created_at);

-- Parents held by the marketplace payout until their returns end (the return links' sweep looks for them).
CREATE INDEX order_waits_return_ended_idx ON order_waits (order_id) WHERE status = 'open' AND event = 'return.ended';

-- Idempotency-Key headers of POST /orders/:id/returns expire like those of POST /orders.
DROP INDEX IF EXISTS idempotency_keys_expiry_idx;
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (created_at)
  WHERE scope IN ('api.orders', 'api.orders.restart', 'api.orders.returns', 'agents.place_order');
