// The replay fixtures (test/replay/*.json, DESIGN rule 7) as pure tests through decide: each recorded snapshot rehydrates
// at its wait, takes its recorded resume (event, decision or time) and reaches the recorded status, waits and node statuses.
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { compileFlow, type CompiledFlow } from '../../../src/engine/compiler.js';
import type { RunStepEffect } from '../../../src/engine/run/effects.js';
import type { EffectResult } from '../../../src/engine/run/run-input.js';
import { openRunState } from '../../../src/engine/run/run-state.js';
import { toNodeRecords, type NamedNodeRecord, type StoredNodeRecord } from '../../../src/engine/runtime/node-record.js';
import { toRunRow, type RunDbRow } from '../../../src/engine/runtime/run-row.js';
import { ordersSubject } from '../../../src/orders/order-subject.js';
import { toWait, type WaitDbRow } from '../../../src/engine/runtime/waits.js';
import { builtinNodeTypes } from '../../../src/nodes/builtin-node-types.js';
import { listFixtures, type Outcome, type ReplayFixture } from '../../support/replay-fixtures.js';
import { PureRun } from './decide-driver.js';

const catalogue = createCatalogue([...builtinNodeTypes]);

/** A recorded `order_nodes` row (the layout before migrations 0018-0019). */
interface RecordedNodeRow {
  node_id: string;
  status: NamedNodeRecord['status'];
  runs: number;
  attempt: number;
  summary: string | null;
  output: unknown;
  error: string | null;
  branches: string[];
  done_seq: number | null;
  started_at: string | number | null;
  ended_at: string | number | null;
}

interface RecordedTimerRow {
  id: string;
  kind: string;
  node_id: string | null;
  run: number | null;
  due_at: string | number;
  payload: unknown;
  fired_at: unknown;
  cancelled_at: unknown;
}

/** The run as the command's lock read would give it: the order row, its node records, its open waits. */
function recordedRun(f: ReplayFixture, flow: CompiledFlow): PureRun['state'] {
  const orderRow = f.rows.orders[0] as unknown as RunDbRow & { nodes?: Record<string, StoredNodeRecord> };
  const stored: Record<string, StoredNodeRecord> = { ...orderRow.nodes };
  for (const n of (f.rows.order_nodes ?? []) as unknown as RecordedNodeRow[])
    stored[n.node_id] = {
      status: n.status, runs: n.runs, attempt: n.attempt, summary: n.summary, output: n.output, error: n.error, branches: n.branches, doneSeq: n.done_seq,
      startedAt: n.started_at === null ? null : Number(n.started_at), endedAt: n.ended_at === null ? null : Number(n.ended_at),
    };
  const waits = ((f.rows.order_waits ?? []) as unknown as WaitDbRow[]).filter((w) => w.status === 'open').map(toWait);
  return openRunState(flow, toRunRow(orderRow, ordersSubject), toNodeRecords(stored), waits);
}

/**
 * The steps' outcomes the recording saw: the step bodies (commerce, with their database) are not
 * run here; each takes the branch that leads where the recorded run went (a node the outcome has
 * as succeeded or waiting), its default branch when several do. Triggers and logic nodes run for real.
 */
function recordedPath(flow: CompiledFlow, expected: Outcome) {
  return (effect: RunStepEffect): EffectResult => {
    const { def } = flow.nodes.get(effect.nodeId)!;
    const taken = flow.edges.filter((e) => e.from === effect.nodeId && ['succeeded', 'waiting'].includes(expected.nodes[e.to] ?? '')).map((e) => e.branch);
    const branch = taken.includes(def.defaultBranch ?? '') ? def.defaultBranch! : taken[0];
    if (!branch) throw new Error(`the recorded outcome does not say where ${effect.nodeId} went`);
    return { type: 'stepDone', result: { branch } };
  };
}

describe('replay fixtures through decide (no database)', () => {
  const fixtures = listFixtures();

  it('there is a fixture for every built-in flow that waits', () => {
    expect(new Set(fixtures.map((f) => f.flowId))).toEqual(new Set(['tpl-marketplace-order', 'tpl-b2b-order', 'tpl-subscription', 'tpl-purchase-request', 'tpl-omnichannel-order']));
  });

  for (const f of fixtures)
    it(`${f.flowId} v${f.version} (compiler ${f.compilerVersion}) rehydrates at its wait and continues as recorded`, () => {
      const flow = compileFlow(`${f.flowId}@${f.version}`, f.graph, catalogue);
      const run = new PureRun(flow, { step: recordedPath(flow, f.expected) }, recordedRun(f, flow));
      run.now = f.recordedAt;
      for (const t of (f.rows.timers ?? []) as unknown as RecordedTimerRow[])
        if (t.fired_at === null && t.cancelled_at === null) run.timers.set(t.id, { id: t.id, orderId: f.orderId, kind: t.kind, nodeId: t.node_id, run: t.run, dueAt: Number(t.due_at), payload: t.payload });
      expect(run.state.order.status).toBe('waiting');
      for (const a of f.resume) {
        if (a.kind === 'event') run.command({ type: 'event', event: a.event, payload: a.payload });
        else if (a.kind === 'approval') run.command({ type: 'approval', nodeId: a.nodeId, decision: a.decision, by: 'replay', note: null });
        else run.advance(a.ms);
      }
      expect({ status: run.state.order.status, openWaits: run.state.waits.map((w) => w.nodeId).sort(), nodes: run.statuses() }).toEqual(f.expected);
    });
});
