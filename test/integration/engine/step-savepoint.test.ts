// A step's first write opens its savepoint; a failing step is rolled back to it in the same attempt, and a failed read is the store's failure (contract section 5 "Run outcomes").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { NodeTypeDef } from '../../../src/engine/node-type.js';
import type { SliceObservation } from '../../../src/engine/engine-probe.js';
import type { StepStore } from '../../../src/engine/step-store.js';
import { e, n, startEngineHarness, type EngineHarness } from '../../support/engine-harness.js';
import { testEffect, testEffectPorts, testEffects } from '../../support/test-node-types.js';
import { TerminalError } from '../../../src/domain/errors.js';

/** Statements that fail in PostgreSQL (division by zero), sent through the store as a port would. */
interface BrokenPort {
  read(): Promise<void>;
  write(orderId: string, nodeId: string): Promise<void>;
}

const brokenPorts = (store: StepStore) => ({
  ...testEffectPorts(store),
  checked: {
    async record(orderId: string, nodeId: string) {
      await store.checkedWriter.query("INSERT INTO test_effects (order_id, node_id, kind, attempt) VALUES ($1, $2, 'do', 1)", [orderId, nodeId]);
    },
  },
  broken: {
    async read() {
      await store.reader.query('SELECT 1 / $1::int AS x', [0]);
    },
    async write(orderId, nodeId) {
      await store.writer.query("INSERT INTO test_effects (order_id, node_id, kind, attempt) VALUES ($1, $2, 'do', 1 / $3::int)", [orderId, nodeId, 0]);
    },
  } satisfies BrokenPort,
});

const params = z
  .object({
    /** `read`: a read fails before any write; `write`: it records `do`, then a write fails; `swallowed-write`: as `write`, and the body catches the error and returns. */
    breaks: z.enum(['read', 'write', 'swallowed-write']),
  })
  .strict();

/** A step whose statements fail as its params say. */
const breaking: NodeTypeDef<z.infer<typeof params>> = {
  type: 'test.breaking',
  kind: 'step',
  label: 'Breaking',
  description: 'Sends a statement that fails.',
  params,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  async run(ctx) {
    const broken = (ctx.ports as unknown as { broken: BrokenPort }).broken;
    if (ctx.params.breaks === 'read') {
      await broken.read();
      return { branch: 'ok' };
    }
    await testEffects(ctx).record(ctx.order.id, ctx.nodeId, 'do', ctx.attempt);
    const failing = broken.write(ctx.order.id, ctx.nodeId);
    if (ctx.params.breaks === 'swallowed-write') await failing.catch(() => undefined);
    else await failing;
    return { branch: 'ok' };
  },
};

const decidedParams = z
  .object({
    /** `before`: throws before writing; `after`: writes (`checked`: through the checked writer), then throws; absent: writes and succeeds. */
    fails: z.enum(['before', 'after']).optional(),
    checked: z.boolean().optional(),
  })
  .strict();

/** A step that promises to decide before it writes (decidesBeforeWriting), and keeps or breaks the promise as its params say. */
const decided: NodeTypeDef<z.infer<typeof decidedParams>> = {
  type: 'test.decided',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Decided',
  description: 'Writes a row; fails before or after as its params say.',
  params: decidedParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  retry: { attempts: 1, backoffMs: 1000, factor: 1 },
  async run(ctx) {
    if (ctx.params.fails === 'before') throw new TerminalError(`${ctx.nodeId} refused before writing`);
    if (ctx.params.checked) await (ctx.ports as unknown as { checked: { record(o: string, n: string): Promise<void> } }).checked.record(ctx.order.id, ctx.nodeId);
    else await testEffects(ctx).record(ctx.order.id, ctx.nodeId, 'do', ctx.attempt);
    if (ctx.params.fails === 'after') throw new TerminalError(`${ctx.nodeId} refused after writing`);
    return { branch: 'ok' };
  },
};

let h: EngineHarness;
const slices: SliceObservation[] = [];
beforeAll(async () => {
  h = await startEngineHarness({ start: { engine: { nodeTypes: [testEffect, breaking, decided], ports: brokenPorts, builtinFlows: false } } });
  h.engine.probe.on('slice', (s) => slices.push(s));
});
afterAll(async () => {
  await h?.close();
});

const flow = (step: ReturnType<typeof n>) => ({
  nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), step, n('b', 'test.effect'), n('done', 'end', { outcome: 'completed' })],
  edges: [e('start', 'a'), e('a', 'x'), e('x', 'b'), e('b', 'done')],
});

const DAY = 86_400_000;
const sliceOf = (orderId: string) => slices.filter((s) => s.orderId === orderId);

describe('a step that fails after writing', () => {
  it('is rolled back to its own savepoint in the one attempt: its writes go, the earlier steps of the slice stay and are undone by the rollback', async () => {
    const v = await h.publish('throws-after-write', flow(n('x', 'test.effect', { fail: 'terminal' })));
    const id = await h.startOrder('throws-after-write', v);
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.nodes.x).toMatchObject({ status: 'failed', error: 'x refused' });
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'a:undo']);
    // Never a second run of the command to take the write back.
    expect(sliceOf(id).map((x) => x.attempts)).toEqual([1]);
  });

  it('a write PostgreSQL refuses is the step’s failure: rolled back to its savepoint (its earlier write too), recorded and retried by its policy, then the rest undone', async () => {
    const v = await h.publish('refused-write', flow(n('x', 'test.breaking', { breaks: 'write' })));
    const id = await h.startOrder('refused-write', v);
    let s = await h.state(id);
    // A database error is not terminal: the attempt is recorded and retried on a durable timer.
    expect(s.nodes.x).toMatchObject({ status: 'running', attempt: 1, error: 'division by zero' });
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do']);
    expect(sliceOf(id).map((x) => x.attempts)).toEqual([1]);
    await h.t.advance(DAY);
    s = await h.state(id);
    expect(s.status).toBe('rolled_back');
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'a:undo']);
    expect(sliceOf(id).every((x) => x.attempts === 1)).toBe(true);
  });

  it('a body that catches its refused write and returns still fails (the transaction was aborted back to its savepoint)', async () => {
    const v = await h.publish('swallowed-write', flow(n('x', 'test.breaking', { breaks: 'swallowed-write' })));
    const id = await h.startOrder('swallowed-write', v);
    const s = await h.state(id);
    expect(s.nodes.x).toMatchObject({ status: 'running', attempt: 1, error: 'division by zero' });
    expect(s.nodes.b.status).toBe('pending');
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do']);
  });
});

describe('a read that fails', () => {
  it('is the store’s failure: the command is rolled back and rejects with the database’s error; nothing of the slice is kept, the order is not started', async () => {
    const v = await h.publish('refused-read', flow(n('x', 'test.breaking', { breaks: 'read' })));
    await expect(h.startOrder('refused-read', v)).rejects.toThrow(/division by zero/);
    const { rows } = await h.t.service.ctx.db.query<{ id: string; started: boolean; status: string }>(
      "SELECT id, started, status FROM orders WHERE flow_id = 'refused-read'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ started: false, status: 'queued' });
    // a's write went with the rolled-back command.
    expect(await h.effects(rows[0].id)).toEqual([]);
    expect(sliceOf(rows[0].id)).toEqual([]);
  });
});

describe('steps that succeed', () => {
  it('each writing step commits in the one attempt; a later step’s failure undoes only what completed', async () => {
    const v = await h.publish('writes-then-fails', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), n('b', 'test.effect'), n('x', 'test.effect', { fail: 'terminal' }), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'a'), e('a', 'b'), e('b', 'x'), e('x', 'done')],
    });
    const id = await h.startOrder('writes-then-fails', v);
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'b:do', 'b:undo', 'a:undo']);
    expect(sliceOf(id).map((x) => x.attempts)).toEqual([1]);
  });
});

describe('a step that decides before writing (decidesBeforeWriting)', () => {
  const oneStep = (params: Record<string, unknown>) => ({
    nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), n('x', 'test.decided', params), n('done', 'end', { outcome: 'completed' })],
    edges: [e('start', 'a'), e('a', 'x'), e('x', 'done')],
  });

  it('pays no savepoint: its slice sends one statement fewer than the same write in a step without the promise', async () => {
    const plain = await h.publish('plain-write', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), n('x', 'test.effect'), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'a'), e('a', 'x'), e('x', 'done')],
    });
    const promised = await h.publish('decided-write', oneStep({}));
    const p = await h.startOrder('plain-write', plain);
    const d = await h.startOrder('decided-write', promised);
    expect((await h.state(d)).status).toBe('completed');
    expect((await h.effects(d)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'x:do']);
    const [ps] = sliceOf(p);
    const [ds] = sliceOf(d);
    expect(ds.statements).toBe(ps.statements - 1);
  });

  it('a failure before writing is the step’s, recorded in the one attempt; the earlier steps are undone', async () => {
    const v = await h.publish('decided-before', oneStep({ fails: 'before' }));
    const id = await h.startOrder('decided-before', v);
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.nodes.x).toMatchObject({ status: 'failed', error: 'x refused before writing' });
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'a:undo']);
    expect(sliceOf(id).map((x) => x.attempts)).toEqual([1]);
  });

  it('a failure after an ordinary write breaks the promise: the command is rolled back and rejects; nothing is kept, the order is not started', async () => {
    const v = await h.publish('decided-broken', oneStep({ fails: 'after' }));
    await expect(h.startOrder('decided-broken', v)).rejects.toThrow('x refused after writing');
    const { rows } = await h.t.service.ctx.db.query<{ id: string; started: boolean }>("SELECT id, started FROM orders WHERE flow_id = 'decided-broken'");
    expect(rows).toEqual([{ id: expect.any(String), started: false }]);
    expect(await h.effects(rows[0].id)).toEqual([]);
  });

  it('a failure after a checked write is the step’s: rolled back to the savepoint the checked write opened, recorded', async () => {
    const v = await h.publish('decided-checked', oneStep({ fails: 'after', checked: true }));
    const id = await h.startOrder('decided-checked', v);
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.nodes.x).toMatchObject({ status: 'failed', error: 'x refused after writing' });
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'a:undo']);
    expect(sliceOf(id).map((x) => x.attempts)).toEqual([1]);
  });
});
