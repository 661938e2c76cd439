import pg from 'pg';
import { sliceWriteStatement } from '../src/engine/runtime/slice-write.js';
const db = process.argv[2];
const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${db}` });
await c.connect();
const { rows: [o] } = await c.query("SELECT * FROM orders WHERE status = 'completed' LIMIT 1");
const { rows: nodes } = await c.query('SELECT * FROM order_nodes WHERE order_id = $1', [o.id]);
const { rows: waits } = await c.query('SELECT * FROM order_waits WHERE order_id = $1', [o.id]);
const now = Date.now();
const st = sliceWriteStatement({
  orderId: o.id, now,
  nodes: nodes.map((r) => ({ nodeId: r.node_id, status: r.status, runs: r.runs, attempt: r.attempt, summary: r.summary, output: r.output, error: r.error, branches: r.branches, doneSeq: r.done_seq, startedAt: Number(r.started_at), endedAt: Number(r.ended_at) })),
  newWaits: [{ orderId: o.id, nodeId: 'x_wait', run: 9, generation: 1, kind: 'event', title: 't', event: 'e', assignee: null, amountMinor: null, deadline: now + 1000, since: now, status: 'open', decidedBy: null, note: null, closedAt: null, timerId: 'tmr-x' }],
  closedWaits: waits.slice(0, 1).map((w) => ({ nodeId: w.node_id, run: w.run, generation: w.generation, status: 'received', closedAt: now, decidedBy: null, note: null })),
  timers: [{ id: `tmr-x-${now}`, orderId: o.id, kind: 'wait.timeout', nodeId: 'x_wait', run: 9, dueAt: now + 1000, payload: { generation: 1 } }],
  cancelTimers: [{ id: 'nope', at: now }],
  cancelAllTimersAt: process.argv[3] === 'all' ? now : null,
  timeline: Array.from({ length: 10 }, (_, i) => ({ at: now, kind: 'node.succeeded', message: `m${i}`, nodeId: 'n', data: { branch: 'ok' } })),
  outbox: [{ id: `ob-${now}`, event: 'order.shipped', data: { a: 1 } }, { id: `ob2-${now}`, event: 'order.paid', data: { a: 2 } }],
  order: { status: o.status, reason: o.reason, snapshot: o.snapshot, compilerVersion: o.compiler_version, vars: o.vars, rollback: null, waitingOn: [], waitingAt: [], waitingSince: null, stepSeq: o.step_seq, instanceId: o.instance_id, generation: o.generation },
});
await c.query('BEGIN');
const t0 = performance.now();
const { rows } = await c.query(`EXPLAIN (ANALYZE, BUFFERS, TIMING) ${st.text}`, st.values);
console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
console.log('ms', performance.now() - t0);
await c.query('ROLLBACK');
await c.end();
