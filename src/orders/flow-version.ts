// Which published flow version a new order pins: the asked one, else the latest; none is a 409.
import type { Queryable } from '../db/db.js';
import type { FlowStore } from '../engine/flows/flow-store.js';
import { DomainError } from '../domain/errors.js';

/** Contract section 10: an unknown flow, or one without a published version, is a 409 ("flow not published"). */
export async function resolvePublishedVersion(q: Queryable, flows: FlowStore, flowId: string, version?: number): Promise<number> {
  const flow = await flows.get(q, flowId);
  if (!flow || flow.publishedVersion === null)
    throw new DomainError('flow_not_published', `Flow ${flowId} has no published version`, 'conflict');
  if (version === undefined) return flow.publishedVersion;
  const row = await flows.version(q, flowId, version);
  if (!row) throw new DomainError('flow_not_published', `Flow ${flowId} has no published version ${version}`, 'conflict');
  return version;
}
