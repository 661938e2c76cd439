// The SDK's request handler with our task semantics: CancelTask cancels the followed order, SubscribeToTask follows it.
import { ChangeSignal } from '../lib/change-signal.js';
import { TaskState, type AgentCard, type CancelTaskRequest, type DeleteTaskPushNotificationConfigRequest, type GetExtendedAgentCardRequest,
  type GetTaskPushNotificationConfigRequest, type GetTaskRequest, type ListTaskPushNotificationConfigsRequest, type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest, type ListTasksResponse, type Message, type SendMessageRequest, type StreamResponse, type SubscribeToTaskRequest, type Task,
  type TaskPushNotificationConfig } from '@a2a-js/sdk';
import { DefaultRequestHandler, type A2ARequestHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import { A2AError, TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError, RequestMalformedError } from '@a2a-js/sdk/errors';
import type { Logger } from '../logging/logger.js';
import type { OperationRegistry } from '../application/operation-registry.js';
import type { Clock } from '../platform/clock.js';
import { DomainError } from '../domain/errors.js';
import { callerOf } from './a2a-caller.js';
import type { A2aExecutor } from './a2a-executor.js';
import { agentMessage, textPart } from './a2a-parts.js';
import type { A2aPushStore } from './a2a-push-store.js';
import { statusKey, taskLink, type A2aTaskStore } from './a2a-task-store.js';
import { isFinalState, stateName } from './a2a-task-states.js';

/** How long one SubscribeToTask stream stays open at most (a client resubscribes after it). */
export const SUBSCRIBE_MS = 30 * 60_000;

/** Spec "Following": the reason an order cancelled over A2A records. */
export function a2aCancelReason(actor: string): string {
  return `Cancelled over A2A by ${actor}`;
}

export interface RequestHandlerDeps {
  card: AgentCard;
  store: A2aTaskStore;
  configs: A2aPushStore;
  executor: A2aExecutor;
  operations: OperationRegistry;
  clock: Clock;
  watch(orderId: string, listener: () => void): () => void;
  logger: Logger;
  subscribeMs?: number;
}

/** A push sender that sends nothing itself: the task store queues notifications durably with each change it saves. */
const queuedBySaves = { send: async () => undefined };

export class A2aRequestHandler implements A2ARequestHandler {
  private readonly inner: DefaultRequestHandler;

  constructor(private readonly deps: RequestHandlerDeps) {
    // Buses end with each request (no state kept in memory between requests): a reply or a
    // subscription reads the task from PostgreSQL, so any node can serve it.
    this.inner = new DefaultRequestHandler(deps.card, deps.store, deps.executor, undefined, deps.configs, queuedBySaves, undefined, undefined, {
      keepBusAliveStates: [],
      validateInputModes: true,
    });
  }

  /** An error that is not an A2A one is a bug: logged, answered as an internal error without its message. */
  private async safe<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw this.mapped(err);
    }
  }

  private mapped(err: unknown): unknown {
    if (err instanceof A2AError) return err;
    this.deps.logger.error({ err }, 'A2A request failed');
    return new A2AError('Internal error');
  }

  private async *safeStream<T>(stream: () => AsyncGenerator<T, void, undefined>): AsyncGenerator<T, void, undefined> {
    try {
      yield* stream();
    } catch (err) {
      throw this.mapped(err);
    }
  }

  getAgentCard(): Promise<AgentCard> {
    return this.inner.getAgentCard();
  }

  getAuthenticatedExtendedAgentCard(params: GetExtendedAgentCardRequest, context: ServerCallContext): Promise<AgentCard> {
    return this.safe(() => this.inner.getAuthenticatedExtendedAgentCard(params, context));
  }

  sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    return this.safe(() => this.inner.sendMessage(params, context));
  }

  sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    return this.safeStream(() => this.inner.sendMessageStream(params, context));
  }

  getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.safe(() => this.inner.getTask(params, context));
  }

  listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.safe(() => this.inner.listTasks(params, context));
  }

  createTaskPushNotificationConfig(params: TaskPushNotificationConfig, context: ServerCallContext): Promise<TaskPushNotificationConfig> {
    return this.safe(() => this.inner.createTaskPushNotificationConfig(params, context));
  }

  getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest, context: ServerCallContext): Promise<TaskPushNotificationConfig> {
    return this.safe(() => this.inner.getTaskPushNotificationConfig(params, context));
  }

  listTaskPushNotificationConfigs(params: ListTaskPushNotificationConfigsRequest, context: ServerCallContext): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.safe(() => this.inner.listTaskPushNotificationConfigs(params, context));
  }

  deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest, context: ServerCallContext): Promise<void> {
    return this.safe(() => this.inner.deleteTaskPushNotificationConfig(params, context));
  }

  /**
   * Spec "Following": on a task following an unfinished order, cancels the order as the caller
   * (cancel_order, with the role check) and then the task; when the order refuses (already
   * finished, role too low) the task is not cancelable. A task following no order (a chat
   * proposal waiting for confirmation) just ends. A task already final, cancelled ones included, is
   * not cancelable (-32002).
   */
  cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.safe(() => this.cancel(params, context));
  }

  resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    return this.safeStream(() => this.subscribe(params, context));
  }

  private async cancel(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    if (!params.id?.trim()) throw new RequestMalformedError('id is required');
    const caller = callerOf(context);
    const task = await this.deps.store.load(params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    // Contract section 11: a task already final (completed, failed, rejected, or canceled before) is not cancelable (-32002).
    if (isFinalState(task.status?.state)) throw new TaskNotCancelableError(`Task ${params.id} has finished (${stateName(task.status!.state)}) and cannot be canceled`);
    const { orderId } = taskLink(task);
    if (orderId) {
      try {
        await this.deps.operations.call('cancel_order', caller.principal, { orderId, reason: a2aCancelReason(caller.principal.actor) }, { ip: caller.ip });
      } catch (err) {
        if (err instanceof DomainError) throw new TaskNotCancelableError(`Task ${params.id} cannot be canceled: ${err.message}`);
        throw err;
      }
      await this.deps.store.refresh(params.id);
    } else {
      const ended = structuredClone(task);
      ended.status = { state: TaskState.TASK_STATE_CANCELED, message: agentMessage(task.id, task.contextId, [textPart('Task canceled.')]), timestamp: new Date(this.deps.clock.now()).toISOString() };
      await this.deps.store.save(ended, context);
    }
    const latest = await this.deps.store.load(params.id, context);
    if (!latest || latest.status?.state !== TaskState.TASK_STATE_CANCELED) throw new TaskNotCancelableError(`Task ${params.id} cannot be canceled`);
    return latest;
  }

  /**
   * SubscribeToTask: the task first, then each new status of its order until the task ends (TCK
   * STREAM-SUB-001..004). Unknown: task not found; finished: unsupported operation.
   */
  private async *subscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    if (!params.id?.trim()) throw new RequestMalformedError('id is required');
    const task = await this.deps.store.load(params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    if (isFinalState(task.status?.state)) throw new UnsupportedOperationError(`Task ${params.id} has finished; read it with GetTask`);
    yield { payload: { $case: 'task', value: task } };
    const { orderId } = taskLink(task);
    if (!orderId) return;
    const deadline = Date.now() + (this.deps.subscribeMs ?? SUBSCRIBE_MS);
    // Started as changed: a change between the read above and the subscription is not lost, it is looked at first.
    const signal = new ChangeSignal(true);
    const unsubscribe = this.deps.watch(orderId, () => signal.notify());
    let last = statusKey(task);
    try {
      for (;;) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) return;
        await signal.wait(remaining);
        const now = await this.deps.store.load(params.id, context);
        if (!now) return;
        if (statusKey(now) !== last) {
          last = statusKey(now);
          yield { payload: { $case: 'statusUpdate', value: { taskId: now.id, contextId: now.contextId, status: now.status, metadata: undefined } } };
        }
        if (isFinalState(now.status?.state)) return;
      }
    } finally {
      unsubscribe();
    }
  }
}
