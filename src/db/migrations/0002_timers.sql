-- Durable timers: PostgreSQL is the source of truth; the Redis/in-process index only mirrors those due soon.
-- All times are epoch milliseconds from the injected Clock (no SQL now()).
CREATE TABLE timers (
  id           text PRIMARY KEY,
  order_id     text NULL,
  kind         text NOT NULL,
  node_id      text NULL,
  run          integer NULL,
  due_at       bigint NOT NULL,
  payload      jsonb NULL,
  fired_at     bigint NULL,
  claimed_by   text NULL,
  claimed_at   bigint NULL,
  cancelled_at bigint NULL,
  created_at   bigint NOT NULL
);

-- Pending timers in due order: what seeding, the sweep, earliestDue and the fallback claim scan.
CREATE INDEX timers_pending_due_idx ON timers (due_at, id)
  WHERE fired_at IS NULL AND cancelled_at IS NULL;

-- Cancelling every timer of an order (order cancelled or finished).
CREATE INDEX timers_order_id_idx ON timers (order_id);
