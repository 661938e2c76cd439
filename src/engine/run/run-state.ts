// The state decide works on: the machine snapshot, node records, open waits, the order's run fields, and the slice's agenda.
import type { CompiledFlow, FlowEvent, FlowMachine } from '../compiler.js';
import type { ExternalAnswer } from '../node-type.js';
import type { NodeRecord } from '../runtime/node-record.js';
import type { OrderStatus, RunRow } from '../runtime/run-row.js';
import type { WaitRow } from '../runtime/waits.js';
import type { HoldRow } from '../runtime/holds.js';
import type { IoEffect, UndoMode } from './effects.js';

/** The machine's snapshot (rehydrated from the persisted `{ value, context }`). */
export type FlowSnapshot = ReturnType<FlowMachine['resolveState']>;

/**
 * The orders row as the run sees it. decide changes only the run's fields: status, reason, vars,
 * stepSeq, generation, instanceId, rollback and started. `facts` (the host's business side) it
 * carries unread into what steps and waits see; the host replaces them when a step's port changed
 * them (slice-facts.ts). The snapshot lives in RunState.snapshot.
 */
export type RunOrder = Readonly<Omit<RunRow, 'snapshot'>>;

/** The failure that ended the run: the order's reason and the order.failed payload. */
export interface RunFailure {
  nodeId: string;
  type: string;
  error: string;
}

/**
 * One item of work decide still has to do before the run rests. Most are done on the spot; the
 * step, undo and abandon items hand an I/O effect to the executor and go on with its result.
 */
export type Task =
  /** Send an event to the machine; a transition's entry actions come next. */
  | { do: 'send'; event: FlowEvent }
  /** The machine entered a step (runStep), or a retry timer fired (attempt > 1). */
  | { do: 'runStep'; nodeId: string; attempt: number }
  /** The awaited call of a step answered: its `answer` body decides. */
  | { do: 'answerStep'; nodeId: string; attempt: number; answer: ExternalAnswer }
  /** The machine entered a wait (openWait). */
  | { do: 'openWait'; nodeId: string }
  | { do: 'abandon'; nodeId: string }
  /** Undo `queue` (completed steps with something to undo, latest first) one by one; then `outcome` and `errors` make the order's `rollback`. */
  | { do: 'undo'; mode: UndoMode; outcome: string; queue: readonly string[]; errors: readonly string[] }
  /** The machine ended at `endNode`: emit the order event, close waits, skip untaken nodes, set the status. */
  | { do: 'end'; endNode: string; status: OrderStatus; reason: string | null; failed: boolean }
  /** A cancel's last part, after its abandons and undos. */
  | { do: 'cancelled'; reason: string };

export interface RunState {
  readonly order: RunOrder;
  /** Null before the run's first start. */
  readonly snapshot: FlowSnapshot | null;
  /** Node records of the current run (generation), by node id. */
  readonly nodes: ReadonlyMap<string, NodeRecord>;
  /** Open waits in (since, node id) order. */
  readonly waits: readonly WaitRow[];
  /** Open holds (contract 16): a held step keeps the order waiting as an open wait does. */
  readonly holds: readonly HoldRow[];
  readonly lastFailure: RunFailure | null;
  /** Work left in this slice, first item first (empty once the run rests). */
  readonly agenda: readonly Task[];
  /** The I/O effect whose outcome decide needs next (the executor performs it), or null when the run rests. */
  readonly awaiting: IoEffect | null;
}

/** The state of an order as its command read it with the lock: the snapshot rehydrated against its flow. */
export function openRunState(
  flow: CompiledFlow,
  order: RunRow,
  nodes: ReadonlyMap<string, NodeRecord>,
  waits: readonly WaitRow[],
  holds: readonly HoldRow[] = [],
): RunState {
  const { snapshot, ...fields } = order;
  return {
    order: fields,
    snapshot: snapshot ? flow.machine.resolveState(snapshot) : null,
    nodes,
    waits,
    holds,
    lastFailure: null,
    agenda: [],
    awaiting: null,
  };
}

/** The state with the order's facts as the host holds them now (the same state when they did not change). */
export function withFacts(state: RunState, facts: RunOrder['facts']): RunState {
  return state.order.facts === facts ? state : { ...state, order: { ...state.order, facts } };
}

/** The node the machine stands at (null before the start and once it ended). */
export function currentNode(state: Pick<RunState, 'snapshot'>): string | null {
  const { snapshot } = state;
  if (!snapshot || snapshot.status === 'done') return null;
  return typeof snapshot.value === 'string' ? snapshot.value : null;
}
