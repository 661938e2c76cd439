// Queues push notifications in the transaction that changed the task: one delivery row per config, with its guard timer.
import { randomUUID } from 'node:crypto';
import { A2A_CONTENT_TYPE, StreamResponse, type Artifact, type Task } from '@a2a-js/sdk';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import type { PoolClient } from 'pg';
import { schedule } from '../engine/scheduler/timer-store.js';
import { attemptTimer, guardDueAt, type AttemptTimerKind } from '../engine/outbox/attempt-schedule.js';
import type { A2aPushStore, PushTarget } from './a2a-push-store.js';

/** Timer kind of push attempts in the durable scheduler (handled by the push worker). */
export const PUSH_TIMER_KIND = 'a2a.push';

/** Push attempt timers: `{ deliveryId, attempt }`. */
export const PUSH_TIMER: AttemptTimerKind = { kind: PUSH_TIMER_KIND, idKey: 'deliveryId' };

/** What changed: the task's status, or one of its artifacts. */
export type PushUpdate = { kind: 'status' } | { kind: 'artifact'; artifact: Artifact };

/** A delivery just queued, for the worker's first attempt once the transaction commits. */
export interface QueuedPush {
  id: string;
  taskId: string;
  configId: string;
  guardDueAt: number;
}

const v03 = new V03PushNotificationSerializer();

/**
 * Spec "Push notifications": a URL registered over 1.0 gets the A2A 1.0 StreamResponse JSON
 * (`statusUpdate` with taskId, contextId, status; or `artifactUpdate`) as `application/a2a+json`;
 * a URL registered over 0.3 gets the whole task (`kind: task`), as the 0.3 spec's push did.
 */
export function pushBody(target: PushTarget, task: Task, update: PushUpdate): { body: string; contentType: string } {
  if (target.wireVersion === '0.3') return v03.serialize({ payload: { $case: 'task', value: task } }, task);
  const payload: StreamResponse['payload'] =
    update.kind === 'status'
      ? { $case: 'statusUpdate', value: { taskId: task.id, contextId: task.contextId, status: task.status, metadata: undefined } }
      : { $case: 'artifactUpdate', value: { taskId: task.id, contextId: task.contextId, artifact: update.artifact, append: false, lastChunk: true, metadata: undefined } };
  return { body: JSON.stringify(StreamResponse.toJSON({ payload })), contentType: A2A_CONTENT_TYPE };
}

/** Writes one pending delivery per config of the task (and the guard timer of its first attempt). */
export async function queuePushes(
  tx: PoolClient,
  configs: A2aPushStore,
  owner: string,
  task: Task,
  updates: PushUpdate[],
  now: number,
  timeoutMs: number,
): Promise<QueuedPush[]> {
  if (updates.length === 0) return [];
  const targets = await configs.targets(tx, task.id, owner);
  const queued: QueuedPush[] = [];
  const firstGuardDueAt = guardDueAt(now, timeoutMs, 0);
  for (const target of targets)
    // A 0.3 URL gets the whole task: once per change, however many parts of it changed.
    for (const update of target.wireVersion === '0.3' ? updates.slice(0, 1) : updates) {
      const id = `a2ap_${randomUUID().replaceAll('-', '')}`;
      const { body, contentType } = pushBody(target, task, update);
      await tx.query(
        `INSERT INTO a2a_push_deliveries (id, task_id, config_id, body, content_type, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6)`,
        [id, task.id, target.id, body, contentType, now],
      );
      await schedule(tx, attemptTimer(PUSH_TIMER, id, 1, firstGuardDueAt), now);
      queued.push({ id, taskId: task.id, configId: target.id, guardDueAt: firstGuardDueAt });
    }
  return queued;
}
