// Push notification configs in PostgreSQL, per caller and task: at most 5, URL rules, secrets sealed, wire version kept.
import { randomUUID } from 'node:crypto';
import type { ServerCallContext, StoredPushNotificationConfig, PushNotificationStore } from '@a2a-js/sdk/server';
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { JsonRpcRequestMalformedError, A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import { deriveSecretKey, openSecret, sealSecret } from '../auth/secret-box.js';
import { callerOf } from './a2a-caller.js';
import { pushUrlProblem } from './a2a-push-url.js';
import { wireVersionOf } from './a2a-version.js';

/** Spec "Limits": 5 push URLs per task. */
export const PUSH_CONFIGS_PER_TASK = 5;

/** A stored config with what the sender needs: the secrets opened, the wire version it was registered over. */
export interface PushTarget {
  id: string;
  url: string;
  token: string;
  authentication: { scheme: string; credentials: string } | null;
  wireVersion: '1.0' | '0.3';
}

/** The spec's "invalid-request error" for a refused config (JSON-RPC -32600). */
function invalidRequest(message: string): Error {
  return new JsonRpcRequestMalformedError({ message, envelopeCode: A2A_ERROR_CODE.INVALID_REQUEST });
}

/** The `a2a_push_configs` columns a target is made of; the CHECK constraint bounds `wire_version`, `save` writes `auth_scheme` and `credentials_sealed` together. */
interface PushConfigDbRow {
  id: string;
  url: string;
  token_sealed: string | null;
  auth_scheme: string | null;
  credentials_sealed: string | null;
  wire_version: '1.0' | '0.3';
}

export class A2aPushStore implements PushNotificationStore {
  private readonly key: Buffer;

  constructor(
    private readonly deps: { db: Db; clock: Clock; secretKey: Buffer },
  ) {
    this.key = deriveSecretKey(deps.secretKey, 'a2a-push-config');
  }

  /**
   * Creates or replaces (same id) a config. Refused with an invalid-request error: a URL outside the
   * rules, a sixth config. Replacing drops what was queued for the old one (cascade), like a delete.
   */
  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    const owner = callerOf(context).userName;
    const problem = pushUrlProblem(config.url ?? '');
    if (problem) throw invalidRequest(problem);
    if (config.id && config.id.length > 200) throw invalidRequest('Push config id is longer than 200 characters');
    if ((config.token ?? '').length > 1000 || (config.authentication?.credentials ?? '').length > 4000 || (config.authentication?.scheme ?? '').length > 100)
      throw invalidRequest('Push config token or credentials are too long');
    if (config.authentication && !/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/.test(config.authentication.scheme))
      throw invalidRequest('Push config authentication.scheme must be an HTTP auth scheme such as Bearer');
    if (!config.id) config.id = randomUUID();
    config.taskId = taskId;
    const id = config.id;
    const now = this.deps.clock.now();
    const wire = wireVersionOf(context);
    await this.deps.db.tx(async (tx) => {
      // Serialises configs of one task so two racing creates cannot make a sixth.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`a2a-push:${taskId}`]);
      const { rows } = await tx.query<{ id: string }>('SELECT id FROM a2a_push_configs WHERE task_id = $1 AND owner = $2', [taskId, owner]);
      const replaces = rows.some((r) => r.id === id);
      if (!replaces && rows.length >= PUSH_CONFIGS_PER_TASK) throw invalidRequest(`A task takes at most ${PUSH_CONFIGS_PER_TASK} push URLs`);
      if (replaces) await tx.query('DELETE FROM a2a_push_configs WHERE task_id = $1 AND id = $2 AND owner = $3', [taskId, id, owner]);
      const ctx = `${taskId}|${id}`;
      await tx.query(
        `INSERT INTO a2a_push_configs (owner, task_id, id, url, token_sealed, auth_scheme, credentials_sealed, wire_version, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          owner,
          taskId,
          id,
          config.url,
          config.token ? sealSecret(this.key, config.token, ctx) : null,
          config.authentication?.scheme ?? null,
          config.authentication ? sealSecret(this.key, config.authentication.credentials, ctx) : null,
          wire,
          now,
        ],
      );
    });
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, context)).map((s) => s.config);
  }

  async loadWithMetadata(taskId: string, context: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    const owner = callerOf(context).userName;
    const targets = await this.targets(this.deps.db, taskId, owner);
    return targets.map((t) => ({
      wireVersion: t.wireVersion,
      config: { tenant: '', id: t.id, taskId, url: t.url, token: t.token, authentication: t.authentication ?? undefined },
    }));
  }

  /** Deletes one config (or all of the task's); absent is not an error (idempotent, TCK PUSH-DEL-002). Drops its queued notifications. */
  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    const owner = callerOf(context).userName;
    if (configId) await this.deps.db.query('DELETE FROM a2a_push_configs WHERE task_id = $1 AND owner = $2 AND id = $3', [taskId, owner, configId]);
    else await this.deps.db.query('DELETE FROM a2a_push_configs WHERE task_id = $1 AND owner = $2', [taskId, owner]);
  }

  /** The configs of a task with their secrets opened (the queue writes bodies for them; the worker signs nothing). */
  async targets(q: Queryable, taskId: string, owner: string): Promise<PushTarget[]> {
    const { rows } = await q.query<PushConfigDbRow>(
      'SELECT id, url, token_sealed, auth_scheme, credentials_sealed, wire_version FROM a2a_push_configs WHERE task_id = $1 AND owner = $2 ORDER BY created_at, id',
      [taskId, owner],
    );
    return rows.map((r) => this.toTarget(taskId, r));
  }

  /** One config with its secrets opened; null when it was deleted. */
  async target(q: Queryable, taskId: string, configId: string): Promise<PushTarget | null> {
    const { rows } = await q.query<PushConfigDbRow>(
      'SELECT id, url, token_sealed, auth_scheme, credentials_sealed, wire_version FROM a2a_push_configs WHERE task_id = $1 AND id = $2',
      [taskId, configId],
    );
    return rows.length ? this.toTarget(taskId, rows[0]) : null;
  }

  private toTarget(taskId: string, r: PushConfigDbRow): PushTarget {
    const ctx = `${taskId}|${r.id}`;
    return {
      id: r.id,
      url: r.url,
      token: r.token_sealed ? openSecret(this.key, r.token_sealed, ctx) : '',
      authentication: r.auth_scheme ? { scheme: r.auth_scheme, credentials: openSecret(this.key, r.credentials_sealed ?? '', ctx) } : null,
      wireVersion: r.wire_version,
    };
  }
}
