import pg from 'pg';
import { sliceWriteStatement, type SliceWrite } from '../src/engine/runtime/slice-write.js';
import { saveNodeRecords } from '../src/engine/runtime/node-record.js';
import { appendTimeline } from '../src/engine/runtime/timeline.js';
import { writeOutbox } from '../src/engine/runtime/outbox.js';
const db = process.argv[2];
const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${db}` });
await c.connect();
const { rows: orders } = await c.query("SELECT * FROM orders WHERE status = 'completed' LIMIT 300");
function write(o: any, nodes: any[], i: number): SliceWrite {
  const now = Date.now();
  return {
    orderId: o.id, now,
    nodes: nodes.map((r) => ({ nodeId: r.node_id, status: r.status, runs: r.runs, attempt: r.attempt, summary: r.summary, output: r.output, error: r.error, branches: r.branches, doneSeq: r.done_seq, startedAt: Number(r.started_at), endedAt: Number(r.ended_at) })).slice(0, 8),
    newWaits: [], closedWaits: [], timers: [], cancelTimers: [], cancelAllTimersAt: null,
    timeline: Array.from({ length: 10 }, (_, k) => ({ at: now, kind: 'node.succeeded', message: `m${k}`, nodeId: 'n', data: { branch: 'ok' } })),
    outbox: [{ id: `ob-${i}-${now}`, event: 'order.shipped', data: { a: 1 } }],
    order: { status: o.status, reason: o.reason, snapshot: o.snapshot, compilerVersion: o.compiler_version, vars: o.vars, rollback: null, waitingOn: [], waitingAt: [], waitingSince: null, stepSeq: o.step_seq, instanceId: o.instance_id, generation: o.generation },
  };
}
const nodesOf = new Map<string, any[]>();
for (const o of orders) nodesOf.set(o.id, (await c.query('SELECT * FROM order_nodes WHERE order_id = $1', [o.id])).rows);
for (const mode of ['cte', 'separate', 'cte', 'separate', 'cte-named']) {
  let t = 0;
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i];
    const w = write(o, nodesOf.get(o.id)!, i);
    await c.query('BEGIN');
    const t0 = performance.now();
    if (mode.startsWith('cte')) {
      const st = sliceWriteStatement(w);
      await c.query(mode === 'cte-named' ? { name: 'sw' + st.text.length, text: st.text, values: st.values } : { text: st.text, values: st.values });
    } else {
      await saveNodeRecords(c as any, o.id, w.nodes);
      await appendTimeline(c, o.id, w.timeline);
      await writeOutbox(c, o.id, 1, [{ event: 'x', nodeId: 'n', run: i + Date.now(), data: {} }], {}, w.now);
      await c.query('UPDATE orders SET status = $2, vars = $3, snapshot = $4, updated_at = $5 WHERE id = $1', [o.id, o.status, JSON.stringify(o.vars), JSON.stringify(o.snapshot), w.now]);
    }
    t += performance.now() - t0;
    await c.query('ROLLBACK');
  }
  console.log(mode, (t / orders.length).toFixed(3), 'ms per slice write');
}
await c.end();
// CPU of the backend
import { readFileSync } from 'node:fs';
const c2 = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${db}` });
await c2.connect();
const pid = (await c2.query('SELECT pg_backend_pid() AS p')).rows[0].p;
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8'); const x = f.slice(f.lastIndexOf(')') + 2).split(' '); return (Number(x[11]) + Number(x[12])) * 10; };
for (const mode of ['cte', 'separate', 'cte-named', 'cte', 'separate', 'cte-named', 'begincommit']) {
  const c0 = cpu(); const u0 = process.cpuUsage(); const t0 = performance.now();
  for (let r = 0; r < 3; r++)
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i];
    const w = write(o, nodesOf.get(o.id)!, i);
    await c2.query('BEGIN');
    if (mode === 'begincommit') { await c2.query('ROLLBACK'); continue; }
    if (mode.startsWith('cte')) {
      const st = sliceWriteStatement(w);
      await c2.query(mode === 'cte-named' ? { name: 'sw' + st.text.length, text: st.text, values: st.values } : { text: st.text, values: st.values });
    } else {
      await saveNodeRecords(c2 as any, o.id, w.nodes);
      await appendTimeline(c2, o.id, w.timeline);
      await writeOutbox(c2, o.id, 1, [{ event: 'x', nodeId: 'n', run: i + Date.now(), data: {} }], {}, w.now);
      await c2.query('UPDATE orders SET status = $2, vars = $3, snapshot = $4, updated_at = $5 WHERE id = $1', [o.id, o.status, JSON.stringify(o.vars), JSON.stringify(o.snapshot), w.now]);
    }
    await c2.query('ROLLBACK');
  }
  const n = orders.length * 3; const u = process.cpuUsage(u0);
  console.log(mode, 'backend cpu ms/slice', ((cpu() - c0) / n).toFixed(3), 'node cpu', ((u.user + u.system) / 1000 / n).toFixed(3), 'wall', ((performance.now() - t0) / n).toFixed(3));
}
await c2.end();
