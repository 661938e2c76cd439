// The A2A agent: a data part { skill, input } runs that tool as the caller; place_order follows its order; replies decide or deliver.
import { randomUUID } from 'node:crypto';
import { TaskState, type Message, type Part, type Task, type TaskStatus } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { OperationRegistry } from '../application/operation-registry.js';
import type { AnyOperation } from '../application/operation.js';
import type { OperationOutput } from '../application/operation-types.js';
import type { Db } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../logging/logger.js';
import { DomainError } from '../domain/errors.js';
import { ChangeSignal } from '../lib/change-signal.js';
import { callerOf, type A2aCaller } from './a2a-caller.js';
import { orderStatusData, readOrderTaskStatus, type OrderTaskStatus } from './a2a-order-status.js';
import { agentMessage, dataPart, messageData, messageText, textPart } from './a2a-parts.js';
import { orderPlacedFor, placeOrderKey } from './a2a-placed-orders.js';
import { ConcurrencyGate, type Release } from '../lib/concurrency-gate.js';
import { taskLink } from './a2a-task-store.js';
import { isFinalState } from './a2a-task-states.js';
import { refusalOf, type Refusal } from './a2a-tool-outcome.js';

/** Spec "Following": one request follows the order for about 25 seconds. */
export const FOLLOW_MS = 25_000;

/**
 * place_order starts running at once in one process. Each start holds one pooled connection for its
 * transaction; kept well below the pool's 20 (src/server/service.ts), so the task saves, follows and
 * every other caller still get connections during a burst.
 */
export const PLACE_ORDER_SLOTS = 8;

/** How long a place_order waits for a start slot; then its task fails having started nothing. */
export const PLACE_ORDER_WAIT_MS = 10_000;

/** place_order requests waiting for a slot at most; one more fails at once having started nothing. */
export const PLACE_ORDER_WAITING_MAX = 500;

/** What place_order answers (its artifact): the order and its status. */
interface PlacedOrder {
  orderId: string;
  status: string;
}

/** A place_order task that ends without an order: FAILED, saying why, that nothing started, and that the same message may be resent. */
function notStarted(why: string): Refusal {
  return {
    state: TaskState.TASK_STATE_FAILED,
    text: `${why}; this request started no order. Send the same message again (same messageId) in a few seconds.`,
  };
}

export interface ExecutorDeps {
  operations: OperationRegistry;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Calls `listener` after each committed change of the order; returns the unsubscribe function. */
  watch(orderId: string, listener: () => void): () => void;
  /** How long one request follows its order (FOLLOW_MS; tests shorten it). */
  followMs?: number;
  /** Tasks this process is following right now (the background sync leaves them to the follower). */
  following: Set<string>;
  /** A caller's tasks of one contextId, oldest first (chat history: the latest 50). */
  contextTasks(owner: string, contextId: string): Promise<Task[]>;
  /** Concurrent place_order starts (PLACE_ORDER_SLOTS; tests change it). */
  placeSlots?: number;
  /** How long a place_order waits for a start slot (PLACE_ORDER_WAIT_MS; tests change it). */
  placeWaitMs?: number;
}

/** A chat answer as its artifact holds it: what the next turn remembers, and a write waiting for confirmation. */
type ChatOutput = OperationOutput<'chat'>;

/** The chat artifact's output of a task, if it has one. */
function chatOutputOf(task: Task): ChatOutput | null {
  for (const artifact of [...(task.artifacts ?? [])].reverse())
    if (artifact.name === 'chat')
      // The chat artifact's data part is the chat operation's output as `artifact` published it (tasks are written only from our events).
      for (const part of artifact.parts) if (part.content?.$case === 'data') return part.content.value as ChatOutput;
  return null;
}

/** A typed request as the spec shapes it: one data part `{ skill, input }`. */
type Request = { skill: string; input: unknown } | { refused: string };

/** The agents' tools by name (the card's skills); other operations are not reachable over A2A. */
function agentTool(operations: OperationRegistry, name: string): AnyOperation | undefined {
  const op = operations.get(name);
  return op?.audience === 'agents' ? op : undefined;
}

export class A2aExecutor implements AgentExecutor {
  /** The process's place_order start slots (one key: the cap is on the pool, whoever calls). */
  private readonly placing: ConcurrencyGate;

  constructor(private readonly deps: ExecutorDeps) {
    const slots = deps.placeSlots ?? PLACE_ORDER_SLOTS;
    this.placing = new ConcurrencyGate({ perKey: slots, total: slots, waiting: PLACE_ORDER_WAITING_MAX });
  }

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const caller = callerOf(ctx.context);
    try {
      if (ctx.task) await this.reply(ctx, bus, caller, ctx.task);
      else await this.request(ctx, bus, caller);
    } catch (err) {
      // A bug: the task fails without details (they go to the log), never with an internal message.
      this.deps.logger.error({ err, taskId: ctx.taskId }, 'A2A execution failed');
      bus.publish(AgentEvent.statusUpdate({ taskId: ctx.taskId, contextId: ctx.contextId, status: this.status(ctx, TaskState.TASK_STATE_FAILED, [textPart('Internal error')]), metadata: undefined }));
    }
  }

  /** The SDK calls this only while a bus is live; CancelTask is handled by the request handler (it cancels the order). */
  async cancelTask(): Promise<void> {}

  /** A new task: parse the request, run the tool, and follow the order when it placed one. */
  private async request(ctx: RequestContext, bus: ExecutionEventBus, caller: A2aCaller): Promise<void> {
    const parsed = parseRequest(ctx.userMessage);
    const skill = 'skill' in parsed ? parsed.skill : undefined;
    const task: Task = {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: this.status(ctx, TaskState.TASK_STATE_WORKING, [textPart(skill ? `Running ${skill}.` : 'Reading the request.')]),
      artifacts: [],
      history: [ctx.userMessage],
      metadata: skill ? { skill } : {},
    };
    bus.publish(AgentEvent.task(task));
    if ('refused' in parsed) return this.end(ctx, bus, { state: TaskState.TASK_STATE_REJECTED, text: parsed.refused });
    const op = agentTool(this.deps.operations, parsed.skill);
    if (!op) {
      const names = this.deps.operations.list().filter((o) => o.audience === 'agents').map((o) => o.name);
      return this.end(ctx, bus, { state: TaskState.TASK_STATE_REJECTED, text: `Unknown skill ${parsed.skill}; the skills are ${names.join(', ')}` });
    }
    const call = { ip: caller.ip };
    if (op.name === 'place_order') return this.placeOrder(ctx, bus, caller, parsed.input);
    if (op.name === 'chat') return this.chat(ctx, bus, caller, parsed.input);
    let output: unknown;
    try {
      output = await this.deps.operations.callByName(op.name, caller.principal, parsed.input, call);
    } catch (err) {
      return this.refused(ctx, bus, err);
    }
    this.artifact(ctx, bus, op.name, output);
    const text = op.summarize ? op.summarize(output) : `${op.name} answered.`;
    this.publishStatus(ctx, bus, this.status(ctx, TaskState.TASK_STATE_COMPLETED, [textPart(text)]));
  }

  /**
   * place_order once per messageId, then follow the order (spec "Following"). The start waits for
   * one of the process's start slots (bounded); it holds no transaction of its own around the start:
   * the key derived from caller and messageId is claimed inside the order's start transaction, so
   * the order starts at most once per messageId, racing or retried, crash or not. Whatever fails,
   * the task reports what happened: an order that started is followed, never reported failed, and
   * a task that fails started no order (its text says so, and that the same message may be resent).
   */
  private async placeOrder(ctx: RequestContext, bus: ExecutionEventBus, caller: A2aCaller, input: unknown): Promise<void> {
    const release = await this.startSlot();
    if (!release) return this.end(ctx, bus, notStarted('Busy: too many orders are being placed at once'));
    let started: { placed: PlacedOrder } | { refusal: Refusal };
    try {
      started = await this.startOnce(ctx, caller, input);
    } finally {
      release();
    }
    if ('refusal' in started) return this.end(ctx, bus, started.refusal);
    const { orderId } = started.placed;
    this.artifact(ctx, bus, 'place_order', started.placed);
    try {
      await this.follow(ctx, bus, orderId, null);
    } catch (err) {
      // The order started: the task stays WORKING, linked to it; GetTask and the background sync read it live.
      this.deps.logger.warn({ err, taskId: ctx.taskId, orderId }, 'A2A follow of a placed order failed');
      const text = `Order ${orderId} started; its status could not be read just now: GetTask reads it.`;
      this.publishStatus(ctx, bus, this.status(ctx, TaskState.TASK_STATE_WORKING, [textPart(text), dataPart({ orderId })]), { skill: 'place_order', orderId });
    }
  }

  /** A start slot, waiting at most placeWaitMs; null when none freed in time (a slot granted later is given back at once). */
  private async startSlot(): Promise<Release | null> {
    const entered = this.placing.enter('place_order');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.deps.placeWaitMs ?? PLACE_ORDER_WAIT_MS)));
    const first = await Promise.race([entered, late]);
    clearTimeout(timer);
    if (first !== 'late') return first;
    void entered.then((release) => release?.());
    return null;
  }

  /** Runs place_order keyed by caller and messageId: the order it started or replayed, or why the task ends without one. */
  private async startOnce(ctx: RequestContext, caller: A2aCaller, input: unknown): Promise<{ placed: PlacedOrder } | { refusal: Refusal }> {
    const { messageId } = ctx.userMessage;
    try {
      const keyed = isObject(input) ? { ...input, idempotencyKey: placeOrderKey(caller.userName, messageId) } : input;
      return { placed: await this.deps.operations.callRaw('place_order', caller.principal, keyed, { ip: caller.ip }) };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'idempotency_mismatch')
        return { refusal: { state: TaskState.TASK_STATE_REJECTED, text: `messageId ${messageId} already placed a different order: send a new messageId per order` } };
      // A refused role, input or start throws before the start's transaction commits: nothing started.
      const refusal = refusalOf(err);
      if (refusal) return { refusal };
      // Anything else (the database busy or gone, a bug) may come before or after the commit: the key tells which.
      this.deps.logger.error({ err, taskId: ctx.taskId }, 'A2A place_order failed; reading whether the order started');
      const placed = await this.placedFor(caller.userName, messageId);
      if (placed) return { placed };
      if (placed === null) return { refusal: notStarted('The order could not be started just now') };
      return {
        refusal: {
          state: TaskState.TASK_STATE_FAILED,
          text: 'Could not tell whether the order started (the database did not answer). Send the same message again (same messageId): it follows the order if one started and starts it otherwise.',
        },
      };
    }
  }

  /** The order started under (owner, messageId) and its status; null when none started; undefined when the database did not answer (3 tries). */
  private async placedFor(owner: string, messageId: string): Promise<PlacedOrder | null | undefined> {
    for (let tries = 0; tries < 3; tries++) {
      try {
        const orderId = await orderPlacedFor(this.deps.db, owner, messageId);
        if (!orderId) return null;
        const status = await readOrderTaskStatus(this.deps.db, orderId);
        return { orderId, status: status?.orderStatus ?? 'queued' };
      } catch (err) {
        this.deps.logger.warn({ err, owner, messageId }, 'A2A place_order: reading whether the order started failed');
      }
    }
    return undefined;
  }

  /**
   * A chat turn: what the conversation (contextId) remembers comes from its latest chat answer; a write comes back
   * as a proposal and the task waits (INPUT_REQUIRED) for `{ confirm: true | false }`.
   */
  private async chat(ctx: RequestContext, bus: ExecutionEventBus, caller: A2aCaller, input: unknown): Promise<void> {
    const history = await this.deps.contextTasks(caller.userName, ctx.contextId);
    const remembered = history.map(chatOutputOf).filter((o): o is ChatOutput => o !== null).at(-1)?.context;
    let output: ChatOutput;
    try {
      const withContext = isObject(input) && remembered && !('context' in input) ? { ...input, context: remembered } : input;
      output = await this.deps.operations.callRaw('chat', caller.principal, withContext, { ip: caller.ip });
    } catch (err) {
      return this.refused(ctx, bus, err);
    }
    this.artifact(ctx, bus, 'chat', output);
    if (output.proposal)
      return this.publishStatus(ctx, bus, this.status(ctx, TaskState.TASK_STATE_INPUT_REQUIRED, [textPart(output.text), dataPart({ proposal: output.proposal, summary: output.summary })]));
    this.publishStatus(ctx, bus, this.status(ctx, TaskState.TASK_STATE_COMPLETED, [textPart(output.text)]));
  }

  /** `{ confirm: true }` runs the proposal as the caller (with the role checks); `{ confirm: false }` drops it and ends the task. */
  private async confirm(ctx: RequestContext, bus: ExecutionEventBus, caller: A2aCaller, task: Task, proposal: NonNullable<ChatOutput['proposal']>): Promise<void> {
    const reply = messageData(ctx.userMessage)[0];
    if (!isObject(reply) || typeof reply.confirm !== 'boolean')
      return bus.publish(AgentEvent.message(agentMessage(task.id, task.contextId, [textPart('Refused: reply with a data part { "confirm": true } to run the proposal or { "confirm": false } to drop it')])));
    if (!reply.confirm) return this.publishStatus(ctx, bus, this.status(ctx, TaskState.TASK_STATE_CANCELED, [textPart('Dropped: nothing was done.')]));
    let output: unknown;
    try {
      output = await this.deps.operations.callByName(proposal.skill, caller.principal, proposal.input, { ip: caller.ip });
    } catch (err) {
      return this.refused(ctx, bus, err);
    }
    this.artifact(ctx, bus, proposal.skill, output);
    const op = agentTool(this.deps.operations, proposal.skill);
    this.publishStatus(ctx, bus, this.status(ctx, TaskState.TASK_STATE_COMPLETED, [textPart(op?.summarize ? op.summarize(output) : `${proposal.skill} done.`)]));
  }

  /**
   * A message on an existing task. Only a task following an order that waits (INPUT_REQUIRED)
   * takes one: `{ decision, nodeId?, note? }` runs decide_approval, `{ event, payload? }` runs
   * deliver_event, `{ action, nodeId?, note? }` runs resolve_hold (contract 16), as the caller. Anything else is refused with an agent message and the task
   * stays as it was (the order still waits, so it must not end).
   */
  private async reply(ctx: RequestContext, bus: ExecutionEventBus, caller: A2aCaller, task: Task): Promise<void> {
    const proposal = task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED ? chatOutputOf(task)?.proposal : null;
    if (proposal) return this.confirm(ctx, bus, caller, task, proposal);
    const { orderId } = taskLink(task);
    const refuse = (text: string, data?: Record<string, unknown>) =>
      bus.publish(AgentEvent.message(agentMessage(task.id, task.contextId, data ? [textPart(text), dataPart(data)] : [textPart(text)])));
    if (!orderId || task.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED)
      return refuse(`Refused: task ${task.id} is not waiting for input (${orderId ? 'its order is not waiting' : 'it follows no order'}); a reply is taken only while the task is input-required`);
    const reply = messageData(ctx.userMessage)[0];
    if (!isObject(reply) || (!('decision' in reply) && !('event' in reply) && !('action' in reply)))
      return refuse('Refused: a reply is a data part { "decision": "approved" | "rejected", "nodeId"?, "note"? }, { "event", "payload"? } or { "action": "retry" | "rollback", "nodeId"?, "note"? }');
    const tool = 'decision' in reply ? 'decide_approval' : 'event' in reply ? 'deliver_event' : 'resolve_hold';
    // From here this request follows the order: the background sync leaves the task to it.
    this.deps.following.add(task.id);
    try {
      const out = await this.deps.operations.callRaw(tool, caller.principal, { ...reply, orderId }, { ip: caller.ip });
      if ('delivered' in out && !out.delivered) {
        this.deps.following.delete(task.id);
        return refuse(`Refused: nothing waits for ${String(reply.event)}${out.waitingFor?.length ? `; the order waits for ${out.waitingFor.join(', ')}` : ''}`);
      }
    } catch (err) {
      this.deps.following.delete(task.id);
      const refusal = refusalOf(err);
      if (!refusal) throw err;
      return refuse(`Refused: ${refusal.text}`, refusal.data);
    }
    bus.publish(AgentEvent.task(task));
    await this.follow(ctx, bus, orderId, task.status);
  }

  /**
   * Publishes the order's status as it changes, for at most followMs, ending early when the
   * order finishes or waits (INPUT_REQUIRED). After that the task stays WORKING and reads of it
   * follow the order live (the task store).
   */
  private async follow(ctx: RequestContext, bus: ExecutionEventBus, orderId: string, last: TaskStatus | undefined | null): Promise<void> {
    const deadline = Date.now() + (this.deps.followMs ?? FOLLOW_MS);
    const signal = new ChangeSignal();
    const unsubscribe = this.deps.watch(orderId, () => signal.notify());
    this.deps.following.add(ctx.taskId);
    let lastKey = last ? `${last.state}|${last.message ? messageText(last.message) : ''}` : '';
    try {
      for (;;) {
        const status = await readOrderTaskStatus(this.deps.db, orderId);
        if (!status) throw new Error(`followed order ${orderId} is gone`);
        const key = `${status.state}|${status.text}`;
        if (key !== lastKey) {
          this.publishStatus(ctx, bus, this.orderStatus(ctx, status), { skill: 'place_order', orderId });
          lastKey = key;
        }
        if (isFinalState(status.state) || status.state === TaskState.TASK_STATE_INPUT_REQUIRED) return;
        const remaining = deadline - Date.now();
        if (remaining <= 0) return;
        await signal.wait(remaining);
      }
    } finally {
      unsubscribe();
      this.deps.following.delete(ctx.taskId);
    }
  }

  private orderStatus(ctx: RequestContext, s: OrderTaskStatus): TaskStatus {
    return this.status(ctx, s.state, [textPart(s.text), dataPart(orderStatusData(s))]);
  }

  private status(ctx: RequestContext, state: TaskState, parts: Part[]): TaskStatus {
    return { state, message: agentMessage(ctx.taskId, ctx.contextId, parts), timestamp: new Date(this.deps.clock.now()).toISOString() };
  }

  private publishStatus(ctx: RequestContext, bus: ExecutionEventBus, status: TaskStatus, metadata?: Record<string, unknown>): void {
    bus.publish(AgentEvent.statusUpdate({ taskId: ctx.taskId, contextId: ctx.contextId, status, metadata }));
  }

  /** Contract section 11: one artifact named after the tool holding one data part (the output). */
  private artifact(ctx: RequestContext, bus: ExecutionEventBus, tool: string, output: unknown): void {
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId: ctx.taskId,
        contextId: ctx.contextId,
        artifact: { artifactId: randomUUID(), name: tool, description: '', parts: [dataPart(output as Record<string, unknown>)], metadata: undefined, extensions: [] },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
  }

  private refused(ctx: RequestContext, bus: ExecutionEventBus, err: unknown): void {
    const refusal = refusalOf(err);
    if (!refusal) throw err;
    this.end(ctx, bus, refusal);
  }

  private end(ctx: RequestContext, bus: ExecutionEventBus, refusal: Refusal): void {
    const parts = [textPart(refusal.text), ...(refusal.data ? [dataPart(refusal.data)] : [])];
    this.publishStatus(ctx, bus, this.status(ctx, refusal.state, parts));
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Spec "Message": a typed request is a data part `{ skill, input }`; a text-only message goes to
 * `chat` (its text as `{ text }`); anything else is refused with what to send.
 */
export function parseRequest(message: Message): Request {
  const data = messageData(message);
  if (data.length > 0) {
    const first = data[0];
    if (data.length > 1) return { refused: 'A typed request is one data part { "skill", "input" }; this message has several' };
    if (!isObject(first) || typeof first.skill !== 'string' || first.skill === '')
      return { refused: 'A typed request is a data part { "skill": <tool name>, "input": { ... } }' };
    const extra = Object.keys(first).filter((k) => k !== 'skill' && k !== 'input');
    if (extra.length) return { refused: `A typed request has only "skill" and "input"; unknown: ${extra.join(', ')}` };
    return { skill: first.skill, input: first.input ?? {} };
  }
  const text = messageText(message);
  if (text) return { skill: 'chat', input: { text } };
  return { refused: 'The message has no text part and no data part { "skill", "input" }' };
}
