// Integration management (operator): create, rotate, revoke, each audited as integration.* (spec "Audit log").
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../logging/logger.js';
import type { Principal } from '../../auth/principal.js';
import { auditActorOf, writeAuditEvent } from '../../auth/audit-log.js';
import { notFound } from '../../domain/errors.js';
import type { OrderChannel } from '../../domain/order-input-schema.js';
import type { Integration } from './integration.js';
import { createIntegration, rotateIntegration, revokeIntegration } from './integration-store.js';

export interface IntegrationServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  sealKey: Buffer;
}

/** The create body after defaults (contract section 10: events and flows `[]`, channel null). */
export interface CreateIntegrationCommand {
  name: string;
  events?: string[];
  startOrders?: boolean;
  flows?: string[];
  channel?: OrderChannel | null;
}

export interface IntegrationWithSecret {
  integration: Integration;
  secret: string;
}

/** Creates an integration; its secret is in the answer and nowhere else. Audited `integration.created`. */
export async function createIntegrationAudited(
  deps: IntegrationServiceDeps,
  actor: Principal,
  cmd: CreateIntegrationCommand,
  ip: string | null,
): Promise<IntegrationWithSecret> {
  const created = await createIntegration(
    deps.db,
    deps.sealKey,
    { name: cmd.name, events: cmd.events ?? [], startOrders: cmd.startOrders ?? false, flows: cmd.flows ?? [], channel: cmd.channel ?? null, createdBy: actor.actor },
    deps.clock.now(),
  );
  const { integration } = created;
  await writeAuditEvent(deps.db, deps.clock, deps.logger, {
    ...auditActorOf(actor),
    action: 'integration.created',
    target: integration.name,
    detail: { id: integration.id, events: integration.events, startOrders: integration.startOrders, flows: integration.flows, channel: integration.channel },
    ip,
  });
  return created;
}

/** New secret, old one valid 24 h more; 404 for unknown or revoked. Audited `integration.rotated`. */
export async function rotateIntegrationAudited(deps: IntegrationServiceDeps, actor: Principal, id: string, ip: string | null): Promise<IntegrationWithSecret> {
  const rotated = await rotateIntegration(deps.db, deps.sealKey, id, deps.clock.now());
  if (!rotated) throw notFound('Integration');
  await writeAuditEvent(deps.db, deps.clock, deps.logger, {
    ...auditActorOf(actor),
    action: 'integration.rotated',
    target: rotated.integration.name,
    detail: { id, previousExpiresAt: rotated.integration.previousExpiresAt },
    ip,
  });
  return rotated;
}

/** Revokes at once (overlap secret included); 404 when absent or already revoked. Audited `integration.revoked`. */
export async function revokeIntegrationAudited(deps: IntegrationServiceDeps, actor: Principal, id: string, ip: string | null): Promise<void> {
  const revoked = await revokeIntegration(deps.db, id, deps.clock.now());
  if (!revoked) throw notFound('Integration');
  await writeAuditEvent(deps.db, deps.clock, deps.logger, {
    ...auditActorOf(actor),
    action: 'integration.revoked',
    target: revoked.name,
    detail: { id },
    ip,
  });
}
