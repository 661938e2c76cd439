// Moving live orders to a new flow version (runtime contract 15): the dry run, or the move as a batch; and the agents' migrate_orders.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { agentTool } from '../agent-tool.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../logging/logger.js';
import type { SearchMode } from '../../orders/order-search.js';
import { auditActorOf, writeAuditEvent } from '../../auth/audit-log.js';
import { creatorSnapshot } from '../../batches/batch-creator.js';
import { createBatch } from '../../batches/batch-store.js';
import { ORDER_IDS_MAX } from '../../batches/batch-selection.js';
import { DEFAULT_BATCH_RATE } from '../../batches/batch-view.js';
import { MIGRATION_CANDIDATES_MAX, MIGRATION_LISTED, type FlowMigrations } from '../../orders/flow-migration.js';
import { migrateShape } from '../batches/migrate-input.js';
import { batchSchema } from './batch-operations.js';

export interface FlowMigrationDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  searchMode: () => SearchMode;
  migrations: FlowMigrations;
  /** Told when a batch starts here (the local worker looks for work at once). */
  onRunnable: () => void;
}

const body = {
  fromVersion: migrateShape.fromVersion,
  toVersion: migrateShape.toVersion,
  mapping: migrateShape.mapping,
  orderIds: z
    .array(z.string().min(1).max(100))
    .min(1)
    .max(ORDER_IDS_MAX)
    .optional()
    .describe(`Only these orders (at most ${ORDER_IDS_MAX.toLocaleString('en')}); default every unfinished order pinned to fromVersion`),
  dryRun: z.boolean().default(false).describe('true: answer which orders can move and why the others cannot; change nothing'),
};

const dryRunSchema = z
  .object({
    fromVersion: z.number().int(),
    toVersion: z.number().int(),
    movableCount: z.number().int(),
    refusedCount: z.number().int(),
    movable: z.array(z.string()).describe(`Order ids, at most ${MIGRATION_LISTED.toLocaleString('en')}`),
    refused: z.array(z.object({ orderId: z.string(), reason: z.string().describe('Why it cannot move, naming the node') })).describe(`At most ${MIGRATION_LISTED.toLocaleString('en')}`),
  })
  .meta({ id: 'MigrationDryRun' });

const EXAMPLE = { id: 'tpl-marketplace-order', fromVersion: 1, toVersion: 2, mapping: { wait_sellers: 'wait_seller_answers' }, dryRun: true };

/** The migrations operation (REST) and its agent tool. */
export function flowMigrationOperations(deps: FlowMigrationDeps) {
  const { db, clock, migrations } = deps;
  const migrateFlowOrders = defineOperation({
    name: 'migrateFlowOrders',
    summary: 'Move live orders of a flow version to another version (dry run first)',
    description:
      'Moves the unfinished orders pinned to `fromVersion` of this flow (all of them, or `orderIds`) to `toVersion` (default the latest published). ' +
      'An order moves when it is at rest (an open approval or event wait, a delay, a hold, or a step waiting for its retry timer), the node where it is parked maps ' +
      '(by `mapping`, else by its own id) to a node of the same type (a wait.event waiting for the same event) with every branch it had wired still wired, ' +
      'and every node that has run maps to a node of the same type (so a rollback can still undo it). It keeps everything: records (under the new ids), vars, ' +
      'waits with their since and deadlines, timers with their due times, approvals in the inbox, Idempotency-Keys and call and event ids; a timeline entry says ' +
      '`Moved from version N to version M`. `dryRun: true` answers 200 with the movable orders and the refused ones with reasons naming the node (lists cut at ' +
      `${MIGRATION_LISTED.toLocaleString('en')}) and changes nothing; otherwise 202 { batch }: a batch of operation migrate over the orders movable now, each moved ` +
      'alone under its lock (an order that stopped being movable is skipped with the reason). 400 for a version that is not a published version of this flow ' +
      `(or more than ${MIGRATION_CANDIDATES_MAX.toLocaleString('en')} candidates), 404 for an unknown flow. Audited as batch.started.`,
    feature: 'flows',
    role: 'operator',
    effect: 'write',
    input: z.strictObject({ id: migrateShape.flowId, ...body }),
    output: z.union([dryRunSchema, z.object({ batch: batchSchema })]),
    example: EXAMPLE,
    summarize: (o) =>
      'batch' in o
        ? `Moving ${o.batch.total} order(s) as batch ${o.batch.id}.`
        : `${o.movableCount} order(s) can move from version ${o.fromVersion} to ${o.toVersion}; ${o.refusedCount} cannot.`,
    run: async (caller, input, call) => {
      const plan = await migrations.plan({ flowId: input.id, fromVersion: input.fromVersion, toVersion: input.toVersion, mapping: input.mapping });
      const checked = await migrations.check(plan, input.orderIds);
      if (input.dryRun) {
        return {
          fromVersion: plan.fromVersion,
          toVersion: plan.toVersion,
          movableCount: checked.movable.length,
          refusedCount: checked.refused.length,
          movable: checked.movable.slice(0, MIGRATION_LISTED),
          refused: checked.refused.slice(0, MIGRATION_LISTED),
        };
      }
      const batchInput = { flowId: plan.flowId, fromVersion: plan.fromVersion, toVersion: plan.toVersion, mapping: plan.mapping };
      const batch = await createBatch(db, deps.searchMode(), {
        operation: 'migrate',
        input: batchInput,
        selection: { orderIds: checked.movable },
        ratePerSecond: DEFAULT_BATCH_RATE,
        creator: creatorSnapshot(caller),
        now: clock.now(),
      });
      await writeAuditEvent(db, clock, deps.logger, {
        ...auditActorOf(caller),
        action: 'batch.started',
        target: batch.id,
        detail: { operation: 'migrate', total: batch.total, ratePerSecond: batch.ratePerSecond, ...batchInput, refused: checked.refused.length },
        ip: call.ip,
      });
      if (batch.state === 'running') deps.onRunnable();
      return { batch };
    },
  });

  const migrateOrders = agentTool(migrateFlowOrders, {
    name: 'migrate_orders',
    summary: 'Move live orders of a flow version to another version',
    description:
      'Contract 15: moves the waiting orders of `fromVersion` of flow `flowId` (or only `orderIds`) to `toVersion` (default the latest published), with `mapping` ' +
      '(old node id -> new) for nodes renamed in the new version. Run it with `dryRun: true` first: it answers which orders can move and, for the others, why ' +
      '(naming the node), and changes nothing. Without dryRun it starts a batch (operation migrate) that moves each movable order alone, keeping its waits, ' +
      'deadlines, approvals and Idempotency-Keys; follow it with the batch id.',
    input: z.strictObject({ flowId: migrateShape.flowId, ...body }),
    // One object (MCP lists and checks an object output): the dry run's fields, or `batch` when the move started.
    output: dryRunSchema.partial().extend({ batch: batchSchema.optional().describe('The migrate batch, when not a dry run') }),
    example: { flowId: 'tpl-marketplace-order', fromVersion: 1, toVersion: 2, dryRun: true },
    summarize: (o) =>
      o.batch
        ? `Moving ${o.batch.total} order(s) as batch ${o.batch.id}.`
        : `${o.movableCount} order(s) can move from version ${o.fromVersion} to ${o.toVersion}; ${o.refusedCount} cannot.`,
    mapIn: ({ flowId, ...rest }) => ({ id: flowId, ...rest }),
    mapOut: (out) => out,
  });

  return { migrateFlowOrders, migrateOrders };
}

declare module '../operation-types.js' {
  interface OperationModules {
    flowMigration: ReturnType<typeof flowMigrationOperations>;
  }
}
