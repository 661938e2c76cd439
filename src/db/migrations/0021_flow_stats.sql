-- Where orders spend their time (issue 35, contract section 17, docs/flow-stats.md). A background worker
-- (src/orders/flow-stats-worker.ts) reads what runs already write (the order's timeline chunks and node
-- records) and keeps aggregates per flow, version, node and hour of order creation. No slice writes here:
-- the only cost on an order's own transaction is the BRIN entry below, which is not a row per chunk.

-- The worker finds the chunks written since its cursor by id. BRIN (a min/max per block range) costs an
-- insert nothing on most inserts and the index a few pages: the chunks are appended in id order.
CREATE INDEX order_timeline_chunks_id_brin ON order_timeline_chunks USING brin (id) WITH (pages_per_range = 16, autosummarize = on);

-- The worker's durable cursor: every chunk with an id at or below `chunk_id` has been aggregated (ids above
-- it may have been too: aggregating an order again changes nothing). Locked by the pass that holds it, so
-- one node aggregates at a time.
CREATE TABLE flow_stats_cursor (
  name       text PRIMARY KEY,
  chunk_id   bigint NOT NULL,
  updated_at bigint NOT NULL
);
INSERT INTO flow_stats_cursor (name, chunk_id, updated_at) VALUES ('timeline', 0, 0);

-- What the worker has counted of each order (so counting it again adds nothing): the last chunk read, the
-- status counted, and per node { r: runs seen, n: runs counted as ended, a: counted active, s: start of the
-- active run, b: branches seen } of the current generation.
CREATE TABLE flow_stats_orders (
  order_id     text PRIMARY KEY,
  flow_id      text NOT NULL,
  flow_version integer NOT NULL,
  hour         bigint NOT NULL,
  status       text NOT NULL,
  generation   integer NOT NULL,
  last_chunk   bigint NOT NULL,
  nodes        jsonb NOT NULL
);

-- Finished runs per node and hour of order creation: counts, the longest, the durations themselves while
-- the row has at most 10,000 (exact percentiles), and log buckets of ratio 1.05 (within 5 % above beyond).
CREATE TABLE flow_stats_nodes (
  flow_id      text NOT NULL,
  flow_version integer NOT NULL,
  hour         bigint NOT NULL,
  node_id      text NOT NULL,
  runs         bigint NOT NULL,
  succeeded    bigint NOT NULL,
  failed       bigint NOT NULL,
  max_ms       bigint,
  -- null once the row holds more than 10,000 durations
  samples      bigint[],
  -- { "<bucket>": count }: bucket b holds durations in (1.05^(b-1), 1.05^b] ms; "-1" holds 0 ms
  buckets      jsonb NOT NULL,
  PRIMARY KEY (flow_id, flow_version, hour, node_id)
);

-- The same per day of order creation (UTC), so a long range reads a row per node and day, not per hour: an answer
-- takes whole days from here and the hours at its ends from flow_stats_nodes.
CREATE TABLE flow_stats_nodes_daily (
  flow_id      text NOT NULL,
  flow_version integer NOT NULL,
  day          bigint NOT NULL,
  node_id      text NOT NULL,
  runs         bigint NOT NULL,
  succeeded    bigint NOT NULL,
  failed       bigint NOT NULL,
  max_ms       bigint,
  samples      bigint[],
  buckets      jsonb NOT NULL,
  PRIMARY KEY (flow_id, flow_version, day, node_id)
);

-- Edges taken per hour of order creation.
CREATE TABLE flow_stats_edges (
  flow_id      text NOT NULL,
  flow_version integer NOT NULL,
  hour         bigint NOT NULL,
  from_node    text NOT NULL,
  to_node      text NOT NULL,
  branch       text NOT NULL,
  taken        bigint NOT NULL,
  PRIMARY KEY (flow_id, flow_version, hour, from_node, to_node, branch)
);

-- Orders by current status per hour of creation (an order moves between statuses as it runs).
CREATE TABLE flow_stats_statuses (
  flow_id      text NOT NULL,
  flow_version integer NOT NULL,
  hour         bigint NOT NULL,
  status       text NOT NULL,
  orders       bigint NOT NULL,
  PRIMARY KEY (flow_id, flow_version, hour, status)
);

-- The same without the hour: what the flows list and the waiting-orders gauge read.
CREATE TABLE flow_stats_current (
  flow_id      text NOT NULL,
  flow_version integer NOT NULL,
  status       text NOT NULL,
  orders       bigint NOT NULL,
  PRIMARY KEY (flow_id, flow_version, status)
);

-- Orders running or parked at each node now.
CREATE TABLE flow_stats_active (
  flow_id      text NOT NULL,
  flow_version integer NOT NULL,
  node_id      text NOT NULL,
  active       bigint NOT NULL,
  PRIMARY KEY (flow_id, flow_version, node_id)
);

-- Adds two bucket maps ({ "<bucket>": count }).
CREATE FUNCTION flow_stats_add_buckets(a jsonb, b jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg(k, n), '{}'::jsonb)
    FROM (SELECT k, sum(v) AS n
            FROM (SELECT key AS k, value::bigint AS v FROM jsonb_each_text(coalesce(a, '{}'::jsonb))
                  UNION ALL
                  SELECT key, value::bigint FROM jsonb_each_text(coalesce(b, '{}'::jsonb))) x
           GROUP BY k) y
$$;
