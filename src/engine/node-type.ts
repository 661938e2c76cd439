// The node-type contract: what every node type in the catalogue declares and how the runtime calls it.
import type { z } from 'zod';
import type { Clock } from '../platform/clock.js';
import type { StepPorts } from './step-store.js';

/** Where a node sits in a run: it decides how the compiler wires its state. */
export type NodeKind = 'trigger' | 'step' | 'wait' | 'logic' | 'end' | 'continue';

/** How often and how far apart a failing step is retried (backoff as durable timers). */
export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
  factor: number;
}

/** The retry policy a step gets when its type declares none. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({ attempts: 3, backoffMs: 1000, factor: 2 });

/**
 * The order as a step sees it: the run's fields here, and the facts the host's OrderSubject reads
 * (order-subject.ts), which a plug-in names by declaration merging
 * (`declare module '../engine/node-type.js' { interface OrderView extends CommerceOrderFacts {} }`).
 */
export interface OrderView {
  id: string;
  flowId: string;
  flowVersion: number;
  generation: number;
  instanceId: string;
  input: Record<string, unknown>;
  meta: Record<string, unknown>;
  [k: string]: unknown;
}

/** Everything a node's run/wait/compensate receives. */
export interface StepContext<P> {
  nodeId: string;
  params: P;
  /** Starts at 1 and rises with each retry. */
  attempt: number;
  order: OrderView;
  vars: Record<string, unknown>;
  /** Outputs of earlier nodes, keyed by node id. */
  nodes: Record<string, unknown>;
  /** Loop pass counters from the machine snapshot (`context.passes`). */
  passes: Record<string, number>;
  /** What the step may read and change (catalogue, stock, payments, ...): typed ports the host builds over the slice's store. */
  ports: StepPorts;
  clock: Clock;
  /** The branches of this node that the flow wires (an external step maps an unwired outcome to a failure). */
  wiredBranches: readonly string[];
}

/**
 * An HTTP request an external step asks the host to make outside the order's transaction and
 * row lock (runtime contract section 5, `http.call`). Recorded before it is made, so it is
 * durable: the same request (and Idempotency-Key) is repeated after a crash.
 */
export interface ExternalRequest {
  method: string;
  url: string;
  /** Extra headers; the host adds Content-Type, Idempotency-Key and the signature. */
  headers: Record<string, string>;
  /** The JSON body; null sends none. */
  body: unknown;
  timeoutMs: number;
  /** An integration id whose secret signs the request (`X-Service-Signature`), or null. */
  signWith: string | null;
}

/** What came back from an external request (or why nothing did). */
export interface ExternalAnswer {
  /** The HTTP status; null when there was no answer (timeout, refused address, network). */
  status: number | null;
  /** The answer's JSON (up to 64 KiB), else its text cut; null when empty or absent. */
  body: unknown;
  /** Why the request failed before an answer (null when one came). */
  error: string | null;
  /** True when retrying cannot help (e.g. the signing integration is revoked). */
  terminal: boolean;
  attempt: number;
  idempotencyKey: string;
}

/** What `run` (or an undo) returns to call out instead of finishing in the transaction. */
export interface ExternalCall {
  call: ExternalRequest;
}

export function isExternalCall(value: unknown): value is ExternalCall {
  return typeof value === 'object' && value !== null && 'call' in value && typeof (value as ExternalCall).call === 'object';
}

/** What a finished step (or a resolved wait) reports back to the machine. */
export interface StepResult {
  branch: string;
  output?: unknown;
  vars?: Record<string, unknown>;
  summary?: string;
  emit?: { event: string; data?: Record<string, unknown> };
}

/** What a wait node asks the host to open: an inbox row, an event listener or a timer. */
export interface WaitSpec {
  kind: 'approval' | 'event' | 'delay';
  title?: string;
  event?: string;
  assignee?: string;
  amount?: number;
  /** When the wait gives up (or, for a delay, when it elapses); null = never. */
  timeoutMs: number | null;
  /** The branch taken when the timer fires. */
  timeoutBranch: string;
}

/** How an open wait ended: an event arrived, a person decided, or its timer fired. */
export type WaitResolution =
  | { kind: 'event'; event: string; payload: Record<string, unknown>; at: number }
  | { kind: 'approval'; decision: 'approved' | 'rejected'; by: string; note: string | null; at: number }
  | { kind: 'timeout'; at: number }
  | { kind: 'elapsed'; at: number };

/** One field of a business event's payload as a node reads it: its name, whether it must be there, what it takes. */
export interface EventPayloadField {
  name: string;
  required: boolean;
  /** What the field takes, written as it would appear in JSON: `"accepted" | "rejected"`, `"<the seller's id>"`. */
  value: string;
}

/** The payload a node reads of a business event (after a wait.event took it): documentation data, never validation. */
export interface EventPayloadDoc {
  event: string;
  fields: readonly EventPayloadField[];
}

/** One node type: schema, branches, behaviour, undo. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the catalogue holds node types of every params type, and P is read and written (invariant): no other type admits them all.
export interface NodeTypeDef<P = any> {
  type: string;
  kind: NodeKind;
  label: string;
  description: string;
  /** Parsing fills the spec's defaults. */
  params: z.ZodType<P>;
  /** Outgoing branch names ([] for end/continue). */
  branches(params: P): readonly string[];
  /** What an edge without `branch` means ('ok' for steps, 'next' for logic/delay); null = branch required. */
  defaultBranch: string | null;
  /** Branches that need not be wired (e.g. a step's 'failed'). */
  optionalBranches?: readonly string[];
  /** When wired, a failed step goes there instead of rolling back. */
  failureBranch?: string;
  /** Steps only; DEFAULT_RETRY_POLICY when absent. */
  retry?: RetryPolicy;
  /**
   * Set on pass-counting nodes (logic.loop: 'next'): taking this branch adds one to
   * `context.passes[nodeId]` (the compiler's `countPass`). Every cycle in a graph must go
   * through such a node.
   */
  passBranch?: string;
  /**
   * The business event whose payload this node reads, with the fields it needs: what a sender must
   * put in the payload (the A2A status of a waiting order and the deliver_event tool say it).
   */
  eventPayload?: EventPayloadDoc;
  /** Prose for docs: what the node writes to nodes.<id> and to vars. */
  outputs?: string;
  vars?: string;
  /** The retry policy from the node's params (http.call's `retry`); wins over `retry`. */
  retryPolicy?(params: P): RetryPolicy;
  /**
   * Steps: the body decides before it writes. Every failure it means (a decline, a shortage, a bad
   * payload) is thrown before its ports first write, or right after a checked write
   * (`StepStore.checkedWriter`, which opens the savepoint); after an ordinary write it only writes,
   * reads and returns. The engine then runs it without a savepoint (no statement, no
   * subtransaction); should it throw after an ordinary write all the same (a write the database
   * refuses, a bug), the command is rolled back and fails, as when the database is unreachable,
   * instead of the step. Absent: the step's first write opens its savepoint, and a failure after it
   * is rolled back to it and recorded as the step's.
   */
  decidesBeforeWriting?: boolean;
  /**
   * A local step returns its result. An external step returns `{ call }`: the slice records the
   * call and commits, the host makes it outside the transaction, and `answer` runs in the next
   * slice with what came back.
   */
  run?(ctx: StepContext<P>): Promise<StepResult | ExternalCall> | StepResult | ExternalCall;
  /** External steps: turns the answer into the step's result, or throws (the retry policy applies). */
  answer?(ctx: StepContext<P>, answer: ExternalAnswer): Promise<StepResult> | StepResult;
  wait?(ctx: StepContext<P>): WaitSpec;
  resolveWait?(params: P, resolution: WaitResolution): StepResult;
  /**
   * External steps: undoes what `run` prepared in the transaction before its call (e.g. stock it
   * reserved) when the step finally fails or the order is cancelled while the call is out. The
   * step never completed, so compensate does not run for it.
   */
  abandon?(ctx: StepContext<P>): Promise<void>;
  /** Whether these params leave anything to undo (http.call without `compensate`: nothing); absent = yes. */
  undoable?(params: P): boolean;
  /** Undoes a completed step in the transaction; may return `{ call }` to undo remotely (made after commit, retried durably). */
  compensate?(ctx: StepContext<P>): Promise<void | ExternalCall>;
  /**
   * Undo on cancel; absent = compensate; null = nothing to undo on cancel (money captured or
   * charged stays: a cancel refunds nothing).
   */
  cancel?: ((ctx: StepContext<P>) => Promise<void | ExternalCall>) | null;
}
