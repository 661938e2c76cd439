// Tasks in PostgreSQL, per caller: the SDK's TaskStore, live reads of followed orders, pushes queued with each change.
import { Task, TaskState, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { PoolClient } from 'pg';
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../logging/logger.js';
import { callerOf } from './a2a-caller.js';
import { orderStatusData, readOrderTaskStatus } from './a2a-order-status.js';
import { agentMessage, dataPart, messageText, textPart } from './a2a-parts.js';
import { queuePushes, type PushUpdate, type QueuedPush } from './a2a-push-queue.js';
import type { A2aPushStore } from './a2a-push-store.js';
import { FINAL_STATES, isFinalState, stateName } from './a2a-task-states.js';

/** Spec "Task store": finished tasks not updated for 90 days are deleted on the caller's next save. */
export const FINISHED_TASK_KEPT_MS = 90 * 24 * 3_600_000;

/** Spec "Task store": chat turns read at most the latest 50 tasks of their contextId as history. */
export const CHAT_HISTORY_TASKS = 50;

const FINAL_NAMES = [...FINAL_STATES].map(stateName);

/** What our code keeps in a task's metadata: the tool it ran and the order it follows. */
export interface TaskLink {
  skill?: string;
  orderId?: string;
}

export function taskLink(task: Task): TaskLink {
  const m = task.metadata ?? {};
  return { skill: typeof m.skill === 'string' ? m.skill : undefined, orderId: typeof m.orderId === 'string' ? m.orderId : undefined };
}

export interface TaskStoreDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  configs: A2aPushStore;
  /** The push worker's first attempts, made once the queuing transaction committed. */
  afterQueued(pushes: QueuedPush[]): void;
  pushTimeoutMs: number;
}

interface StoredRow {
  owner: string;
  orderId: string | null;
  state: string;
  statusKey: string;
  statusAt: number;
  task: Task;
}

/** The state and text of a status: a status is pushed only when this changes. */
export function statusKey(task: Task): string {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  return `${stateName(state)}|${task.status?.message ? messageText(task.status.message) : ''}`;
}

function statusTime(task: Task): number {
  const at = task.status?.timestamp ? Date.parse(task.status.timestamp) : NaN;
  return Number.isFinite(at) ? at : 0;
}

/** The `a2a_tasks` columns `toRow` reads: `task` is the jsonb the task was saved as (A2A 1.0 ProtoJSON), `status_at` a bigint string. */
interface TaskDbRow {
  owner: string;
  order_id: string | null;
  state: string;
  status_key: string;
  status_at: string;
  task: unknown;
}

function toRow(r: TaskDbRow): StoredRow {
  return { owner: r.owner, orderId: r.order_id, state: r.state, statusKey: r.status_key, statusAt: Number(r.status_at), task: Task.fromJSON(r.task) };
}

export class A2aTaskStore implements TaskStore {
  constructor(private readonly deps: TaskStoreDeps) {}

  /** The caller's task, its status first brought up to date with the order it follows (live read). */
  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const owner = callerOf(context).userName;
    await this.refresh(taskId);
    const { rows } = await this.deps.db.query<TaskDbRow>('SELECT * FROM a2a_tasks WHERE id = $1 AND owner = $2', [taskId, owner]);
    return rows.length ? toRow(rows[0]).task : undefined;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = callerOf(context).userName;
    const queued = await this.deps.db.tx(async (tx) => {
      const { rows } = await tx.query<TaskDbRow>('SELECT * FROM a2a_tasks WHERE id = $1 FOR UPDATE', [task.id]);
      const prev = rows.length ? toRow(rows[0]) : null;
      if (prev && prev.owner !== owner) throw new Error('A2A task saved by a caller that does not own it');
      if (!prev) await this.dropFinished(tx, owner);
      return this.write(tx, owner, task, prev);
    });
    this.deps.afterQueued(queued);
  }

  /**
   * Tasks of the caller, newest status first (TCK CORE-LIST-001..005): filters by contextId,
   * state and status time; `pageToken` is the last row's (status time, id); artifacts only with
   * `includeArtifacts`. Followed orders are read live first.
   */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const owner = callerOf(context).userName;
    await this.refreshStale(owner);
    const pageSize = params.pageSize ?? 50;
    const where = ['owner = $1'];
    const args: unknown[] = [owner];
    if (params.contextId) where.push(`context_id = $${args.push(params.contextId)}`);
    if (params.status) where.push(`state = $${args.push(stateName(params.status))}`);
    if (params.statusTimestampAfter) where.push(`status_at > $${args.push(Date.parse(params.statusTimestampAfter))}`);
    const filter = where.join(' AND ');
    const total = await this.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM a2a_tasks WHERE ${filter}`, args);
    const pageArgs = [...args];
    let page = filter;
    if (params.pageToken) {
      const cursor = decodeCursor(params.pageToken);
      page += ` AND (status_at, id) < ($${pageArgs.push(cursor.at)}, $${pageArgs.push(cursor.id)})`;
    }
    const { rows } = await this.deps.db.query<TaskDbRow>(`SELECT * FROM a2a_tasks WHERE ${page} ORDER BY status_at DESC, id DESC LIMIT $${pageArgs.push(pageSize + 1)}`, pageArgs);
    const more = rows.length > pageSize;
    const taken = rows.slice(0, pageSize).map(toRow);
    const tasks = taken.map((r) => (params.includeArtifacts ? r.task : { ...r.task, artifacts: [] }));
    const last = taken[taken.length - 1];
    return { tasks, nextPageToken: more && last ? encodeCursor(last.statusAt, last.task.id) : '', pageSize, totalSize: total.rows[0].n };
  }

  /** A task by id, whoever owns it (for our own code: the executor, the push sync). */
  async read(taskId: string): Promise<{ owner: string; task: Task } | null> {
    const { rows } = await this.deps.db.query<TaskDbRow>('SELECT * FROM a2a_tasks WHERE id = $1', [taskId]);
    return rows.length ? toRow(rows[0]) : null;
  }

  /**
   * Brings a task following an order up to date with it: a new status (state, what it waits for)
   * is stored, appended to the history and queued for push in one transaction. Nothing when the
   * status is the same, the task finished, or it follows no order.
   */
  async refresh(taskId: string): Promise<void> {
    const queued = await this.deps.db.tx((tx) => this.refreshIn(tx, taskId));
    this.deps.afterQueued(queued);
  }

  /** The same inside a transaction the caller commits (the outbox sink); the pushes are returned for afterQueued. */
  async refreshIn(tx: PoolClient, taskId: string): Promise<QueuedPush[]> {
    const { rows } = await tx.query<TaskDbRow>('SELECT * FROM a2a_tasks WHERE id = $1 FOR UPDATE', [taskId]);
    if (rows.length === 0) return [];
    const prev = toRow(rows[0]);
    if (!prev.orderId || FINAL_NAMES.includes(prev.state)) return [];
    const status = await readOrderTaskStatus(tx, prev.orderId);
    if (!status) return [];
    const task = structuredClone(prev.task);
    const message = agentMessage(task.id, task.contextId, [
      textPart(status.text),
      dataPart(orderStatusData(status)),
    ]);
    task.status = { state: status.state, message, timestamp: new Date(this.deps.clock.now()).toISOString() };
    if (statusKey(task) === prev.statusKey) {
      await tx.query('UPDATE a2a_tasks SET order_seen = $2 WHERE id = $1', [taskId, status.updatedAt]);
      return [];
    }
    task.history = [...(task.history ?? []), message];
    const queued = await this.write(tx, prev.owner, task, prev);
    await tx.query('UPDATE a2a_tasks SET order_seen = $2 WHERE id = $1', [taskId, status.updatedAt]);
    return queued;
  }

  /** The unfinished tasks following any of `orderIds`. */
  followersOf(orderIds: readonly string[]) {
    return this.deps.db.query<{ id: string }>('SELECT id FROM a2a_tasks WHERE order_id = ANY($1::text[]) AND state <> ALL($2::text[])', [[...orderIds], FINAL_NAMES]);
  }

  /** Refreshes tasks whose order changed since their status was read (one caller's, or all: the sweep). */
  async refreshStale(owner?: string, limit = 200): Promise<number> {
    const { rows } = await this.deps.db.query<{ id: string }>(
      `SELECT t.id FROM a2a_tasks t JOIN orders o ON o.id = t.order_id
        WHERE t.order_id IS NOT NULL AND t.state <> ALL($1::text[]) AND o.updated_at > coalesce(t.order_seen, 0)
          AND ($2::text IS NULL OR t.owner = $2)
        ORDER BY t.updated_at LIMIT $3`,
      [FINAL_NAMES, owner ?? null, limit],
    );
    for (const r of rows) await this.refresh(r.id);
    return rows.length;
  }

  /** The latest tasks of one context, oldest first (what a chat turn reads as its history). */
  async contextTasks(owner: string, contextId: string, limit = CHAT_HISTORY_TASKS): Promise<Task[]> {
    const { rows } = await this.deps.db.query<TaskDbRow>('SELECT * FROM a2a_tasks WHERE owner = $1 AND context_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3', [owner, contextId, limit]);
    return rows.map((r) => toRow(r).task).reverse();
  }

  /**
   * Upserts a task and queues what its subscribers must hear: a new status (state or text
   * changed), new artifacts. A status never goes back: a save carrying an older status than the
   * stored one (a follower that read the order before a sync did) keeps the stored status, and a
   * finished task keeps its final status.
   */
  private async write(tx: PoolClient, owner: string, incoming: Task, prev: StoredRow | null): Promise<QueuedPush[]> {
    const task = structuredClone(incoming);
    if (prev && (isFinalState(prev.task.status?.state) || statusTime(task) < prev.statusAt)) task.status = prev.task.status;
    const link = taskLink(task);
    const key = statusKey(task);
    const state = stateName(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
    const now = this.deps.clock.now();
    const at = statusTime(task) || now;
    await tx.query(
      `INSERT INTO a2a_tasks (id, owner, context_id, skill, order_id, state, status_key, status_at, task, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (id) DO UPDATE SET skill = EXCLUDED.skill, order_id = EXCLUDED.order_id, state = EXCLUDED.state, status_key = EXCLUDED.status_key,
         status_at = EXCLUDED.status_at, task = EXCLUDED.task, updated_at = EXCLUDED.updated_at`,
      [task.id, owner, task.contextId, link.skill ?? null, link.orderId ?? null, state, key, at, JSON.stringify(Task.toJSON(task)), now],
    );
    const updates: PushUpdate[] = [];
    const known = new Set((prev?.task.artifacts ?? []).map((a) => a.artifactId));
    for (const artifact of task.artifacts ?? []) if (!known.has(artifact.artifactId)) updates.push({ kind: 'artifact', artifact });
    if (key !== prev?.statusKey && task.status) updates.push({ kind: 'status' });
    return queuePushes(tx, this.deps.configs, owner, task, updates, now, this.deps.pushTimeoutMs);
  }

  /** Spec "Task store": the caller's finished tasks not updated for 90 days go, with their push configs. */
  private async dropFinished(q: Queryable, owner: string): Promise<void> {
    await deleteFinished(q, this.deps.clock.now() - FINISHED_TASK_KEPT_MS, { owner });
  }

  /**
   * Spec "Task store": finished tasks are deleted after 90 days, also those of a caller who never sends again (the
   * sweep, on every node; a caller's own next save drops theirs too). In batches, each with its tasks' push configs.
   */
  async purgeFinished(): Promise<number> {
    const before = this.deps.clock.now() - FINISHED_TASK_KEPT_MS;
    let removed = 0;
    for (;;) {
      const n = await this.deps.db.tx((tx) => deleteFinished(tx, before, { limit: PURGE_BATCH }));
      removed += n;
      if (n < PURGE_BATCH) return removed;
    }
  }

}

function encodeCursor(at: number, id: string): string {
  return Buffer.from(`${at}|${id}`).toString('base64url');
}

/** A page token not issued here is a malformed request (-32602), never a 500. */
function decodeCursor(token: string): { at: number; id: string } {
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const at = Number(text.slice(0, bar));
  if (bar <= 0 || !Number.isSafeInteger(at) || text.length - bar - 1 < 1 || text.length > 300) throw new RequestMalformedError('pageToken was not issued by ListTasks');
  return { at, id: text.slice(bar + 1) };
}

/**
 * The finished states as constants, as migration 0027's partial index names them: a parameter (`= ANY($1)`) would
 * leave a generic plan unable to prove the index's predicate.
 */
const FINISHED_PREDICATE = `state IN (${FINAL_NAMES.map((n) => `'${n}'`).join(', ')})`;

/** Tasks deleted per transaction by the sweep's purge. */
const PURGE_BATCH = 1_000;

/** Deletes finished tasks last changed before `before` (one caller's, or at most `limit` of anyone's) and their push configs. */
async function deleteFinished(q: Queryable, before: number, which: { owner: string } | { limit: number }): Promise<number> {
  const { rows } =
    'owner' in which
      ? await q.query<{ id: string }>('DELETE FROM a2a_tasks WHERE owner = $1 AND state = ANY($2::text[]) AND updated_at < $3 RETURNING id', [which.owner, FINAL_NAMES, before])
      : await q.query<{ id: string }>(
          // = ANY(ARRAY(…)): the ids found through migration 0027's index, then each deleted through the primary key.
          `DELETE FROM a2a_tasks WHERE id = ANY(ARRAY(SELECT id FROM a2a_tasks WHERE ${FINISHED_PREDICATE} AND updated_at < $1 LIMIT $2)) RETURNING id`,
          [before, which.limit],
        );
  if (rows.length) await q.query('DELETE FROM a2a_push_configs WHERE task_id = ANY($1::text[])', [rows.map((r) => r.id)]);
  return rows.length;
}
