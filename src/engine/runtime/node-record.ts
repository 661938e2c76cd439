// Per-node records of the current run (order_nodes): status, runs, output, error, branches taken.
import type { Queryable } from '../../db/db.js';

export type NodeStatus = 'pending' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'skipped' | 'rolled_back';

export interface NodeRecord {
  nodeId: string;
  status: NodeStatus;
  runs: number;
  attempt: number;
  summary: string | null;
  output: unknown;
  error: string | null;
  branches: string[];
  doneSeq: number | null;
  startedAt: number | null;
  endedAt: number | null;
}

export function emptyNodeRecord(nodeId: string): NodeRecord {
  return { nodeId, status: 'pending', runs: 0, attempt: 0, summary: null, output: null, error: null, branches: [], doneSeq: null, startedAt: null, endedAt: null };
}

/** A node record from an `order_nodes` row. */
export function toNodeRecord(r: any): NodeRecord {
  return {
    nodeId: r.node_id,
    status: r.status,
    runs: r.runs,
    attempt: r.attempt,
    summary: r.summary,
    output: r.output,
    error: r.error,
    branches: r.branches ?? [],
    doneSeq: r.done_seq,
    startedAt: r.started_at === null ? null : Number(r.started_at),
    endedAt: r.ended_at === null ? null : Number(r.ended_at),
  };
}

export async function loadNodeRecords(q: Queryable, orderId: string): Promise<Map<string, NodeRecord>> {
  const { rows } = await q.query('SELECT * FROM order_nodes WHERE order_id = $1', [orderId]);
  return new Map(rows.map((r) => [r.node_id, toNodeRecord(r)]));
}

/** The records as the JSON rows `NODE_RECORD_UPSERT` reads with jsonb_to_recordset. */
export function nodeRecordsJson(records: NodeRecord[]): Record<string, unknown>[] {
  return records.map((r) => ({
    node_id: r.nodeId,
    status: r.status,
    runs: r.runs,
    attempt: r.attempt,
    summary: r.summary,
    output: r.output ?? null,
    error: r.error,
    branches: r.branches,
    done_seq: r.doneSeq,
    started_at: r.startedAt,
    ended_at: r.endedAt,
  }));
}

/**
 * Upserts node records of order `orderSql` (a placeholder or literal) from the JSON rows in
 * `rowsSql` (`nodeRecordsJson`): shared by saveNodeRecords and the slice's one write statement.
 */
export function nodeRecordUpsertSql(orderSql: string, rowsSql: string): string {
  return `INSERT INTO order_nodes (order_id, node_id, status, runs, attempt, summary, output, error, branches, done_seq, started_at, ended_at)
     SELECT ${orderSql}, r.node_id, r.status, r.runs, r.attempt, r.summary, r.output, r.error,
            ARRAY(SELECT jsonb_array_elements_text(r.branches)), r.done_seq, r.started_at, r.ended_at
       FROM jsonb_to_recordset(${rowsSql}) AS r(node_id text, status text, runs int, attempt int, summary text, output jsonb,
            error text, branches jsonb, done_seq int, started_at bigint, ended_at bigint)
     ON CONFLICT (order_id, node_id) DO UPDATE SET status = EXCLUDED.status, runs = EXCLUDED.runs, attempt = EXCLUDED.attempt,
       summary = EXCLUDED.summary, output = EXCLUDED.output, error = EXCLUDED.error, branches = EXCLUDED.branches,
       done_seq = EXCLUDED.done_seq, started_at = EXCLUDED.started_at, ended_at = EXCLUDED.ended_at`;
}

export async function saveNodeRecords(q: Queryable, orderId: string, records: NodeRecord[]): Promise<void> {
  if (records.length === 0) return;
  await q.query(nodeRecordUpsertSql('$1', '$2::jsonb'), [orderId, JSON.stringify(nodeRecordsJson(records))]);
}
