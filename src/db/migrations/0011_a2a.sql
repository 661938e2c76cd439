-- A2A (spec "A2A endpoint", "A2A push"): tasks per caller, place_order once per messageId, push configs and
-- their queued notifications. Times are epoch ms from the Clock.

-- One row per task. `owner` is the caller's scope (`token:<id>`, `workspace`, `person:<id>` for a grant), so a
-- token and the person who made it keep separate tasks. `task` is the task as A2A 1.0 ProtoJSON.
CREATE TABLE a2a_tasks (
  id           text PRIMARY KEY,
  owner        text NOT NULL,
  context_id   text NOT NULL,
  skill        text,                     -- the tool the task ran (or follows: place_order)
  order_id     text,                     -- the order the task follows
  state        text NOT NULL,            -- TASK_STATE_* of the current status
  status_key   text NOT NULL,            -- state and status text: the same status is never pushed twice in a row
  status_at    bigint NOT NULL,          -- the status timestamp (ListTasks sorts and pages by it)
  order_seen   bigint,                   -- orders.updated_at the status was read from (the sweep catches up later changes)
  task         jsonb NOT NULL,
  created_at   bigint NOT NULL,
  updated_at   bigint NOT NULL
);
CREATE INDEX a2a_tasks_owner_idx ON a2a_tasks (owner, status_at DESC, id DESC);
CREATE INDEX a2a_tasks_context_idx ON a2a_tasks (owner, context_id, created_at DESC);
CREATE INDEX a2a_tasks_following_idx ON a2a_tasks (order_id)
  WHERE order_id IS NOT NULL AND state NOT IN ('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED');
CREATE INDEX a2a_tasks_finished_idx ON a2a_tasks (owner, updated_at)
  WHERE state IN ('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED');

-- place_order starts one order per (caller, messageId); the fingerprint refuses the same id with another order.
CREATE TABLE a2a_placed_orders (
  owner        text NOT NULL,
  message_id   text NOT NULL,
  fingerprint  text NOT NULL,
  task_id      text NOT NULL,
  order_id     text,                     -- null while the claim's place_order runs (its transaction holds the row)
  created_at   bigint NOT NULL,
  PRIMARY KEY (owner, message_id)
);
CREATE INDEX a2a_placed_orders_task_idx ON a2a_placed_orders (task_id);

-- Push configs (at most 5 per task). Token and credentials are sealed like webhook secrets. No foreign key to
-- a2a_tasks: a config sent inline with the first message is stored before its task is.
CREATE TABLE a2a_push_configs (
  owner             text NOT NULL,
  task_id           text NOT NULL,
  id                text NOT NULL,
  url               text NOT NULL,
  token_sealed      text,
  auth_scheme       text,
  credentials_sealed text,
  wire_version      text NOT NULL CHECK (wire_version IN ('1.0', '0.3')),
  created_at        bigint NOT NULL,
  PRIMARY KEY (task_id, id)
);

-- One queued notification per status change and config; deleting the config drops what is still queued.
CREATE TABLE a2a_push_deliveries (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL,
  task_id          text NOT NULL,
  config_id        text NOT NULL,
  body             text NOT NULL,         -- the exact body sent on every attempt
  content_type     text NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  response_status  integer,
  last_error       text,
  created_at       bigint NOT NULL,
  delivered_at     bigint,
  updated_at       bigint NOT NULL,
  FOREIGN KEY (task_id, config_id) REFERENCES a2a_push_configs (task_id, id) ON DELETE CASCADE
);
CREATE INDEX a2a_push_deliveries_config_idx ON a2a_push_deliveries (task_id, config_id, seq);
CREATE INDEX a2a_push_deliveries_done_idx ON a2a_push_deliveries (updated_at) WHERE status <> 'pending';
