// Node types used only by engine tests: steps with recorded effects, undo and controllable failures.
import { z } from 'zod';
import type { NodeTypeDef } from '../../src/engine/node-type.js';
import { RetryableError, TerminalError } from '../../src/domain/errors.js';

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
    await ctx.tx.query('INSERT INTO test_effects (order_id, node_id, kind, attempt) VALUES ($1, $2, $3, $4)', [ctx.order.id, ctx.nodeId, 'do', ctx.attempt]);
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
    await ctx.tx.query('INSERT INTO test_effects (order_id, node_id, kind, attempt) VALUES ($1, $2, $3, $4)', [ctx.order.id, ctx.nodeId, 'undo', 0]);
    if (ctx.params.failUndo) throw new Error(`${ctx.nodeId} undo broke`);
  },
  async cancel(ctx) {
    await ctx.tx.query('INSERT INTO test_effects (order_id, node_id, kind, attempt) VALUES ($1, $2, $3, $4)', [ctx.order.id, ctx.nodeId, 'cancel', 0]);
  },
};

export const TEST_EFFECTS_DDL =
  'CREATE TABLE IF NOT EXISTS test_effects (id bigserial PRIMARY KEY, order_id text, node_id text, kind text, attempt int)';
