-- Held orders (contract 16, issue 33): a step with `onFailure: "hold"` that failed with no failure branch wired parks
-- its order here instead of rolling it back, until an operator (an agent, a batch) retries it or rolls it back.
-- One row per hold, written with the run slice that held (slice-write.ts) and closed by the one that resolved it.
CREATE TABLE order_holds (
  order_id    text NOT NULL REFERENCES orders (id),
  node_id     text NOT NULL,
  run         integer NOT NULL,               -- the node's run: a retry continues it, so a second hold has the same run
  generation  integer NOT NULL,
  number      integer NOT NULL,               -- the node's nth hold in this run (1, 2, ...): order.held's id includes it
  title       text NOT NULL,                  -- `<node label> failed: <error>`
  error       text NOT NULL,
  terminal    boolean NOT NULL,               -- a terminal failure: a rollback ends the order failed (else rolled_back)
  since       bigint NOT NULL,
  status      text NOT NULL CHECK (status IN ('open', 'retried', 'rolled_back', 'cancelled')),
  resolved_by text,
  note        text,
  closed_at   bigint,
  PRIMARY KEY (order_id, node_id, run, generation, number)
);
-- Read with the order's lock (order-lock.ts), by the parked-node filter, needs_attention and the metrics: open rows only.
CREATE INDEX order_holds_open_idx ON order_holds (order_id) WHERE status = 'open';
CREATE INDEX order_holds_open_node_idx ON order_holds (node_id, order_id) WHERE status = 'open';
CREATE INDEX order_holds_open_since_idx ON order_holds (since, order_id) WHERE status = 'open';
