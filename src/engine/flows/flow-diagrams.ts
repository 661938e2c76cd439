// The drawings of published flow versions, laid out once per version and cached (versions never change).
import type { Catalogue } from '../catalogue.js';
import { diagramModel } from './flow-diagram-model.js';
import { layoutFlow, type FlowLayout } from './flow-layout.js';
import { renderFlowSvg, type DiagramStatus } from './flow-diagram-svg.js';

/** A published version to draw: its graph is frozen, so `flowId@version` names its drawing for good. */
export interface DrawableVersion {
  flowId: string;
  version: number;
  name: string;
  graph: unknown;
}

/** Entries kept; published versions are few, and a cold layout costs milliseconds. */
const MAX_ENTRIES = 1000;

export class FlowDiagrams {
  private readonly layouts = new Map<string, { layout: FlowLayout; svg: string }>();

  constructor(private readonly catalogue: Catalogue) {}

  private entry(v: DrawableVersion) {
    const key = `${v.flowId}@${v.version}`;
    const hit = this.layouts.get(key);
    if (hit) return hit;
    const layout = layoutFlow(diagramModel(v.graph, this.catalogue));
    const entry = { layout, svg: renderFlowSvg(layout, key, title(v)) };
    if (this.layouts.size >= MAX_ENTRIES) this.layouts.delete(this.layouts.keys().next().value as string);
    this.layouts.set(key, entry);
    return entry;
  }

  /** The version's drawing without live status (the same text for the same version). */
  svg(v: DrawableVersion): string {
    return this.entry(v).svg;
  }

  /** The version's drawing with an order's node and edge statuses (same layout, so the client can update it in place). */
  liveSvg(v: DrawableVersion, status: DiagramStatus): string {
    return renderFlowSvg(this.entry(v).layout, `${v.flowId}@${v.version}`, title(v), status);
  }

  /** A draft's drawing (not cached: a draft changes with every save). */
  draftSvg(flowId: string, name: string, graph: unknown): string {
    return renderFlowSvg(layoutFlow(diagramModel(graph, this.catalogue)), `${flowId}-draft`, `${name}: draft`);
  }

  get size(): number {
    return this.layouts.size;
  }
}

const title = (v: DrawableVersion): string => `${v.name}, version ${v.version}`;
