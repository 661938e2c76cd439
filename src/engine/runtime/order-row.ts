// The orders row as the runtime reads and writes it.
import type { Queryable } from '../../db/db.js';
import type { StateValue } from 'xstate';
import type { OrderView } from '../node-type.js';

export const FINISHED_STATUSES = ['completed', 'declined', 'cancelled', 'failed', 'rolled_back'] as const;
export type OrderStatus = 'queued' | 'running' | 'waiting' | (typeof FINISHED_STATUSES)[number];

export function isFinished(status: string): boolean {
  return (FINISHED_STATUSES as readonly string[]).includes(status);
}

/** The persisted part of an XState snapshot (rehydrated with `machine.resolveState`). */
export interface PersistedSnapshot {
  value: StateValue;
  context: { passes: Record<string, number> };
}

export interface OrderRow {
  id: string;
  flowId: string;
  flowVersion: number;
  model: string;
  channel: string;
  externalId: string | null;
  title: string | null;
  customerId: string | null;
  contactEmail: string | null;
  currency: string;
  fxRate: number;
  subtotal: number;
  tax: number;
  total: number;
  input: Record<string, unknown>;
  meta: Record<string, unknown>;
  status: OrderStatus;
  reason: string | null;
  instanceId: string;
  generation: number;
  snapshot: PersistedSnapshot | null;
  compilerVersion: number;
  vars: Record<string, unknown>;
  rollback: { outcome: string; error: string | null } | null;
  stepSeq: number;
  started: boolean;
  restartedFrom: string | null;
  /** The order this one returns units of (a return, contract 18); null for every other order. */
  returnOf: string | null;
  createdAt: number;
  updatedAt: number;
}

/** An `orders` row as pg returns it (bigint and numeric columns arrive as text). */
export interface OrderDbRow {
  id: string;
  flow_id: string;
  flow_version: number;
  model: string;
  channel: string;
  external_id: string | null;
  title: string | null;
  customer_id: string | null;
  contact_email: string | null;
  currency: string;
  fx_rate: string;
  subtotal_minor: string;
  tax_minor: string;
  total_minor: string;
  input: Record<string, unknown>;
  meta: Record<string, unknown> | null;
  status: OrderStatus;
  reason: string | null;
  instance_id: string;
  generation: number;
  snapshot: PersistedSnapshot | null;
  compiler_version: number;
  vars: Record<string, unknown> | null;
  rollback: { outcome: string; error: string | null } | null;
  step_seq: number;
  started: boolean;
  restarted_from: string | null;
  return_of: string | null;
  created_at: string;
  updated_at: string;
}

export function toOrderRow(r: OrderDbRow): OrderRow {
  return {
    id: r.id,
    flowId: r.flow_id,
    flowVersion: r.flow_version,
    model: r.model,
    channel: r.channel,
    externalId: r.external_id,
    title: r.title,
    customerId: r.customer_id,
    contactEmail: r.contact_email,
    currency: r.currency,
    fxRate: Number(r.fx_rate),
    subtotal: Number(r.subtotal_minor),
    tax: Number(r.tax_minor),
    total: Number(r.total_minor),
    input: r.input,
    meta: r.meta ?? {},
    status: r.status,
    reason: r.reason,
    instanceId: r.instance_id,
    generation: r.generation,
    snapshot: r.snapshot,
    compilerVersion: r.compiler_version,
    vars: r.vars ?? {},
    rollback: r.rollback,
    stepSeq: r.step_seq,
    started: r.started,
    restartedFrom: r.restarted_from,
    returnOf: r.return_of ?? null,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** Loads and locks the order row for the rest of the transaction; null when absent. */
export async function lockOrder(q: Queryable, id: string): Promise<OrderRow | null> {
  const { rows } = await q.query<OrderDbRow>('SELECT * FROM orders WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ? toOrderRow(rows[0]) : null;
}

export async function readOrder(q: Queryable, id: string): Promise<OrderRow | null> {
  const { rows } = await q.query<OrderDbRow>('SELECT * FROM orders WHERE id = $1', [id]);
  return rows[0] ? toOrderRow(rows[0]) : null;
}

/** What steps see of the order (re-read in the slice after steps that re-total it). */
export function orderView(o: Omit<OrderRow, 'snapshot'>): OrderView {
  return {
    id: o.id,
    model: o.model,
    channel: o.channel,
    currency: o.currency,
    externalId: o.externalId,
    title: o.title,
    customerId: o.customerId,
    contactEmail: o.contactEmail,
    subtotal: o.subtotal,
    tax: o.tax,
    total: o.total,
    fxRate: o.fxRate,
    input: o.input,
    meta: o.meta,
    flowId: o.flowId,
    flowVersion: o.flowVersion,
    generation: o.generation,
    instanceId: o.instanceId,
    returnOf: o.returnOf,
  };
}
