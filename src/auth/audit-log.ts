// The audit log (spec "Audit log"): writes never block the action; list newest first; 180-day retention.
import type { Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../logging/logger.js';
import type { Principal } from './principal.js';

export const AUDIT_RETENTION_MS = 180 * 86_400_000;
export const auditTypes = ['auth', 'team', 'token', 'api', 'oauth', 'integration', 'payout', 'batch'] as const;
export type AuditType = (typeof auditTypes)[number];

/** Who did it, as the audit row records it. */
export interface AuditActor {
  actor: string;
  actorId: string | null;
  actorKind: string;
}

export interface AuditInput extends AuditActor {
  action: string;
  target?: string | null;
  /** Never a password or a token: only names, ids, roles, reasons. */
  detail?: Record<string, unknown> | null;
  ip?: string | null;
}

export interface AuditEvent extends AuditActor {
  id: string;
  at: number;
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
  ip: string | null;
}

/** The actor fields of a principal (a person, a token, the workspace password, an app). */
export function auditActorOf(principal: Principal): AuditActor {
  return { actor: principal.actor, actorId: principal.id, actorKind: principal.kind };
}

/** Someone not signed in (a failed sign-in, a wrong bearer). */
export const anonymousActor: AuditActor = { actor: 'anonymous', actorId: null, actorKind: 'anonymous' };

/**
 * Writes one event outside any transaction of the action. A failure is logged and
 * swallowed, so the action proceeds (spec: "writing an event never blocks the action").
 * Other modules (integrations, connected apps) call this too.
 */
export async function writeAuditEvent(db: Queryable, clock: Clock, logger: Logger, event: AuditInput): Promise<void> {
  try {
    await db.query(
      `INSERT INTO audit_events (at, action, actor, actor_id, actor_kind, target, detail, ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        clock.now(),
        event.action,
        event.actor,
        event.actorId,
        event.actorKind,
        event.target ?? null,
        event.detail ? JSON.stringify(event.detail) : null,
        event.ip ?? null,
      ],
    );
  } catch (err) {
    logger.error({ err: (err as Error).message, action: event.action }, 'audit write failed; the action proceeds');
  }
}

interface AuditRow {
  id: string;
  at: string;
  action: string;
  actor: string;
  actor_id: string | null;
  actor_kind: string;
  target: string | null;
  detail: Record<string, unknown> | null;
  ip: string | null;
}

/** Newest first; `type` is the action group before the dot; `before` pages back by time. */
export async function listAuditEvents(
  db: Queryable,
  filter: { type?: AuditType; before?: number; limit: number },
): Promise<AuditEvent[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.type) {
    params.push(`${filter.type}.%`);
    where.push(`action LIKE $${params.length}`);
  }
  if (filter.before !== undefined) {
    params.push(filter.before);
    where.push(`at < $${params.length}`);
  }
  params.push(filter.limit);
  const { rows } = await db.query<AuditRow>(
    `SELECT id::text, at, action, actor, actor_id, actor_kind, target, detail, ip FROM audit_events
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    at: Number(r.at),
    action: r.action,
    actor: r.actor,
    actorId: r.actor_id,
    actorKind: r.actor_kind,
    target: r.target,
    detail: r.detail,
    ip: r.ip,
  }));
}

/** Deletes events older than the retention period; returns how many went. */
export async function purgeAuditEvents(db: Queryable, now: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM audit_events WHERE at < $1', [now - AUDIT_RETENTION_MS]);
  return rowCount ?? 0;
}
