// What one order adds to its flow's stats since the worker last counted it: runs ended, durations, edges taken, active nodes, status.
//
// Pure: the worker hands it the order's node records and the timeline entries written since the chunk it read last
// (both read in one statement, so they agree), with what it counted before (`SeenOrder`); the answer is the
// difference, and the new `SeenOrder`. Counting the same state again adds nothing, which is what makes the
// worker's aggregation exactly once even when it reads a chunk twice (docs/flow-stats.md).
//
// Where each number comes from (the engine writes no run end for logic and end nodes, and no step start):
// - a run of a step, wait or trigger ends with its `node.succeeded` / `node.failed` entry (branch in `data`);
//   its duration is its record's `endedAt - startedAt` when that record is still this run (the node's last end),
//   else the time since its `wait.opened` entry or since the worker saw it start; a run with neither has no sample;
// - logic and end nodes have no entry: their runs are what their record's `runs` grew by, their branches what
//   their record's `branches` grew by (a loop's repeated branch is the one it took before);
// - `run.continued` ends the continue node's run (0 ms) and starts a new generation (records start empty);
// - a node running or waiting now is active; when the order ends, a run cut short (skipped) counts as a run
//   that neither succeeded nor failed.
import type { NodeKind } from '../engine/node-type.js';
import type { NodeRecord } from '../engine/runtime/node-record.js';
import type { TimelineEntry } from '../engine/runtime/timeline.js';
import { FINISHED_STATUSES } from '../engine/runtime/run-row.js';

/** The graph facts the fold needs of a published version. */
export interface StatsGraph {
  kinds: ReadonlyMap<string, NodeKind>;
  /** The branch a failed run leaves by, for nodes that wire one. */
  failureBranches: ReadonlyMap<string, string>;
  /** The node an edge leads to, by `edgeOf(from, branch)` (the first edge, as the machine takes it). */
  targets: ReadonlyMap<string, string>;
}

export const edgeOf = (from: string, branch: string): string => `${from}\u0000${branch}`;
export const edgeKeyOf = (from: string, to: string, branch: string): string => `${from}\u0000${to}\u0000${branch}`;

/** What the worker counted of one node of the order's current generation. */
export interface SeenNode {
  /** Runs the record had. */
  r: number;
  /** Runs counted as ended (succeeded, failed or cut short). */
  n: number;
  /** 1 when counted active (running or waiting). */
  a?: 1;
  /** When the run under way started (known for waits and for steps seen running). */
  s?: number;
  /** Branches the record had. */
  b?: number;
}

export interface SeenOrder {
  status: string;
  generation: number;
  nodes: Record<string, SeenNode>;
}

export interface OrderNow {
  status: string;
  generation: number;
  records: ReadonlyMap<string, NodeRecord>;
}

export interface NodeDelta {
  runs: number;
  succeeded: number;
  failed: number;
  durations: number[];
}

export interface FoldResult {
  nodes: Map<string, NodeDelta>;
  /** Edges taken, by `edgeKeyOf(from, to, branch)`. */
  edges: Map<string, number>;
  /** +1 / -1 per node whose active count changes. */
  active: Map<string, number>;
  /** The status counted before (null: never) and now, when they differ. */
  status: { from: string | null; to: string } | null;
  seen: SeenOrder;
}

const FINISHED = new Set<string>(FINISHED_STATUSES);
const ENDED = new Set(['succeeded', 'failed', 'rolled_back']);
const ACTIVE = new Set(['running', 'waiting']);
/** Nodes the engine writes no run end for: their runs are read off their records. */
const RECORD_COUNTED = new Set<NodeKind>(['logic', 'end']);

/** A run end read off an entry, waiting for its duration. */
interface PendingEnd {
  nodeId: string;
  at: number;
  start: number | null;
  /** In the generation the records describe (after the last `run.continued`). */
  current: boolean;
}

export function foldOrder(graph: StatsGraph, seenBefore: SeenOrder | null, now: OrderNow, entries: readonly TimelineEntry[]): FoldResult {
  const out: FoldResult = { nodes: new Map(), edges: new Map(), active: new Map(), status: null, seen: { status: now.status, generation: now.generation, nodes: {} } };
  const delta = (nodeId: string): NodeDelta => {
    let d = out.nodes.get(nodeId);
    if (!d) out.nodes.set(nodeId, (d = { runs: 0, succeeded: 0, failed: 0, durations: [] }));
    return d;
  };
  const took = (from: string, branch: string | null): void => {
    if (branch === null) return;
    const to = graph.targets.get(edgeOf(from, branch));
    if (to === undefined) return;
    const key = edgeKeyOf(from, to, branch);
    out.edges.set(key, (out.edges.get(key) ?? 0) + 1);
  };
  const moveActive = (nodeId: string, by: number): void => {
    out.active.set(nodeId, (out.active.get(nodeId) ?? 0) + by);
  };

  const continues = entries.filter((e) => e.kind === 'run.continued').length;
  let lastContinue = -1;
  entries.forEach((e, i) => {
    if (e.kind === 'run.continued') lastContinue = i;
  });
  // The counts carried over belong to the generation the entries start in; anything else was missed.
  let state: Record<string, SeenNode> = {};
  if (seenBefore && seenBefore.generation === now.generation - continues) state = structuredClone(seenBefore.nodes);
  else if (seenBefore) for (const [id, s] of Object.entries(seenBefore.nodes)) if (s.a) moveActive(id, -1);
  const node = (id: string): SeenNode => (state[id] ??= { r: 0, n: 0 });

  const pending: PendingEnd[] = [];
  entries.forEach((e, i) => {
    const id = e.nodeId;
    if (id === null || !graph.kinds.has(id)) return;
    const kind = graph.kinds.get(id)!;
    if (e.kind === 'wait.opened') {
      node(id).s = e.at;
    } else if ((e.kind === 'node.succeeded' || e.kind === 'node.failed') && !RECORD_COUNTED.has(kind)) {
      const st = node(id);
      const d = delta(id);
      d.runs += 1;
      st.n += 1;
      if (e.kind === 'node.succeeded') {
        d.succeeded += 1;
        const branch = e.data?.branch;
        took(id, typeof branch === 'string' ? branch : null);
      } else {
        d.failed += 1;
        took(id, graph.failureBranches.get(id) ?? null);
      }
      pending.push({ nodeId: id, at: e.at, start: st.s ?? null, current: i > lastContinue });
      delete st.s;
    } else if (e.kind === 'run.continued') {
      const d = delta(id);
      d.runs += 1;
      d.succeeded += 1;
      d.durations.push(0);
      // A new generation: its records start empty, and nothing of the old one is active any more.
      for (const [nodeId, s] of Object.entries(state)) if (s.a) moveActive(nodeId, -1);
      state = {};
    }
  });

  // Durations of the ends read off entries: the record when it is still that run, else the start seen.
  const lastEnd = new Map<string, PendingEnd>();
  for (const p of pending) if (p.current) lastEnd.set(p.nodeId, p);
  for (const p of pending) {
    const rec = now.records.get(p.nodeId);
    const fromRecord = p.current && lastEnd.get(p.nodeId) === p && rec && ENDED.has(rec.status) && rec.startedAt !== null && rec.endedAt !== null;
    const ms = fromRecord ? rec.endedAt! - rec.startedAt! : p.start !== null ? p.at - p.start : null;
    if (ms !== null) delta(p.nodeId).durations.push(Math.max(0, ms));
  }

  const finished = FINISHED.has(now.status);
  for (const [id, kind] of graph.kinds) {
    const rec = now.records.get(id);
    const st = node(id);
    if (rec && RECORD_COUNTED.has(kind) && ENDED.has(rec.status) && rec.runs > st.n) {
      // Logic and end nodes end in the slice they start: each run the record grew by ended.
      const k = rec.runs - st.n;
      const d = delta(id);
      d.runs += k;
      if (rec.status === 'failed') {
        d.failed += 1;
        d.succeeded += k - 1;
      } else d.succeeded += k;
      const ms = rec.startedAt !== null && rec.endedAt !== null ? Math.max(0, rec.endedAt - rec.startedAt) : null;
      if (ms !== null) for (let j = 0; j < k; j++) d.durations.push(ms);
      const fresh = rec.branches.slice(st.b ?? 0);
      const before = (st.b ?? 0) > 0 ? rec.branches[(st.b ?? 0) - 1] : (fresh[0] ?? null);
      const taken = [...Array<string | null>(Math.max(0, k - fresh.length)).fill(before), ...fresh.slice(0, k)];
      for (const branch of taken) took(id, branch);
      st.n = rec.runs;
    }
    if (rec) st.b = rec.branches.length;
    const active = !finished && rec !== undefined && ACTIVE.has(rec.status);
    if (active && !st.a) {
      moveActive(id, 1);
      st.a = 1;
    } else if (!active && st.a) {
      moveActive(id, -1);
      delete st.a;
    }
    if (active && rec.startedAt !== null) st.s = rec.startedAt;
    else delete st.s;
    // The order ended while this node ran or waited: a run that neither succeeded nor failed.
    if (finished && rec && rec.status === 'skipped' && rec.runs > st.n) {
      delta(id).runs += rec.runs - st.n;
      st.n = rec.runs;
    }
    st.r = rec?.runs ?? 0;
    if (st.r === 0 && st.n === 0 && !st.a && st.s === undefined) delete state[id];
  }
  for (const [id, by] of out.active) if (by === 0) out.active.delete(id);

  const before = seenBefore?.status ?? null;
  if (before !== now.status) out.status = { from: before, to: now.status };
  out.seen.nodes = state;
  return out;
}
