// Flows: a draft per flow and immutable numbered published versions (publish = validate + freeze + version + 1).
import type { Queryable } from '../../db/db.js';
import type { Catalogue } from '../catalogue.js';
import { validateGraph, type Problem } from '../validator.js';
import { ValidationError, notFound } from '../../domain/errors.js';

export interface FlowRow {
  id: string;
  name: string;
  description: string | null;
  model: string | null;
  channels: string[];
  draftGraph: unknown;
  draftUpdatedAt: number;
  publishedVersion: number | null;
  builtinFile: string | null;
  builtinHash: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface FlowVersionRow {
  flowId: string;
  version: number;
  name: string;
  graph: unknown;
  createdBy: string;
  createdAt: number;
}

export interface FlowDraft {
  id: string;
  name: string;
  description?: string | null;
  model?: string | null;
  channels?: string[];
  graph: unknown;
}

/** A `flows` row as pg returns it (bigint columns as text). */
interface FlowDbRow {
  id: string;
  name: string;
  description: string | null;
  model: string | null;
  channels: string[] | null;
  draft_graph: unknown;
  draft_updated_at: string;
  published_version: number | null;
  builtin_file: string | null;
  builtin_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** A `flow_versions` row as pg returns it. */
interface FlowVersionDbRow {
  flow_id: string;
  version: number;
  name: string;
  graph: unknown;
  created_by: string;
  created_at: string;
}

function toFlow(r: FlowDbRow): FlowRow {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    model: r.model,
    channels: r.channels ?? [],
    draftGraph: r.draft_graph,
    draftUpdatedAt: Number(r.draft_updated_at),
    publishedVersion: r.published_version,
    builtinFile: r.builtin_file,
    builtinHash: r.builtin_hash,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toVersion(r: FlowVersionDbRow): FlowVersionRow {
  return { flowId: r.flow_id, version: r.version, name: r.name, graph: r.graph, createdBy: r.created_by, createdAt: Number(r.created_at) };
}

/** Advisory lock key namespace for publishing one flow (two nodes never allocate the same number). */
const PUBLISH_LOCK = 7_342_100;

export class FlowStore {
  constructor(private readonly catalogue: Catalogue) {}

  async list(q: Queryable): Promise<FlowRow[]> {
    const { rows } = await q.query<FlowDbRow>('SELECT * FROM flows ORDER BY id');
    return rows.map(toFlow);
  }

  async get(q: Queryable, id: string): Promise<FlowRow | null> {
    const { rows } = await q.query<FlowDbRow>('SELECT * FROM flows WHERE id = $1', [id]);
    return rows[0] ? toFlow(rows[0]) : null;
  }

  async versions(q: Queryable, flowId: string): Promise<FlowVersionRow[]> {
    const { rows } = await q.query<FlowVersionDbRow>('SELECT * FROM flow_versions WHERE flow_id = $1 ORDER BY version', [flowId]);
    return rows.map(toVersion);
  }

  /** Every flow's published version numbers, ascending (flows never published are absent). */
  async versionNumbers(q: Queryable): Promise<Map<string, number[]>> {
    const { rows } = await q.query<{ flow_id: string; versions: number[] }>('SELECT flow_id, array_agg(version ORDER BY version) AS versions FROM flow_versions GROUP BY flow_id');
    return new Map(rows.map((r) => [r.flow_id, r.versions]));
  }

  async version(q: Queryable, flowId: string, version: number): Promise<FlowVersionRow | null> {
    const { rows } = await q.query<FlowVersionDbRow>('SELECT * FROM flow_versions WHERE flow_id = $1 AND version = $2', [flowId, version]);
    return rows[0] ? toVersion(rows[0]) : null;
  }

  /** Saves the draft (creating the flow); returns its validation problems (a draft may have some). */
  async saveDraft(q: Queryable, draft: FlowDraft, now: number): Promise<{ flow: FlowRow; problems: Problem[] }> {
    const { rows } = await q.query<FlowDbRow>(
      `INSERT INTO flows (id, name, description, model, channels, draft_graph, draft_updated_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, model = EXCLUDED.model,
         channels = EXCLUDED.channels, draft_graph = EXCLUDED.draft_graph, draft_updated_at = EXCLUDED.draft_updated_at,
         updated_at = EXCLUDED.updated_at
       RETURNING *`,
      [draft.id, draft.name, draft.description ?? null, draft.model ?? null, JSON.stringify(draft.channels ?? []), JSON.stringify(draft.graph), now],
    );
    return { flow: toFlow(rows[0]), problems: validateGraph(draft.graph, this.catalogue) };
  }

  /**
   * Publishes the current draft as version N+1. Must run inside a transaction: it takes a
   * per-flow advisory lock so concurrent publishes get distinct numbers. A draft with
   * problems is a 400 carrying them as `issues`.
   */
  async publish(q: Queryable, flowId: string, by: string, now: number): Promise<FlowVersionRow> {
    await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PUBLISH_LOCK, flowId]);
    const flow = await this.get(q, flowId);
    if (!flow) throw notFound('Flow');
    const problems = validateGraph(flow.draftGraph, this.catalogue);
    if (problems.length > 0) throw new FlowProblemsError(problems);
    const next = (flow.publishedVersion ?? 0) + 1;
    const { rows } = await q.query<FlowVersionDbRow>(
      `INSERT INTO flow_versions (flow_id, version, name, graph, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [flowId, next, flow.name, JSON.stringify(flow.draftGraph), by, now],
    );
    await q.query('UPDATE flows SET published_version = $2, updated_at = $3 WHERE id = $1', [flowId, next, now]);
    return toVersion(rows[0]);
  }
}

/** Publishing a draft with validation problems: 400 with one issue per problem. */
export class FlowProblemsError extends ValidationError {
  constructor(readonly problems: Problem[]) {
    super(
      problems.map((p) => ({ path: p.nodeId ? `graph.nodes.${p.nodeId}` : 'graph', message: p.message })),
      'The draft has validation problems',
    );
  }
}
