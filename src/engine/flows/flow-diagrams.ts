// The drawings of flows (published versions and drafts) under contract 13's drawing cost rules: layouts cached by
// content, laid out off the serving thread within a budget (a list past it), at most 4 new layouts per caller per 10 s.
import { createHash } from 'node:crypto';
import type { Catalogue } from '../catalogue.js';
import type { GraphAnalysis } from '../validator.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import { DomainError } from '../../domain/errors.js';
import { LruCache } from '../../lib/lru-cache.js';
import { WindowLimit } from '../../lib/window-limit.js';
import { diagramModel, type DiagramModel } from './flow-diagram-model.js';
import { layoutRequest, placeLayout, type FlowLayout } from './flow-layout.js';
import { renderFlowSvg, type DiagramHeat, type DiagramStatus } from './flow-diagram-svg.js';
import { renderFlowListSvg, type ListReason } from './flow-list-svg.js';
import { LayoutPool, type LayoutPoolOptions } from './layout-pool.js';

/** A published version to draw: its graph is frozen, so `flowId@version` names its drawing for good. */
export interface DrawableVersion {
  flowId: string;
  version: number;
  name: string;
  graph: unknown;
}

/** A laid-out drawing, or why it is drawn as a list (an over-budget layout is kept too, so it is not tried again). */
type Drawing = { kind: 'graph'; layout: FlowLayout } | { kind: 'list'; reason: ListReason };

export interface FlowDiagramsOptions {
  clock?: Clock;
  /** New (uncached) layouts one caller may start per window (contract 13: 4 per 10 s). */
  startsPerCaller?: { limit: number; windowMs: number };
  pool?: LayoutPoolOptions;
  /** Told when a layout ends as a list (over its budget, refused by a full queue, failed), for the log. */
  onList?(reason: ListReason, size: { nodes: number; edges: number }, detail?: string): void;
}

/** Layouts kept: by count, and by weight (nodes + edges + route points, about 100 bytes each: some 50 MB at most). */
const MAX_ENTRIES = 1000;
const MAX_WEIGHT = 500_000;

export const DRAWING_STARTS = { limit: 4, windowMs: 10_000 } as const;

export class FlowDiagrams {
  private readonly cache = new LruCache<Drawing>(MAX_ENTRIES, MAX_WEIGHT);
  /** Layouts in progress by content, so callers asking for the same graph at once share one layout (and one start). */
  private readonly pending = new Map<string, Promise<Drawing>>();
  private readonly starts: WindowLimit;
  private readonly clock: Clock;
  private readonly pool: LayoutPool;
  /** Drawings answered from the cache (tests and metrics read it; `layoutsStarted` counts the rest). */
  cacheHits = 0;

  constructor(private readonly catalogue: Catalogue, private readonly options: FlowDiagramsOptions = {}) {
    this.clock = options.clock ?? systemClock;
    const starts = options.startsPerCaller ?? DRAWING_STARTS;
    this.starts = new WindowLimit(starts.limit, starts.windowMs);
    this.pool = new LayoutPool(options.pool);
  }

  /** The version's drawing without live status (the same text for the same version). `caller` names who asks, for the per-caller limit. */
  async svg(v: DrawableVersion, caller: string): Promise<string> {
    const model = diagramModel(v.graph, this.catalogue);
    return this.render(model, await this.drawing(model, caller), `${v.flowId}@${v.version}`, title(v));
  }

  /** The version's drawing with an order's node and edge statuses (same layout, so the client can update it in place). */
  async liveSvg(v: DrawableVersion, status: DiagramStatus, caller: string): Promise<string> {
    const model = diagramModel(v.graph, this.catalogue);
    return this.render(model, await this.drawing(model, caller), `${v.flowId}@${v.version}`, title(v), status);
  }

  /** The version's heat view (contract 17): the same layout, nodes coloured by p95 with values as text, edges with counts. */
  async heatSvg(v: DrawableVersion, heat: DiagramHeat, caller: string): Promise<string> {
    const model = diagramModel(v.graph, this.catalogue);
    return this.render(model, await this.drawing(model, caller), `${v.flowId}@${v.version}`, `${title(v)}: where orders spend their time`, undefined, heat);
  }

  /**
   * A draft's drawing (cached by content like any other: a stored draft viewed again is not laid out again).
   * `analysis`: the graph's validator analysis when the caller has just made it, so it is not made twice.
   */
  async draftSvg(flowId: string, name: string, graph: unknown, caller: string, analysis?: GraphAnalysis): Promise<string> {
    const model = diagramModel(graph, this.catalogue, analysis);
    return this.render(model, await this.drawing(model, caller), `${flowId}-draft`, `${name}: draft`);
  }

  /** Layouts handed to a layout thread so far (each a cache miss that passed the per-caller limit). */
  get layoutsStarted(): number {
    return this.pool.started;
  }

  /** Layouts kept in the cache. */
  get size(): number {
    return this.cache.size;
  }

  /** Ends the layout threads (service stop). */
  close(): Promise<void> {
    return this.pool.close();
  }

  private render(model: DiagramModel, drawing: Drawing, key: string, title: string, status?: DiagramStatus, heat?: DiagramHeat): string {
    return drawing.kind === 'graph' ? renderFlowSvg(drawing.layout, key, title, status, heat) : renderFlowListSvg(model, key, title, drawing.reason, status, heat);
  }

  /**
   * The drawing of a model: from the cache by the hash of its content, joined to the same layout in progress, or
   * laid out on a layout thread when `caller` has a start left in its window (otherwise a throttled refusal: 429).
   */
  private async drawing(model: DiagramModel, caller: string): Promise<Drawing> {
    const key = createHash('sha256').update(JSON.stringify(model)).digest('base64url');
    const hit = this.cache.get(key);
    if (hit) {
      this.cacheHits++;
      return hit;
    }
    const running = this.pending.get(key);
    if (running) return running;
    const refused = this.starts.take(caller, this.clock.now());
    if (refused) {
      throw new DomainError('drawing_throttled', `Too many new drawings: at most ${this.starts.limit} per ${this.starts.windowMs / 1000} seconds; try again in ${refused.retryAfterSeconds} s`, 'throttled', {
        retryAfterSeconds: refused.retryAfterSeconds,
      });
    }
    const work = this.layOut(model, key).finally(() => this.pending.delete(key));
    this.pending.set(key, work);
    return work;
  }

  private async layOut(model: DiagramModel, key: string): Promise<Drawing> {
    const outcome = await this.pool.run(layoutRequest(model));
    const size = { nodes: model.nodes.length, edges: model.edges.length };
    if (outcome.kind === 'laid-out') {
      const layout = placeLayout(model, outcome.result);
      const drawing: Drawing = { kind: 'graph', layout };
      this.cache.set(key, drawing, 1 + layout.nodes.length + layout.edges.reduce((sum, e) => sum + 1 + e.points.length, 0));
      return drawing;
    }
    if (outcome.kind === 'busy') {
      // Not kept: the next view tries again.
      this.options.onList?.('busy', size);
      return { kind: 'list', reason: 'busy' };
    }
    // Kept: the same graph would use its whole budget (or fail the same way) again on every view.
    const drawing: Drawing = { kind: 'list', reason: outcome.kind };
    this.cache.set(key, drawing, 1);
    this.options.onList?.(outcome.kind, size, outcome.kind === 'failed' ? outcome.message : undefined);
    return drawing;
  }
}

const title = (v: DrawableVersion): string => `${v.name}, version ${v.version}`;
