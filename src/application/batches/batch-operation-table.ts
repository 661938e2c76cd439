// The operations a batch can run (contract 16): each maps the batch's operation to the registry operation one order runs alone.
import { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import type { Queryable } from '../../db/db.js';
import type { BatchOutcome } from '../../batches/batch-view.js';
import { approvalBodySchema, cancelBodySchema, eventBodySchema, holdBodySchema } from '../../orders/command-schemas.js';
import { soleApprovalNode } from '../../orders/sole-approval.js';
import { soleHoldNode } from '../../orders/sole-hold.js';
import type { OperationRegistry } from '../operation-registry.js';
import type { OperationName } from '../operation-types.js';
import { migrateInputSchema, type MigrateInput } from './migrate-input.js';

/** How one order ended when the registry operation answered (a refusal it throws is `skipped` by the worker). */
export interface ItemOutcome {
  outcome: BatchOutcome;
  error?: string;
}

const DONE: ItemOutcome = { outcome: 'done' };

/**
 * What a batch operation needs besides the registry: moving orders to another flow version (contract
 * 15), which no REST operation does for one order alone (its route starts a batch of this operation).
 */
export interface BatchServices {
  /** A migrate input checked when its batch starts (404 unknown flow, 400 unpublished version or unknown mapped node), toVersion fixed. */
  planMigration(input: MigrateInput): Promise<MigrateInput & { toVersion: number }>;
  /** Moves one order under its lock: `done` (moved, or already on the target version), `skipped` with the reason it cannot move. */
  moveOrder(orderId: string, input: MigrateInput & { toVersion: number }): Promise<ItemOutcome>;
}

/** What one order's run gets: the registry, the creator as they may act now, the order, the batch's input. */
export interface BatchCall<I> {
  registry: OperationRegistry;
  services: BatchServices;
  caller: Principal;
  orderId: string;
  input: I;
  batchId: string;
  db: Queryable;
}

/**
 * One batch operation. `runs` names the registry operation each order runs, exactly as a single call
 * would (its role is the batch's role, its refusals are `skipped` with their message, its audit and
 * timeline are the single call's). `idempotent`: running it again for the same batch and order has no
 * second effect whatever happened meanwhile (restart's key), so an order whose node died mid-way is
 * simply run again; otherwise the order's row version decides (docs/batches.md "Exactly once").
 */
export interface BatchOperation<S extends z.ZodType = z.ZodType> {
  name: string;
  runs: OperationName;
  /** The batch's `input` for this operation (contract 16). */
  input: S;
  idempotent: boolean;
  /** Checks and fixes the input when the batch starts (migrate resolves its target version), before any order is taken. */
  prepare?(input: z.output<S>, services: BatchServices): Promise<z.output<S>>;
  run(call: BatchCall<z.output<S>>): Promise<ItemOutcome>;
}

function batchOperation<S extends z.ZodType>(op: BatchOperation<S>): BatchOperation<S> {
  return op;
}

/** The default cancel reason of a batch names it (the REST route's names the API). */
export const batchCancelReason = (batchId: string) => `Cancelled by batch ${batchId}`;

/** Contract 16's batch operations. */
export const BATCH_OPERATION_NAMES = ['cancel', 'deliver_event', 'decide_approval', 'resolve_hold', 'restart', 'migrate'] as const;
export type BatchOperationName = (typeof BATCH_OPERATION_NAMES)[number];

/**
 * The table: adding an operation (migrate) is its name above and one entry here, naming
 * the registry operation it runs per order and the input it takes.
 */
export const BATCH_OPERATIONS: { readonly [K in BatchOperationName]: BatchOperation } = {
  cancel: batchOperation({
    name: 'cancel',
    runs: 'cancelOrder',
    input: cancelBodySchema,
    idempotent: false,
    run: async ({ registry, caller, orderId, input, batchId }): Promise<ItemOutcome> => {
      await registry.call('cancelOrder', caller, { id: orderId, reason: input.reason ?? batchCancelReason(batchId) }, { ip: null });
      return DONE;
    },
  }),
  deliver_event: batchOperation({
    name: 'deliver_event',
    runs: 'deliverEvent',
    input: eventBodySchema,
    idempotent: false,
    run: async ({ registry, caller, orderId, input }): Promise<ItemOutcome> => {
      const r = await registry.call('deliverEvent', caller, { id: orderId, event: input.event, payload: input.payload }, { ip: null });
      if (r.delivered) return DONE;
      // What a single call answers with `delivered: false`, as the refusal's message.
      const waiting = r.waitingFor?.length ? `; the order waits for ${r.waitingFor.join(', ')}` : '';
      return { outcome: 'skipped', error: `Nothing waits for ${input.event}${waiting}` };
    },
  }),
  decide_approval: batchOperation({
    name: 'decide_approval',
    runs: 'decideApproval',
    // Contract 16: `{ decision, note?, nodeId? }`; without nodeId the order's one open approval (as the agents' tool).
    input: z.strictObject({ decision: approvalBodySchema.shape.decision, note: approvalBodySchema.shape.note, nodeId: z.string().min(1).max(100).optional() }),
    idempotent: false,
    run: async ({ registry, caller, orderId, input, db }): Promise<ItemOutcome> => {
      const nodeId = input.nodeId ?? (await soleApprovalNode(db, orderId));
      await registry.call('decideApproval', caller, { id: orderId, nodeId, decision: input.decision, note: input.note }, { ip: null });
      return DONE;
    },
  }),
  resolve_hold: batchOperation({
    name: 'resolve_hold',
    runs: 'resolveHold',
    // Contract 16: `{ action, note? }`; each order's one held step (an order with none is skipped with the refusal).
    input: holdBodySchema,
    idempotent: false,
    run: async ({ registry, caller, orderId, input, db }): Promise<ItemOutcome> => {
      const nodeId = await soleHoldNode(db, orderId);
      await registry.call('resolveHold', caller, { id: orderId, nodeId, action: input.action, note: input.note }, { ip: null });
      return DONE;
    },
  }),
  restart: batchOperation({
    name: 'restart',
    runs: 'restartOrder',
    input: z.strictObject({}),
    // The key is the batch and the order: a second run answers the order the first one started.
    idempotent: true,
    run: async ({ registry, caller, orderId, batchId }): Promise<ItemOutcome> => {
      await registry.call('restartOrder', caller, { id: orderId, idempotencyKey: `batch:${batchId}:${orderId}` }, { ip: null });
      return DONE;
    },
  }),
  migrate: batchOperation({
    name: 'migrate',
    // Its role is the migrations route's (operator); each order moves alone under its lock (contract 15).
    runs: 'migrateFlowOrders',
    input: migrateInputSchema,
    // An order already on the target version answers done: a repeat after a crash moves nothing twice.
    idempotent: true,
    prepare: (input, services) => services.planMigration(input),
    run: async ({ services, orderId, input }): Promise<ItemOutcome> => {
      if (input.toVersion === undefined) throw new Error('a migrate batch runs with the toVersion fixed at its start');
      return services.moveOrder(orderId, { ...input, toVersion: input.toVersion });
    },
  }),
};

/** The entry of a name read from a row or a body; undefined for a name the table does not hold. */
export function batchOperationOf(name: string): BatchOperation | undefined {
  return (BATCH_OPERATIONS as Record<string, BatchOperation | undefined>)[name];
}
