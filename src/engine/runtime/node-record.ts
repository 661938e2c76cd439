// Per-node records of the current run (a JSON map in the orders row, `orders.nodes`): status, runs, output, error, branches taken.
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
  /** How often this run of the node was held (contract 16): the number of its latest hold. */
  holds: number;
  /**
   * The node id this run's outward ids (Idempotency-Keys, call ids, retry timer and outbox event ids) are made
   * with, when it differs from `nodeId`: a move to a new flow version renamed the node mid-run (contract 15),
   * and what reached the outside world keeps its id. Absent otherwise; a new run of the node drops it.
   */
  idAs?: string;
}

export function emptyNodeRecord(nodeId: string): NodeRecord {
  return { nodeId, status: 'pending', runs: 0, attempt: 0, summary: null, output: null, error: null, branches: [], doneSeq: null, startedAt: null, endedAt: null, holds: 0 };
}

/** A record as `orders.nodes` stores it (under its node id): null fields (and `holds` while 0) left out. */
export type StoredNodeRecord = Partial<Omit<NodeRecord, 'nodeId'>>;

/** A node record from its entry in `orders.nodes`. */
export function toNodeRecord(nodeId: string, r: StoredNodeRecord): NodeRecord {
  return {
    nodeId,
    status: r.status ?? 'pending',
    runs: r.runs ?? 0,
    attempt: r.attempt ?? 0,
    summary: r.summary ?? null,
    output: r.output ?? null,
    error: r.error ?? null,
    branches: r.branches ?? [],
    doneSeq: r.doneSeq ?? null,
    startedAt: r.startedAt ?? null,
    endedAt: r.endedAt ?? null,
    holds: r.holds ?? 0,
    ...(r.idAs ? { idAs: r.idAs } : {}),
  };
}

/** The records of an `orders.nodes` map. */
export function toNodeRecords(map: Record<string, StoredNodeRecord> | null | undefined): Map<string, NodeRecord> {
  return new Map(Object.entries(map ?? {}).map(([id, r]) => [id, toNodeRecord(id, r)]));
}

export async function loadNodeRecords(q: Queryable, orderId: string): Promise<Map<string, NodeRecord>> {
  const { rows } = await q.query<{ nodes: Record<string, StoredNodeRecord> }>('SELECT nodes FROM orders WHERE id = $1', [orderId]);
  return toNodeRecords(rows[0]?.nodes);
}

/**
 * The run's records as the `orders.nodes` map: keyed by node id, null fields (and a `holds` of 0) left out. A slice that
 * changed any record writes the whole map (it holds every record from the lock read), so the
 * statement needs no merge and a new run (continue-as-new) simply writes its own.
 */
export function nodeMapJson(records: Iterable<NodeRecord>): Record<string, StoredNodeRecord> {
  const map: Record<string, StoredNodeRecord> = {};
  for (const { nodeId, ...fields } of records) {
    const stored: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) if (v !== null && v !== undefined && !(k === 'holds' && v === 0)) stored[k] = v;
    map[nodeId] = stored;
  }
  return map;
}
