-- Flow engine: flows and frozen versions, orders with their snapshot, node records, waits,
-- timeline and the outbox. Snapshots stay small: timeline and node runs live in tables.

CREATE TABLE flows (
  id                text PRIMARY KEY,
  name              text NOT NULL,
  description       text,
  model             text,
  channels          jsonb NOT NULL DEFAULT '[]',
  draft_graph       jsonb NOT NULL,
  draft_updated_at  bigint NOT NULL,
  published_version integer,
  builtin_file      text,        -- machines/<file> this flow was loaded from
  builtin_hash      text,        -- SHA-256 of that file's content when last published from it
  created_at        bigint NOT NULL,
  updated_at        bigint NOT NULL
);

CREATE TABLE flow_versions (
  flow_id     text NOT NULL REFERENCES flows (id),
  version     integer NOT NULL CHECK (version > 0),
  name        text NOT NULL,
  graph       jsonb NOT NULL,
  created_by  text NOT NULL,
  created_at  bigint NOT NULL,
  PRIMARY KEY (flow_id, version)
);

CREATE TABLE orders (
  id               text PRIMARY KEY,
  flow_id          text NOT NULL,
  flow_version     integer NOT NULL,
  model            text NOT NULL,
  channel          text NOT NULL,
  external_id      text,
  title            text,
  customer_id      text,
  contact_email    text,
  currency         text NOT NULL,
  fx_rate          numeric NOT NULL,
  subtotal_minor   bigint NOT NULL DEFAULT 0,
  tax_minor        bigint NOT NULL DEFAULT 0,
  total_minor      bigint NOT NULL DEFAULT 0,
  input            jsonb NOT NULL,
  meta             jsonb NOT NULL DEFAULT '{}',
  status           text NOT NULL,
  reason           text,
  instance_id      text NOT NULL,
  generation       integer NOT NULL DEFAULT 1,
  snapshot         jsonb,
  compiler_version integer NOT NULL,
  vars             jsonb NOT NULL DEFAULT '{}',
  rollback         jsonb,
  waiting_on       text[] NOT NULL DEFAULT '{}',
  waiting_at       text[] NOT NULL DEFAULT '{}',
  waiting_since    bigint,
  step_seq         integer NOT NULL DEFAULT 0,
  restarted_from   text,
  started          boolean NOT NULL DEFAULT false,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL
);
CREATE INDEX orders_created_idx ON orders (created_at DESC, id DESC);
CREATE INDEX orders_status_idx ON orders (status, created_at DESC, id DESC);

CREATE TABLE order_lines (
  order_id          text NOT NULL REFERENCES orders (id),
  line_no           integer NOT NULL,
  sku               text NOT NULL,
  name              text,
  qty               integer NOT NULL CHECK (qty > 0),
  unit_price_minor  bigint,
  seller_id         text,
  location_id       text,
  dropped           boolean NOT NULL DEFAULT false,
  PRIMARY KEY (order_id, line_no)
);

-- One row per node of the current run (reset by continue-as-new; history stays in the timeline).
CREATE TABLE order_nodes (
  order_id     text NOT NULL REFERENCES orders (id),
  node_id      text NOT NULL,
  status       text NOT NULL,
  runs         integer NOT NULL DEFAULT 0,
  attempt      integer NOT NULL DEFAULT 0,
  summary      text,
  output       jsonb,
  error        text,
  branches     text[] NOT NULL DEFAULT '{}',
  done_seq     integer,       -- completion order, for undo in reverse
  started_at   bigint,
  ended_at     bigint,
  PRIMARY KEY (order_id, node_id)
);

-- Open and closed waits; approval waits double as the approvals inbox.
CREATE TABLE order_waits (
  order_id     text NOT NULL REFERENCES orders (id),
  node_id      text NOT NULL,
  run          integer NOT NULL,
  generation   integer NOT NULL,
  kind         text NOT NULL,           -- approval | event | delay
  title        text,
  event        text,
  assignee     text,
  amount_minor bigint,
  deadline     bigint,
  since        bigint NOT NULL,
  status       text NOT NULL,           -- open | approved | rejected | escalated | received | timeout | elapsed | cancelled
  decided_by   text,
  note         text,
  closed_at    bigint,
  timer_id     text,
  PRIMARY KEY (order_id, node_id, run, generation)
);
CREATE INDEX order_waits_open_idx ON order_waits (order_id) WHERE status = 'open';
CREATE INDEX order_waits_inbox_idx ON order_waits (kind, status, since);

CREATE TABLE order_timeline (
  id        bigserial PRIMARY KEY,
  order_id  text NOT NULL REFERENCES orders (id),
  at        bigint NOT NULL,
  kind      text NOT NULL,
  message   text NOT NULL,
  node_id   text,
  data      jsonb
);
CREATE INDEX order_timeline_order_idx ON order_timeline (order_id, id);

-- Order events to hand to subscribers; written in the same commit as the state change.
CREATE TABLE outbox (
  id            text PRIMARY KEY,
  order_id      text NOT NULL,
  event         text NOT NULL,
  occurred_at   bigint NOT NULL,
  data          jsonb NOT NULL,
  dispatched_at bigint,
  created_at    bigint NOT NULL,
  -- Writing order: one commit's events (order.paid, order.shipped, order.completed) share created_at.
  seq           bigserial NOT NULL
);
CREATE INDEX outbox_pending_idx ON outbox (seq) WHERE dispatched_at IS NULL;

-- Recorded but not yet started orders (recovered at start and every minute).
CREATE INDEX orders_unstarted_idx ON orders (created_at) WHERE NOT started;
