-- Batches (contract 16, issue 32): one operation over many orders, as a durable job every node works on, and
-- the indexes behind the order list's new filters (flow and version, parked node, seller, SKU). docs/batches.md.

CREATE TABLE batches (
  id              text PRIMARY KEY,
  operation       text NOT NULL,                 -- cancel | deliver_event | decide_approval | restart (contract 16)
  input           jsonb NOT NULL,                -- the operation's input, as validated at start
  selection       jsonb NOT NULL,                -- { filter } or { orderIds: <count> }: how the orders were chosen
  state           text NOT NULL CHECK (state IN ('running', 'paused', 'completed', 'cancelled')),
  total           integer NOT NULL CHECK (total >= 0),
  done            integer NOT NULL DEFAULT 0,
  failed          integer NOT NULL DEFAULT 0,
  skipped         integer NOT NULL DEFAULT 0,
  rate_per_second integer NOT NULL CHECK (rate_per_second BETWEEN 1 AND 1000),
  creator         jsonb NOT NULL,                -- who started it (kind, id, role, actor): each order runs as them
  created_by      text NOT NULL,                 -- the creator's actor label (createdBy)
  created_at      bigint NOT NULL,               -- service clock, epoch ms
  finished_at     bigint,
  -- The rate cap's shared pace: when the batch's latest order began, on PostgreSQL's clock (one clock for
  -- every node). A node may begin the next only 1/rate s later (batch-claims.ts).
  last_start_at   timestamptz
);
CREATE INDEX batches_created_idx ON batches (created_at DESC, id DESC);
CREATE INDEX batches_running_idx ON batches (created_at) WHERE state = 'running';

-- One row per order of a batch, fixed at start. `state`: pending -> processing (claimed by one node, with a
-- lease) -> done | failed | skipped. The order's row version (xmin) is kept at the claim, so a node that finds
-- an expired lease can tell whether the order changed since (docs/batches.md "Exactly once").
CREATE TABLE batch_items (
  batch_id    text NOT NULL REFERENCES batches (id),
  seq         integer NOT NULL,
  order_id    text NOT NULL,
  state       text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'processing', 'done', 'failed', 'skipped')),
  error       text,
  claim       text,                              -- the claim's random id: only its holder records the outcome
  worker      text,                              -- the node's worker that claimed it last (for operators and tests)
  order_mark  text,                              -- orders.xmin when claimed (null: no such order)
  lease_until timestamptz,
  started_at  timestamptz,                       -- PostgreSQL clock when its processing began (the pace)
  finished_at timestamptz,
  PRIMARY KEY (batch_id, seq),
  CONSTRAINT batch_items_once_per_order UNIQUE (batch_id, order_id)
);
CREATE INDEX batch_items_pending_idx ON batch_items (batch_id, seq) WHERE state = 'pending';
CREATE INDEX batch_items_processing_idx ON batch_items (lease_until) WHERE state = 'processing';
CREATE INDEX batch_items_finished_idx ON batch_items (batch_id, finished_at DESC, seq DESC) WHERE finished_at IS NOT NULL;

-- Order list filters at 100,000 orders (docs/batches.md "Filters"): each key has an index the planner can start
-- from when its value is rare, while a common value walks the newest-first index and stops after a page.
CREATE INDEX orders_flow_created_idx ON orders (flow_id, flow_version, created_at DESC, id DESC);
CREATE INDEX order_lines_sku_idx ON order_lines (sku, order_id) WHERE NOT dropped;
CREATE INDEX order_lines_seller_idx ON order_lines (seller_id, order_id) WHERE NOT dropped;
CREATE INDEX order_waits_open_node_idx ON order_waits (node_id, order_id) WHERE status = 'open';
CREATE INDEX timers_retry_node_idx ON timers (node_id, order_id) WHERE kind = 'step.retry' AND fired_at IS NULL AND cancelled_at IS NULL;
