// Compiled machines per published flow version, cached (versions are frozen, so entries never go stale).
import type { Queryable } from '../../db/db.js';
import type { Catalogue } from '../catalogue.js';
import { compileFlow, type CompiledFlow } from '../compiler.js';
import type { FlowStore, FlowVersionRow } from './flow-store.js';
import { DomainError } from '../../domain/errors.js';

export interface LoadedFlow {
  version: FlowVersionRow;
  compiled: CompiledFlow;
}

export class FlowRegistry {
  private readonly cache = new Map<string, LoadedFlow>();

  constructor(private readonly store: FlowStore, private readonly catalogue: Catalogue) {}

  /** The compiled machine of `flowId` version `version`; throws 409 when it does not exist. */
  async load(q: Queryable, flowId: string, version: number): Promise<LoadedFlow> {
    const key = `${flowId}@${version}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const row = await this.store.version(q, flowId, version);
    if (!row) throw new DomainError('flow_version_missing', `Flow ${flowId} has no published version ${version}`, 'conflict');
    const loaded = { version: row, compiled: compileFlow(key, row.graph, this.catalogue) };
    this.cache.set(key, loaded);
    return loaded;
  }

  /** Number of compiled versions held (bounded by published versions, not by orders). */
  get size(): number {
    return this.cache.size;
  }
}
