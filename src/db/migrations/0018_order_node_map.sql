-- Node records folded into the orders row (issue 19, docs/performance.md "Storage"). A waiting order kept
-- one order_nodes row per node reached, each with its row header, order id and primary-key entry; now the
-- run's records are one JSON map { nodeId: record } in the row every slice rewrites anyway: the slice
-- writes the whole map in its one orders UPDATE, and the lock read returns it with the row.
--
-- `json` (the text as written), not `jsonb`: nothing queries into the map on a hot path, and the text is
-- smaller and compresses better. With the map the row usually passes PostgreSQL's 2 KB threshold, so it
-- is stored compressed (pglz: about 3 KB of records in under 1 KB, against 1.5 KB as jsonb with lz4).
ALTER TABLE orders ADD COLUMN nodes json NOT NULL DEFAULT '{}'::json;

-- { [nodeId]: { status, runs, attempt, branches, summary?, output?, error?, doneSeq?, startedAt?, endedAt? } }:
-- a field that is null is left out.
UPDATE orders o
   SET nodes = m.nodes::json
  FROM (SELECT n.order_id,
               jsonb_object_agg(n.node_id, (
                 SELECT coalesce(jsonb_object_agg(f.key, f.value), '{}'::jsonb)
                   FROM jsonb_each(jsonb_build_object(
                          'status', n.status, 'runs', n.runs, 'attempt', n.attempt, 'branches', to_jsonb(n.branches),
                          'summary', n.summary, 'output', n.output, 'error', n.error, 'doneSeq', n.done_seq,
                          'startedAt', n.started_at, 'endedAt', n.ended_at)) AS f
                  WHERE f.value <> 'null'::jsonb)) AS nodes
          FROM order_nodes n
         GROUP BY n.order_id) m
 WHERE o.id = m.order_id;

DROP TABLE order_nodes;

-- The records as rows, with the columns the table had: for operators' SQL and the tests' checks.
CREATE VIEW order_nodes AS
SELECT o.id AS order_id,
       n.key AS node_id,
       n.value ->> 'status' AS status,
       (n.value ->> 'runs')::integer AS runs,
       (n.value ->> 'attempt')::integer AS attempt,
       n.value ->> 'summary' AS summary,
       (n.value -> 'output')::jsonb AS output,
       n.value ->> 'error' AS error,
       ARRAY(SELECT json_array_elements_text(coalesce(n.value -> 'branches', '[]'::json))) AS branches,
       (n.value ->> 'doneSeq')::integer AS done_seq,
       (n.value ->> 'startedAt')::bigint AS started_at,
       (n.value ->> 'endedAt')::bigint AS ended_at
  FROM orders o
 CROSS JOIN LATERAL json_each(o.nodes) AS n;
