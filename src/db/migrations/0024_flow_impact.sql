-- Flow impact (contract 14, issue 31): the unfinished orders of a flow version, counted by the node where each stands
-- (src/engine/runtime/live-orders-at-nodes.ts), found without reading the version's finished orders. The node itself
-- (snapshot->>'value') stays out of the index: a slice that leaves the status as it was (a wait to the next wait) then
-- changes no indexed column and can stay a HOT update; the count reads each live order's snapshot from the row.
CREATE INDEX orders_live_version_idx ON orders (flow_id, flow_version) WHERE status IN ('queued', 'running', 'waiting');
