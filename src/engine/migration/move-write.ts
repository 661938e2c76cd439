// Writes one order's move to a new flow version (contract 15) inside the transaction that holds its lock: one statement.
//
// The orders row takes the new version, snapshot, node records and list-row labels; the waits and
// holds of the run's generation and the pending timers of renamed nodes take the new node ids. A
// timer keeps its id and due time, so the Redis (or in-process) timer index, which holds only
// (id, due time) and the order, stays right as it is. Call rows, outbox rows and earlier timeline
// entries are history and keep the ids they were made with. One chunk of timeline records the move.
import type { Queryable } from '../../db/db.js';
import { nodeMapJson } from '../runtime/node-record.js';
import { timelineInsertSql, timelineJson } from '../runtime/timeline.js';
import type { MovedRun } from './move-run.js';

export interface MoveWrite {
  orderId: string;
  generation: number;
  toVersion: number;
  moved: MovedRun;
  /** The list row's `waiting_at`: the new version's labels of the parked node(s). */
  waitingAt: string[];
  now: number;
}

/** The move's statement: renames first (data-modifying CTEs on other tables), then the orders row. */
export async function writeMove(q: Queryable, w: MoveWrite): Promise<void> {
  const renamed = Object.entries(w.moved.renamed).map(([from, to]) => ({ from, to }));
  await q.query(
    `WITH r AS (SELECT * FROM jsonb_to_recordset($3::jsonb) AS r("from" text, "to" text)),
          w AS (UPDATE order_waits x SET node_id = r."to" FROM r WHERE x.order_id = $1 AND x.generation = $2 AND x.node_id = r."from"),
          h AS (UPDATE order_holds x SET node_id = r."to" FROM r WHERE x.order_id = $1 AND x.generation = $2 AND x.node_id = r."from"),
          t AS (UPDATE timers x SET node_id = r."to" FROM r
                 WHERE x.order_id = $1 AND x.node_id = r."from" AND x.kind <> 'call.perform' AND x.fired_at IS NULL AND x.cancelled_at IS NULL),
          l AS (${timelineInsertSql('$1', '$4::json')})
     UPDATE orders SET flow_version = $5, snapshot = $6::jsonb, nodes = $7::json, waiting_at = $8::text[], updated_at = $9 WHERE id = $1`,
    [
      w.orderId,
      w.generation,
      JSON.stringify(renamed),
      JSON.stringify(timelineJson([w.moved.note])),
      w.toVersion,
      JSON.stringify(w.moved.snapshot),
      JSON.stringify(nodeMapJson(w.moved.nodes.values())),
      w.waitingAt,
      w.now,
    ],
  );
}
