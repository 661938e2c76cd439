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

/**
 * A record as `orders.nodes` stores it (under its node id), packed: the fields in the order of `PACKED_FIELDS`, a
 * field at its default (null, no branches, no holds) as null and trailing nulls left out, and the end as the time
 * since the start (`took`, from 0 when the record has no start). Names are not repeated per node and per order: a
 * logic step's record is about 90 bytes instead of 190 (issue 37; docs/performance.md).
 */
export type PackedNodeRecord = [
  status: NodeStatus,
  runs?: number | null,
  attempt?: number | null,
  summary?: string | null,
  output?: unknown,
  error?: string | null,
  branches?: string[] | null,
  doneSeq?: number | null,
  startedAt?: number | null,
  took?: number | null,
  holds?: number | null,
  idAs?: string | null,
];

/** A record as orders written before the packed form store it: named fields, null fields (and `holds` while 0) left out. */
export type NamedNodeRecord = Partial<Omit<NodeRecord, 'nodeId'>>;

/** An entry of `orders.nodes`: packed (written now) or named (written before; still read). */
export type StoredNodeRecord = PackedNodeRecord | NamedNodeRecord;

/** A node record from its entry in `orders.nodes`. */
export function toNodeRecord(nodeId: string, r: StoredNodeRecord): NodeRecord {
  if (Array.isArray(r)) {
    const [status, runs, attempt, summary, output, error, branches, doneSeq, startedAt, took, holds, idAs] = r;
    return {
      nodeId,
      status,
      runs: runs ?? 0,
      attempt: attempt ?? 0,
      summary: summary ?? null,
      output: output ?? null,
      error: error ?? null,
      branches: branches ?? [],
      doneSeq: doneSeq ?? null,
      startedAt: startedAt ?? null,
      endedAt: took === null || took === undefined ? null : (startedAt ?? 0) + took,
      holds: holds ?? 0,
      ...(idAs ? { idAs } : {}),
    };
  }
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

/** A record packed for `orders.nodes` (see PackedNodeRecord). */
export function packNodeRecord(r: NodeRecord): PackedNodeRecord {
  const packed: PackedNodeRecord = [
    r.status,
    r.runs,
    r.attempt,
    r.summary,
    r.output === undefined ? null : r.output,
    r.error,
    r.branches.length ? r.branches : null,
    r.doneSeq,
    r.startedAt,
    r.endedAt === null ? null : r.endedAt - (r.startedAt ?? 0),
    r.holds || null,
    r.idAs ?? null,
  ];
  let n = packed.length;
  while (n > 1 && (packed[n - 1] === null || packed[n - 1] === undefined)) n--;
  packed.length = n;
  return packed;
}

export async function loadNodeRecords(q: Queryable, orderId: string): Promise<Map<string, NodeRecord>> {
  const { rows } = await q.query<{ nodes: Record<string, StoredNodeRecord> }>('SELECT nodes FROM orders WHERE id = $1', [orderId]);
  return toNodeRecords(rows[0]?.nodes);
}

/**
 * The run's records as the `orders.nodes` map: keyed by node id, each packed. A slice that changed any record writes
 * the whole map (it holds every record from the lock read), so the statement needs no merge and a new run
 * (continue-as-new) simply writes its own.
 */
export function nodeMapJson(records: Iterable<NodeRecord>): Record<string, PackedNodeRecord> {
  const map: Record<string, PackedNodeRecord> = {};
  for (const r of records) map[r.nodeId] = packNodeRecord(r);
  return map;
}
