-- Flow impact (contract 14, issue 31): the live orders of a flow version by the node where each stands, counted
-- from the unfinished orders only (src/engine/runtime/live-orders-at-nodes.ts), without reading finished ones.
CREATE INDEX orders_live_node_idx ON orders (flow_id, flow_version, (snapshot->>'value')) WHERE status IN ('queued', 'running', 'waiting');
