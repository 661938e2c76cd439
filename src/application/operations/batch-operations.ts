// Batches (contract 16): start one operation over many orders (or count them first), list and read batches, pause, resume, cancel.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../logging/logger.js';
import type { Principal } from '../../auth/principal.js';
import { authorize } from '../../auth/authorize.js';
import { auditActorOf, writeAuditEvent } from '../../auth/audit-log.js';
import { lowerRole, type Role } from '../../auth/roles.js';
import type { SearchMode } from '../../orders/order-search.js';
import { orderFilterBodySchema } from '../../orders/order-filter-schema.js';
import { creatorSnapshot } from '../../batches/batch-creator.js';
import { countSelection, ORDER_IDS_MAX, FILTER_MATCHES_MAX, SAMPLE_SIZE, type BatchSelection } from '../../batches/batch-selection.js';
import { batchOperation as storedOperation, batchResults, BATCHES_LISTED, createBatch, listBatches, readBatch, RESULTS_LISTED, transitionBatch, type BatchTransition } from '../../batches/batch-store.js';
import { BATCH_OUTCOMES, BATCH_STATES, DEFAULT_BATCH_RATE } from '../../batches/batch-view.js';
import type { OperationRegistry } from '../operation-registry.js';
import { BATCH_OPERATION_NAMES, BATCH_OPERATIONS, batchOperationOf, type BatchServices } from '../batches/batch-operation-table.js';

export interface BatchOperationDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** How `q` is matched on this database (read once at start). */
  searchMode: () => SearchMode;
  /** The registry the batch's operations live in: their roles are the batches' roles. */
  registry: () => OperationRegistry;
  /** Told when a batch starts or resumes here (the local worker looks for work at once). */
  onRunnable: () => void;
  /** What batch operations use besides the registry (migrate checks its input at start). */
  services: BatchServices;
}

export const batchSchema = z
  .object({
    id: z.string(),
    operation: z.string().describe(`One of ${BATCH_OPERATION_NAMES.join(', ')}`),
    state: z.enum(BATCH_STATES),
    total: z.number().int().describe('Orders fixed at start'),
    done: z.number().int(),
    failed: z.number().int().describe('Orders that met an unexpected error'),
    skipped: z.number().int().describe('Orders the operation refused (already finished, not waiting, …)'),
    ratePerSecond: z.number().int(),
    createdAt: z.number(),
    createdBy: z.string(),
    finishedAt: z.number().nullable(),
  })
  .meta({ id: 'Batch', description: 'Contract 16: one operation over many orders, as a durable job' });

const batchResultSchema = z.object({ orderId: z.string(), outcome: z.enum(BATCH_OUTCOMES), error: z.string().optional().describe("skipped: the refusal's message; failed: what went wrong") });

const operationName = z.enum(BATCH_OPERATION_NAMES, {
  error: (issue) => (issue.input === undefined ? 'Required' : `Unknown operation: ${typeof issue.input === 'string' ? issue.input : JSON.stringify(issue.input)}`),
});

const startInput = z
  .strictObject({
    operation: operationName.describe(
      'cancel (input { reason? }), deliver_event ({ event, payload? }), decide_approval ({ decision, note?, nodeId? }), resolve_hold ({ action, note? }), restart ({}) or migrate ({ flowId, fromVersion, toVersion?, mapping? })',
    ),
    orderIds: z.array(z.string().min(1).max(100)).min(1).max(ORDER_IDS_MAX).optional().describe(`The orders, at most ${ORDER_IDS_MAX.toLocaleString('en')} (a repeat counts once)`),
    filter: orderFilterBodySchema.optional().describe(`The order list's filter; at most ${FILTER_MATCHES_MAX.toLocaleString('en')} matches`),
    input: z.record(z.string(), z.unknown()).optional().describe("The operation's input"),
    ratePerSecond: z.number().int().min(1).max(1000).default(DEFAULT_BATCH_RATE).describe(`Orders begun per second across all nodes, 1 to 1000 (default ${DEFAULT_BATCH_RATE})`),
    dryRun: z.boolean().default(false).describe(`true: answer the count and the first ${SAMPLE_SIZE} order ids, start nothing`),
  })
  .superRefine((body, ctx) => {
    if ((body.orderIds === undefined) === (body.filter === undefined))
      ctx.addIssue({ code: 'custom', path: [body.orderIds === undefined ? 'filter' : 'orderIds'], message: 'give exactly one of orderIds and filter' });
    const op = batchOperationOf(body.operation);
    const parsed = op?.input.safeParse(body.input ?? {});
    if (parsed && !parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: ['input', ...issue.path], message: issue.message });
  });

const idInput = z.object({ id: z.string().min(1).max(100).describe('The batch id (bat_…)') });
const exampleId = 'bat_3f9c2a7e1b0d4c6a8e5f';

/** The batch operations by name. */
export function batchOperations(deps: BatchOperationDeps) {
  const { db, clock } = deps;
  /** The role a batch of `operation` needs: the role of the registry operation it runs per order (read at call time). */
  const roleOf = (operation: string): Role => {
    const op = batchOperationOf(operation);
    const runs = op && deps.registry().get(op.runs);
    if (!runs) throw new Error(`batch operation ${operation} runs no registered operation`);
    return runs.role;
  };
  /** The lowest role any batch needs: the registry's check before a body is read (each batch then checks its own). */
  const lowest = (): Role => BATCH_OPERATION_NAMES.map(roleOf).reduce(lowerRole);
  const audit = (caller: Principal, action: string, target: string, detail: Record<string, unknown>, ip: string | null) =>
    writeAuditEvent(db, clock, deps.logger, { ...auditActorOf(caller), action, target, detail, ip });

  const transition = (name: 'pauseBatch' | 'resumeBatch' | 'cancelBatch', t: BatchTransition, summary: string, description: string, action: string) =>
    defineOperation({
      name,
      summary,
      description,
      feature: 'batches',
      role: lowest(),
      effect: 'write',
      input: idInput,
      output: z.object({ batch: batchSchema }),
      example: { id: exampleId },
      run: async (caller, input, call) => {
        authorize(caller, roleOf(await storedOperation(db, input.id)));
        const batch = await transitionBatch(db, input.id, t, clock.now());
        await audit(caller, action, batch.id, { operation: batch.operation, done: batch.done, failed: batch.failed, skipped: batch.skipped, total: batch.total }, call.ip);
        if (t === 'resume') deps.onRunnable();
        return { batch };
      },
    });

  return {
    startBatch: defineOperation({
      name: 'startBatch',
      summary: 'Run one operation on many orders (listed, or matching a filter) as a durable, rate-capped job',
      description:
        `Fixes the orders when it starts (orderIds, at most ${ORDER_IDS_MAX.toLocaleString('en')}, or the order list's filter, at most ${FILTER_MATCHES_MAX.toLocaleString('en')} matches, else 400) and runs the operation on each at most once, at ratePerSecond across all nodes, as the caller would alone: the role is the operation's (approver for decide_approval, operator otherwise), an order the operation refuses is skipped with the refusal's message. dryRun answers 200 { count, sample } and starts nothing; otherwise 202 { batch }. Audited as batch.started.`,
      feature: 'batches',
      role: lowest(),
      effect: 'write',
      input: startInput,
      output: z.union([
        z.object({ count: z.number().int(), sample: z.array(z.string()).describe(`The first ${SAMPLE_SIZE} order ids`) }).meta({ id: 'BatchDryRun' }),
        z.object({ batch: batchSchema }),
      ]),
      example: { operation: 'cancel', filter: { flowId: 'tpl-storefront-order', status: 'waiting', waitingAtNode: 'payment' }, input: { reason: 'Payment never came' }, ratePerSecond: 20, dryRun: true },
      run: async (caller, body, call) => {
        authorize(caller, roleOf(body.operation));
        const selection: BatchSelection = body.orderIds ? { orderIds: body.orderIds } : { filter: body.filter ?? {} };
        // The schema checked the input against the operation's; kept as that schema reads it (defaults applied), and as
        // the operation fixes it at start (migrate: its flow and versions checked, the target version resolved).
        const op = BATCH_OPERATIONS[body.operation];
        const parsed: unknown = op.input.parse(body.input ?? {});
        const input = (op.prepare ? await op.prepare(parsed, deps.services) : parsed) as Record<string, unknown>;
        if (body.dryRun) return countSelection(db, deps.searchMode(), selection);
        const batch = await createBatch(db, deps.searchMode(), {
          operation: body.operation,
          input,
          selection,
          ratePerSecond: body.ratePerSecond,
          creator: creatorSnapshot(caller),
          now: clock.now(),
        });
        await audit(
          caller,
          'batch.started',
          batch.id,
          { operation: batch.operation, total: batch.total, ratePerSecond: batch.ratePerSecond, ...('filter' in selection ? { filter: selection.filter } : { orderIds: batch.total }) },
          call.ip,
        );
        if (batch.state === 'running') deps.onRunnable();
        return { batch };
      },
    }),
    listBatches: defineOperation({
      name: 'listBatches',
      summary: 'Batches, newest first',
      description: `Every batch with its state and counts, newest first (at most ${BATCHES_LISTED}).`,
      feature: 'batches',
      role: 'viewer',
      effect: 'read',
      input: z.object({}),
      output: z.object({ batches: z.array(batchSchema) }),
      run: async () => ({ batches: await listBatches(db) }),
    }),
    getBatch: defineOperation({
      name: 'getBatch',
      summary: 'One batch with its latest results',
      description: `The batch and the outcome of its latest ${RESULTS_LISTED.toLocaleString('en')} processed orders, most recent first: done, skipped (with the refusal's message) or failed.`,
      feature: 'batches',
      role: 'viewer',
      effect: 'read',
      input: idInput,
      output: z.object({ batch: batchSchema, results: z.array(batchResultSchema) }),
      example: { id: exampleId },
      run: async (_caller, input) => ({ batch: await readBatch(db, input.id), results: await batchResults(db, input.id) }),
    }),
    pauseBatch: transition('pauseBatch', 'pause', 'Pause a running batch', 'No further order starts; orders being processed finish. 409 unless running. Audited as batch.paused.', 'batch.paused'),
    resumeBatch: transition('resumeBatch', 'resume', 'Resume a paused batch', 'Orders start again at its rate. 409 unless paused. Audited as batch.resumed.', 'batch.resumed'),
    cancelBatch: transition(
      'cancelBatch',
      'cancel',
      'Cancel a running or paused batch',
      'No further order starts (orders being processed finish); the batch ends cancelled. 409 unless running or paused. Audited as batch.cancelled.',
      'batch.cancelled',
    ),
  };
}

declare module '../operation-types.js' {
  interface OperationModules {
    batches: ReturnType<typeof batchOperations>;
  }
}
