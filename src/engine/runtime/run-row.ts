// The orders row as the engine reads it: the run's columns, and the order's facts read by the host's OrderSubject.
import type { StateValue } from 'xstate';
import type { OrderFacts, OrderSubject } from '../order-subject.js';

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

/** The run's fields of an orders row: what the engine owns of an order. */
export interface RunFields {
  id: string;
  flowId: string;
  flowVersion: number;
  /** What the run was started with (the order's input and meta as given). */
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
  createdAt: number;
  updatedAt: number;
}

/** An order as a run works on it: the run's fields, and the order's facts (the host's, OrderSubject), carried unread. */
export interface RunRow extends RunFields {
  facts: OrderFacts;
}

/** The run's columns of an `orders` row as pg returns them (bigint columns arrive as text); the row has the host's columns too. */
export type RunDbRow = {
  id: string;
  flow_id: string;
  flow_version: number;
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
  created_at: string;
  updated_at: string;
};

export function toRunFields(r: RunDbRow): RunFields {
  return {
    id: r.id,
    flowId: r.flow_id,
    flowVersion: r.flow_version,
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
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The run's fields of a loaded row, with the facts the host's subject reads of the same row. */
export function toRunRow(r: RunDbRow, subject: OrderSubject): RunRow {
  return { ...toRunFields(r), facts: subject.read(r) };
}
