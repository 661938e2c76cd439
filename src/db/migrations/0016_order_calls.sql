-- External calls (issue 20): every attempt of an external step's request, recorded before it is made.
-- The request is made outside the order's transaction and lock; its answer comes back as a command.
-- A `call.perform` timer (id `call:<id>`) is the durable wake-up: the executor leases it by moving
-- its due_at past the request's timeout, so a crash repeats the call with the same idempotency key.
CREATE TABLE order_calls (
  id text PRIMARY KEY,
  order_id text NOT NULL,
  generation int NOT NULL,
  node_id text NOT NULL,
  run int NOT NULL,
  -- 'step' (the node's call) or 'undo' (a compensating call on rollback or cancel).
  purpose text NOT NULL,
  attempt int NOT NULL,
  idempotency_key text NOT NULL,
  request jsonb NOT NULL,
  -- pending -> answered (the run used it) | late (the run had moved on: recorded, changed nothing)
  status text NOT NULL DEFAULT 'pending',
  answer jsonb,
  created_at bigint NOT NULL,
  answered_at bigint
);

CREATE INDEX order_calls_order_idx ON order_calls (order_id);
