// Node types used only by engine tests: steps with recorded effects, undo and controllable failures.
import { z } from 'zod';
import type { NodeTypeDef, StepContext } from '../../src/engine/node-type.js';
import type { StepStore } from '../../src/engine/step-store.js';
import { RetryableError, TerminalError } from '../../src/domain/errors.js';

/** The port test node types write through: rows of `test_effects` (created by the test). */
export interface TestEffectsPort {
  record(orderId: string, nodeId: string, kind: 'do' | 'undo' | 'cancel', attempt: number): Promise<void>;
  /** How many columns `SELECT * FROM test_effects` returns for the order (a prepared SELECT * that a migration may make stale). */
  columns(orderId: string): Promise<number>;
}

declare module '../../src/engine/step-store.js' {
  interface StepPorts {
    /** Only in test services started with `testEffectPorts`. */
    testEffects?: TestEffectsPort;
  }
}

/** The test ports over a slice's store: hand them to the service as `start.engine.ports`. */
export function testEffectPorts(store: StepStore): { testEffects: TestEffectsPort } {
  return {
    testEffects: {
      async record(orderId, nodeId, kind, attempt) {
        await store.writer.query('INSERT INTO test_effects (order_id, node_id, kind, attempt) VALUES ($1, $2, $3, $4)', [orderId, nodeId, kind, attempt]);
      },
      async columns(orderId) {
        return (await store.reader.query('SELECT * FROM test_effects WHERE order_id = $1', [orderId])).fields.length;
      },
    },
  };
}

/** The test port of a step's context (a test service started without it is a test bug). */
export function testEffects(ctx: Pick<StepContext<unknown>, 'ports'>): TestEffectsPort {
  if (!ctx.ports.testEffects) throw new Error('the test service was started without testEffectPorts');
  return ctx.ports.testEffects;
}

const params = z
  .object({
    /** `terminal` throws a TerminalError, `retryable` a RetryableError on every attempt, `once` fails attempt 1 only. */
    fail: z.enum(['terminal', 'retryable', 'once']).optional(),
    failUndo: z.boolean().optional(),
    emit: z.string().optional(),
    setVar: z.string().optional(),
  })
  .strict();

/** A step that writes `do` / `undo` / `cancel` rows to `test_effects` (created by the test). */
export const testEffect: NodeTypeDef<z.infer<typeof params>> = {
  type: 'test.effect',
  kind: 'step',
  label: 'Test effect',
  description: 'Records its effect and its undo in test_effects.',
  params,
  branches: () => ['ok', 'failed'],
  defaultBranch: 'ok',
  optionalBranches: ['failed'],
  failureBranch: 'failed',
  retry: { attempts: 3, backoffMs: 1000, factor: 2 },
  async run(ctx) {
    await testEffects(ctx).record(ctx.order.id, ctx.nodeId, 'do', ctx.attempt);
    if (ctx.params.fail === 'terminal') throw new TerminalError(`${ctx.nodeId} refused`);
    if (ctx.params.fail === 'retryable' || (ctx.params.fail === 'once' && ctx.attempt === 1)) throw new RetryableError(`${ctx.nodeId} flaked`);
    return {
      branch: 'ok',
      output: { did: ctx.nodeId, attempt: ctx.attempt },
      vars: ctx.params.setVar ? { [ctx.params.setVar]: ctx.nodeId } : undefined,
      summary: `${ctx.nodeId} done`,
      emit: ctx.params.emit ? { event: ctx.params.emit } : undefined,
    };
  },
  async compensate(ctx) {
    await testEffects(ctx).record(ctx.order.id, ctx.nodeId, 'undo', 0);
    if (ctx.params.failUndo) throw new Error(`${ctx.nodeId} undo broke`);
  },
  async cancel(ctx) {
    await testEffects(ctx).record(ctx.order.id, ctx.nodeId, 'cancel', 0);
  },
};

export const TEST_EFFECTS_DDL =
  'CREATE TABLE IF NOT EXISTS test_effects (id bigserial PRIMARY KEY, order_id text, node_id text, kind text, attempt int)';
