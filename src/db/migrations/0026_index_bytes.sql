-- Bytes per order (issue 37): newest-first indexes built ascending, one index fewer on waits, the trigram index with a
-- smaller pending list, node records packed, the flow stats worker's copy as json.
--
-- A btree fills a page it splits at its right end to the fillfactor (90 %) and splits any other page in two halves.
-- An index on (…, created_at DESC, id DESC) receives every new order at its left end, so its pages stay about half
-- full: 155 bytes per order against 88 for the same keys ascending (5,000 orders, the measurement in
-- docs/performance.md). PostgreSQL scans an ascending index backwards for ORDER BY created_at DESC, id DESC (and
-- the row comparisons of a cursor) at the same cost, so each such index is rebuilt ascending under its own name.
DROP INDEX orders_created_idx;
CREATE INDEX orders_created_idx ON orders (created_at, id);
DROP INDEX orders_status_idx;
CREATE INDEX orders_status_idx ON orders (status, created_at, id);
DROP INDEX orders_model_created_idx;
CREATE INDEX orders_model_created_idx ON orders (model, created_at, id);
DROP INDEX orders_channel_created_idx;
CREATE INDEX orders_channel_created_idx ON orders (channel, created_at, id);
DROP INDEX orders_flow_created_idx;
CREATE INDEX orders_flow_created_idx ON orders (flow_id, flow_version, created_at, id);
DROP INDEX seller_orders_seller_idx;
CREATE INDEX seller_orders_seller_idx ON seller_orders (seller_id, created_at);
DROP INDEX audit_events_at;
CREATE INDEX audit_events_at ON audit_events (at, id);
DROP INDEX webhook_deliveries_subscription_idx;
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at, seq);
DROP INDEX a2a_tasks_owner_idx;
CREATE INDEX a2a_tasks_owner_idx ON a2a_tasks (owner, status_at, id);
DROP INDEX a2a_tasks_context_idx;
CREATE INDEX a2a_tasks_context_idx ON a2a_tasks (owner, context_id, created_at);

-- An order's open waits are found through the primary key (order_id, node_id, run, generation), whose first column
-- is the order: an order has a few waits, so the partial index on (order_id) WHERE status = 'open' only repeated it.
DROP INDEX order_waits_open_idx;

-- The order search's trigram index (migration 0006) is a GIN index, which queues new entries in a pending list and
-- merges them in batches; the list's pages stay with the index, so up to gin_pending_list_limit (4 MB by default)
-- comes on top of the entries: 1,010 bytes per order over 5,000 orders against 141 for the entries alone. A 256 kB
-- list keeps the batching (each orders UPDATE that is not HOT adds the row's trigrams again; written straight into
-- the index they cost the marketplace order's slice writes about 10 % more, docs/performance.md) at a sixteenth
-- of the pages, merged sixteen times as often.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'orders_search_trgm_idx' AND relkind = 'i') THEN
    ALTER INDEX orders_search_trgm_idx SET (gin_pending_list_limit = 256);
  END IF;
END
$$;

-- Node records packed (src/engine/runtime/node-record.ts, PackedNodeRecord): a record a slice writes from now on is
-- an array [status, runs, attempt, summary, output, error, branches, doneSeq, startedAt, took, holds, idAs] (trailing
-- nulls left out, took = endedAt - startedAt) instead of an object naming each field. Records written before keep
-- their form until their order's next slice; the view reads both, with the columns it had.
CREATE OR REPLACE VIEW order_nodes AS
SELECT o.id AS order_id,
       n.key AS node_id,
       CASE WHEN p.packed THEN n.value ->> 0 ELSE n.value ->> 'status' END AS status,
       coalesce((CASE WHEN p.packed THEN n.value ->> 1 ELSE n.value ->> 'runs' END)::integer, 0) AS runs,
       coalesce((CASE WHEN p.packed THEN n.value ->> 2 ELSE n.value ->> 'attempt' END)::integer, 0) AS attempt,
       CASE WHEN p.packed THEN n.value ->> 3 ELSE n.value ->> 'summary' END AS summary,
       nullif((CASE WHEN p.packed THEN n.value -> 4 ELSE n.value -> 'output' END)::jsonb, 'null'::jsonb) AS output,
       CASE WHEN p.packed THEN n.value ->> 5 ELSE n.value ->> 'error' END AS error,
       ARRAY(SELECT json_array_elements_text(CASE WHEN json_typeof(p.branches) = 'array' THEN p.branches ELSE '[]'::json END)) AS branches,
       (CASE WHEN p.packed THEN n.value ->> 7 ELSE n.value ->> 'doneSeq' END)::integer AS done_seq,
       (CASE WHEN p.packed THEN n.value ->> 8 ELSE n.value ->> 'startedAt' END)::bigint AS started_at,
       CASE WHEN p.packed THEN coalesce((n.value ->> 8)::bigint, 0) + (n.value ->> 9)::bigint ELSE (n.value ->> 'endedAt')::bigint END AS ended_at
  FROM orders o
 CROSS JOIN LATERAL json_each(o.nodes) AS n
 CROSS JOIN LATERAL (SELECT json_typeof(n.value) = 'array' AS packed,
                            CASE WHEN json_typeof(n.value) = 'array' THEN n.value -> 6 ELSE n.value -> 'branches' END AS branches) AS p;

-- The flow stats worker's record of what it counted of an order (migration 0021): `json`, the text as written, like
-- orders.nodes: it is read whole, never queried into, and the text of its small objects is half their jsonb.
ALTER TABLE flow_stats_orders ALTER COLUMN nodes TYPE json USING nodes::json;
