// decide's working copy of a RunState: the copies it changes during one input, and the effects it asks for.
import type { CompiledFlow, CompiledNode } from '../compiler.js';
import { emptyNodeRecord, type NodeRecord } from '../runtime/node-record.js';
import type { OutboxEvent } from '../runtime/outbox.js';
import type { Effect, IoEffect } from './effects.js';
import type { FlowSnapshot, RunFailure, RunOrder, RunState, Task } from './run-state.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The state being decided, copied on write: the given RunState is never changed. A node record is
 * copied the first time this input changes it (`node`), so an unchanged record stays the same
 * object and the executor can tell which ones changed.
 */
export class RunDraft {
  order: Mutable<RunOrder>;
  snapshot: FlowSnapshot | null;
  nodes: Map<string, NodeRecord>;
  waits: RunState['waits'];
  holds: RunState['holds'];
  lastFailure: RunFailure | null;
  agenda: Task[];
  awaiting: IoEffect | null = null;
  readonly effects: Effect[] = [];
  private readonly copied = new Set<NodeRecord>();

  constructor(
    readonly flow: CompiledFlow,
    state: RunState,
    /** The input's time: every record, note and timer of this step is stamped with it. */
    readonly at: number,
    /** The id a continue-as-new in this step gives the new run. */
    readonly newInstanceId: string,
  ) {
    this.order = { ...state.order };
    this.snapshot = state.snapshot;
    this.nodes = new Map(state.nodes);
    this.waits = state.waits;
    this.holds = state.holds;
    this.lastFailure = state.lastFailure;
    this.agenda = [...state.agenda];
  }

  /** The node's record to change (created empty when the run has none yet). */
  node(nodeId: string): NodeRecord {
    const current = this.nodes.get(nodeId);
    if (current && this.copied.has(current)) return current;
    const copy: NodeRecord = current ? { ...current, branches: [...current.branches] } : emptyNodeRecord(nodeId);
    this.copied.add(copy);
    this.nodes.set(nodeId, copy);
    return copy;
  }

  /** The node's record to read (an empty one when the run has none; nothing is created). */
  peek(nodeId: string): NodeRecord {
    return this.nodes.get(nodeId) ?? emptyNodeRecord(nodeId);
  }

  /** Forgets every record (a new run starts with none). */
  resetNodes(): void {
    this.nodes = new Map();
  }

  compiled(nodeId: string): CompiledNode {
    const compiled = this.flow.nodes.get(nodeId);
    if (!compiled) throw new Error(`node ${nodeId} is not in flow ${this.flow.flowKey}`);
    return compiled;
  }

  label(nodeId: string): string {
    return this.flow.nodes.get(nodeId)?.node.label ?? nodeId;
  }

  effect(effect: Effect): void {
    this.effects.push(effect);
  }

  /** A timeline entry at the input's time. */
  note(kind: string, message: string, nodeId: string | null = null, data: Record<string, unknown> | null = null): void {
    this.effects.push({ type: 'note', entry: { at: this.at, kind, message, nodeId, data } });
  }

  /** The node id a run's outward ids are made with: the id it ran under before a move renamed it (NodeRecord.idAs), else its own. */
  idOf(nodeId: string): string {
    return this.nodes.get(nodeId)?.idAs ?? nodeId;
  }

  /** An order event; its outbox id is made with the sending node's `idOf`, so a moved node's events keep their ids. */
  emit(event: OutboxEvent): void {
    this.effects.push({ type: 'emit', event: { ...event, nodeId: this.idOf(event.nodeId) } });
  }

  /** Merges a step's vars into the run's. */
  setVars(vars: Record<string, unknown> | undefined): void {
    if (!vars || Object.keys(vars).length === 0) return;
    this.order.vars = { ...this.order.vars, ...vars };
  }

  /** Hands an I/O effect to the executor: decide goes on with its result (the next input). */
  await(effect: IoEffect): void {
    this.effects.push(effect);
    this.awaiting = effect;
  }

  state(): RunState {
    return {
      order: this.order,
      snapshot: this.snapshot,
      nodes: this.nodes,
      waits: this.waits,
      holds: this.holds,
      lastFailure: this.lastFailure,
      agenda: this.agenda,
      awaiting: this.awaiting,
    };
  }
}
