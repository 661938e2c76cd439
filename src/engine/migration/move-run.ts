// Moving one order's run to another version of its flow (runtime contract 15), as a pure function: the verdict and the re-keyed run.
//
// The rules: only an order at rest moves (an open wait or hold, or a step waiting for its retry
// timer); the node where it is parked maps (by `mapping`, else by its own id) to a node of the same
// type (a wait.event waiting for the same event) whose version wires every branch the old node had
// wired; every node that has run maps to a node of the same type, so a later rollback can undo it;
// two nodes never map onto one. The moved run is the same run under new node ids: records, waits,
// holds and pending timers keep every field but the node id (a timer keeps its id and due time);
// a record whose id changes remembers the id its outward ids were made with (NodeRecord.idAs).
// No I/O, no clock: the caller reads the state under the order's lock and writes the answer.
import type { CompiledFlow, CompiledNode } from '../compiler.js';
import type { NodeRecord } from '../runtime/node-record.js';
import { CALL_TIMER_KIND } from '../runtime/order-calls.js';
import { isFinished, type OrderRow, type PersistedSnapshot } from '../runtime/order-row.js';
import type { HoldRow } from '../runtime/holds.js';
import type { TimelineEntry } from '../runtime/timeline.js';
import type { WaitRow } from '../runtime/waits.js';
import { TIMER_KINDS } from '../run/run-timers.js';

/** A timer of the order not yet fired nor cancelled, as the move reads it. */
export interface PendingTimer {
  id: string;
  kind: string;
  nodeId: string | null;
  run: number | null;
  dueAt: number;
}

/** What is moved where: the flow, its two versions compiled, and the node ids renamed on the way. */
export interface MoveTarget {
  flowId: string;
  fromVersion: number;
  toVersion: number;
  from: CompiledFlow;
  to: CompiledFlow;
  /** Old node id -> new node id; a node not named maps to the node with its own id. */
  mapping: Readonly<Record<string, string>>;
}

/** The order's run as read under its lock (or, for a dry run, as it stands). */
export interface MoveSubject {
  order: OrderRow;
  nodes: ReadonlyMap<string, NodeRecord>;
  /** Open waits. */
  waits: readonly WaitRow[];
  /** Open holds. */
  holds: readonly HoldRow[];
  timers: readonly PendingTimer[];
}

/** The run as it stands on the new version. */
export interface MovedRun {
  snapshot: PersistedSnapshot;
  /** Every record of the run under its new node id. */
  nodes: Map<string, NodeRecord>;
  waits: WaitRow[];
  holds: HoldRow[];
  /** The pending timers whose node id changed, with the new one (id and due time kept). */
  timers: PendingTimer[];
  /** Old -> new of the node ids that changed (the waits, holds and timers of this generation follow it). */
  renamed: Record<string, string>;
  /** The node the order is parked at, under its new id. */
  parkedAt: string;
  /** The timeline entry that records the move. */
  note: TimelineEntry;
}

export type MoveVerdict = { refused: string } | { moved: MovedRun };

/** Where an order rests: the node, and what keeps it there. */
interface Parking {
  nodeId: string;
  wait: WaitRow | null;
}

/** The node a record or a parked node maps to in the new version. */
export function mappedId(target: Pick<MoveTarget, 'mapping'>, nodeId: string): string {
  return Object.hasOwn(target.mapping, nodeId) ? target.mapping[nodeId] : nodeId;
}

/** Where the order rests, or why it is not at rest. */
function parking(target: MoveTarget, s: MoveSubject): Parking | { refused: string } {
  const { order } = s;
  if (order.flowId !== target.flowId) return { refused: `Order is on flow ${order.flowId}, not ${target.flowId}` };
  if (isFinished(order.status)) return { refused: `Order is ${order.status.replace('_', ' ')}: only waiting orders move` };
  const value = order.snapshot?.value;
  if (!order.started || typeof value !== 'string') return { refused: 'Order has not started: only waiting orders move' };
  if (order.flowVersion !== target.fromVersion) return { refused: `Order is on version ${order.flowVersion}, not ${target.fromVersion}` };
  const generation = order.generation;
  const wait = s.waits.find((w) => w.generation === generation && w.nodeId === value) ?? null;
  if (wait) return { nodeId: value, wait };
  if (s.holds.some((h) => h.generation === generation && h.nodeId === value)) return { nodeId: value, wait: null };
  // A step waiting for its retry timer, with no call out, rests too (its status reads running).
  const callOut = s.timers.some((t) => t.kind === CALL_TIMER_KIND);
  const retry = s.timers.some((t) => t.kind === TIMER_KINDS.stepRetry && t.nodeId === value);
  if (retry && !callOut) return { nodeId: value, wait: null };
  return { refused: `Order is running (at node "${value}"): only orders at rest move` };
}

/** Why `node` of the old version has no counterpart in the new one (null: it has). */
function counterpartProblem(target: MoveTarget, node: CompiledNode): string | null {
  const oldId = node.node.id;
  const newId = mappedId(target, oldId);
  const type = node.def.type;
  const other = target.to.nodes.get(newId);
  if (other?.def.type === type) return null;
  const named = newId !== oldId ? `"${newId}"` : 'a node of that id';
  const why = other ? `${named} is of type ${other.def.type}` : `${named} is not in it`;
  return `Node "${oldId}" has no counterpart of type ${type} in version ${target.toVersion} (${why})`;
}

/** The parked node's own rules: the same event for an event wait, and every wired branch still wired. */
function parkedProblem(target: MoveTarget, parked: Parking, old: CompiledNode, counterpart: CompiledNode): string | null {
  const oldId = old.node.id;
  if (parked.wait?.kind === 'event') {
    const event = (counterpart.params as { event?: unknown }).event;
    if (event !== parked.wait.event) return `Node "${oldId}" waits for ${parked.wait.event}; its counterpart "${counterpart.node.id}" in version ${target.toVersion} waits for ${String(event)}`;
  }
  for (const branch of old.wired) {
    if (!counterpart.wired.includes(branch)) return `Node "${oldId}": branch "${branch}" has an edge in version ${target.fromVersion} but none from "${counterpart.node.id}" in version ${target.toVersion}`;
  }
  return null;
}

/** Whether a record stands for a node that has run in this generation (pending and never run records do not count). */
function hasRun(rec: NodeRecord): boolean {
  return rec.runs > 0 || rec.status !== 'pending';
}

/** The passes counted per loop node, under the new ids. */
function movedPasses(target: MoveTarget, passes: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, n] of Object.entries(passes)) out[mappedId(target, id)] = n;
  return out;
}

/**
 * Decides whether the order moves from `target.from` to `target.to`, and if so its run on the new
 * version; `at` stamps the timeline entry. The subject is not changed.
 */
export function moveRun(target: MoveTarget, s: MoveSubject, at: number): MoveVerdict {
  const parked = parking(target, s);
  if ('refused' in parked) return parked;
  const oldParked = target.from.nodes.get(parked.nodeId);
  if (!oldParked) return { refused: `Node "${parked.nodeId}" is not in version ${target.fromVersion}` };
  const parkedGap = counterpartProblem(target, oldParked);
  if (parkedGap) return { refused: parkedGap };
  const counterpart = target.to.nodes.get(mappedId(target, parked.nodeId))!;
  const parkedRule = parkedProblem(target, parked, oldParked, counterpart);
  if (parkedRule) return { refused: parkedRule };

  // Every node that has run (and the parked one) maps to one of its type, and no two onto one.
  const takenBy = new Map<string, string>();
  const ran = [...s.nodes.values()].filter(hasRun).map((r) => r.nodeId);
  for (const oldId of new Set([parked.nodeId, ...ran])) {
    const old = target.from.nodes.get(oldId);
    if (!old) return { refused: `Node "${oldId}" has a record but is not in version ${target.fromVersion}` };
    const gap = counterpartProblem(target, old);
    if (gap) return { refused: gap };
    const newId = mappedId(target, oldId);
    const other = takenBy.get(newId);
    if (other !== undefined) return { refused: `Nodes "${other}" and "${oldId}" both map to "${newId}" in version ${target.toVersion}` };
    takenBy.set(newId, oldId);
  }

  const renamed: Record<string, string> = {};
  const nodes = new Map<string, NodeRecord>();
  // Records of nodes that ran first; one of a node that never ran says nothing, and is left behind when its id is not free in the new version.
  const records = [...s.nodes.values()].sort((a, b) => Number(hasRun(b)) - Number(hasRun(a)));
  for (const rec of records) {
    const newId = mappedId(target, rec.nodeId);
    if (!hasRun(rec) && (!target.to.nodes.has(newId) || nodes.has(newId))) continue;
    if (newId === rec.nodeId) {
      nodes.set(newId, rec);
      continue;
    }
    renamed[rec.nodeId] = newId;
    nodes.set(newId, { ...rec, branches: [...rec.branches], nodeId: newId, idAs: rec.idAs ?? rec.nodeId });
  }
  const parkedAt = mappedId(target, parked.nodeId);
  if (parkedAt !== parked.nodeId) renamed[parked.nodeId] = parkedAt;
  const rename = (nodeId: string) => renamed[nodeId] ?? nodeId;
  const snapshot = s.order.snapshot!;
  const note: TimelineEntry = {
    at,
    kind: 'order.moved',
    message: `Moved from version ${target.fromVersion} to version ${target.toVersion}`,
    nodeId: parkedAt,
    data: { fromVersion: target.fromVersion, toVersion: target.toVersion, ...(Object.keys(renamed).length ? { renamed } : {}) },
  };
  return {
    moved: {
      snapshot: { value: parkedAt, context: { ...snapshot.context, passes: movedPasses(target, snapshot.context.passes ?? {}) } },
      nodes,
      waits: s.waits.map((w) => (w.generation === s.order.generation ? { ...w, nodeId: rename(w.nodeId) } : w)),
      holds: s.holds.map((h) => (h.generation === s.order.generation ? { ...h, nodeId: rename(h.nodeId) } : h)),
      timers: s.timers.filter((t) => t.nodeId !== null && t.kind !== CALL_TIMER_KIND && rename(t.nodeId) !== t.nodeId).map((t) => ({ ...t, nodeId: rename(t.nodeId!) })),
      renamed,
      parkedAt,
      note,
    },
  };
}
