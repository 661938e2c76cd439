// The live state's nodes and edges (spec "Order live state"): every node of the compiled flow with its record, every edge with its state.
import type { z } from 'zod';
import type { CompiledFlow } from '../engine/compiler.js';
import type { NodeRecord } from '../engine/runtime/node-record.js';
import type { liveNodeSchema } from './order-schemas.js';

export type EdgeStatus = 'pending' | 'active' | 'inactive';

/** One node of the live state, as `orderLiveStateSchema` documents it. */
export type LiveNode = z.input<typeof liveNodeSchema>;

/** A node's last run took this long, once it ended (contract 17): `endedAt - startedAt`; for a wait, the time it waited. */
export function durationOf(r: Pick<NodeRecord, 'startedAt' | 'endedAt'> | undefined): number | null {
  return r && r.startedAt !== null && r.endedAt !== null ? Math.max(0, r.endedAt - r.startedAt) : null;
}

function edgeStatus(from: NodeRecord | undefined, branch: string): EdgeStatus {
  if (!from) return 'pending';
  if (from.branches.includes(branch)) return 'active';
  if (['succeeded', 'failed', 'skipped', 'rolled_back'].includes(from.status)) return 'inactive';
  return 'pending';
}

/** Each node of the flow with the run's record of it (pending when it has none). */
export function liveNodes(compiled: CompiledFlow, records: ReadonlyMap<string, NodeRecord>): Record<string, LiveNode> {
  const nodes: Record<string, LiveNode> = {};
  for (const [id, c] of compiled.nodes) {
    const r = records.get(id);
    nodes[id] = {
      id,
      type: c.def.type,
      label: c.node.label ?? null,
      status: r?.status ?? 'pending',
      runs: r?.runs ?? 0,
      attempt: r?.attempt ?? 0,
      summary: r?.summary ?? null,
      output: r?.output ?? null,
      error: r?.error ?? null,
      branches: r?.branches ?? [],
      startedAt: r?.startedAt ?? null,
      endedAt: r?.endedAt ?? null,
      durationMs: durationOf(r),
    };
  }
  return nodes;
}

/** Each edge: active once its branch was taken, inactive when its node finished another way, else pending. */
export function liveEdges(compiled: CompiledFlow, records: ReadonlyMap<string, NodeRecord>): { from: string; to: string; branch: string; status: EdgeStatus }[] {
  return compiled.edges.map((e) => ({ from: e.from, to: e.to, branch: e.branch, status: edgeStatus(records.get(e.from), e.branch) }));
}
