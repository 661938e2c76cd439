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

/** How one order ended when the registry operation answered (a refusal it throws is `skipped` by the worker). */
export interface ItemOutcome {
  outcome: BatchOutcome;
  error?: string;
}

const DONE: ItemOutcome = { outcome: 'done' };

/** What one order's run gets: the registry, the creator as they may act now, the order, the batch's input. */
export interface BatchCall<I> {
  registry: OperationRegistry;
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
  run(call: BatchCall<z.output<S>>): Promise<ItemOutcome>;
}

function batchOperation<S extends z.ZodType>(op: BatchOperation<S>): BatchOperation<S> {
  return op;
}

/** The default cancel reason of a batch names it (the REST route's names the API). */
export const batchCancelReason = (batchId: string) => `Cancelled by batch ${batchId}`;

/** Contract 16's batch operations built so far (migrate joins with its issue). */
export const BATCH_OPERATION_NAMES = ['cancel', 'deliver_event', 'decide_approval', 'resolve_hold', 'restart'] as const;
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
};

/** The entry of a name read from a row or a body; undefined for a name the table does not hold. */
export function batchOperationOf(name: string): BatchOperation | undefined {
  return (BATCH_OPERATIONS as Record<string, BatchOperation | undefined>)[name];
}
