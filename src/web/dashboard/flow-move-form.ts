// The flow page's Move section (contract 15): for each published version with live orders, a form to move them to a later
// version: the target, a mapping row per node that does not map by id, a dry run whose result shows before "Move N orders".
import { html, type Html } from '../../transport/html.js';
import type { MappingRow, MoveNode } from './flow-move-mapping.js';


/** A later published version the orders may move to, with the rows its nodes need. */
export interface MoveTargetView {
  version: number;
  rows: MappingRow[];
}

/** One version that still has unfinished orders, and where they stand. */
export interface MoveSourceView {
  version: number;
  liveOrders: number;
  /** Live orders by the node where each stands (contract 14's `atNode`). */
  atNode: Record<string, number>;
  /** Later published versions, newest first (the first is the default target). */
  targets: MoveTargetView[];
}

/** What the section needs: the flow and every version with live orders (the latest has no later version: it has no form). */
export interface MoveSectionView {
  flowId: string;
  sources: MoveSourceView[];
  /** The batch's default rate (contract 16), said next to the confirm button. */
  ratePerSecond: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function nodeName(n: MoveNode): string {
  return `${n.label} (${n.id}${n.event !== null ? `, event ${n.event}` : ''})`;
}

const WHY: Record<MappingRow['why'], string> = {
  missing: 'not in version',
  'other-type': 'another type in version',
  'other-event': 'waits for another event in version',
};

/** The mapping rows of one target; hidden unless that target is chosen (the script shows the chosen one). */
function mappingFieldset(source: MoveSourceView, target: MoveTargetView, shown: boolean): Html {
  const prefix = `move-${source.version}-${target.version}`;
  return html`<fieldset data-move-mapping="${target.version}" ${shown ? '' : 'hidden'}>
<legend>Nodes of version ${source.version} that do not map by id to version ${target.version}</legend>
${
  target.rows.length === 0
    ? html`<p class="hint" data-move-all-mapped>Every node of version ${source.version} has a node with the same id and type in version ${target.version}.</p>`
    : target.rows.map((row, i) => {
        const here = source.atNode[row.node.id] ?? 0;
        return html`<div class="move-row" data-move-map-node="${row.node.id}" data-move-map-type="${row.node.type}" data-live-orders="${here}">
<label for="${prefix}-${i}"><strong>${nodeName(row.node)}</strong> <code>${row.node.type}</code>: ${WHY[row.why]} ${target.version}${here ? html`; <strong>${plural(here, 'order')} stand${here === 1 ? 's' : ''} here</strong>` : ''}</label>
<select id="${prefix}-${i}" data-move-map-select="${row.node.id}"><option value="">no counterpart</option>${row.options.map(
          (o) => html`<option value="${o.id}">${nodeName(o)}</option>`,
        )}</select></div>`;
      })
}</fieldset>`;
}

/** One version's form: nothing is sent before "Dry run"; the confirm button appears with the dry run's count. */
function moveForm(flowId: string, s: MoveSourceView, rate: number): Html {
  const id = `move-target-${s.version}`;
  const [latest] = s.targets;
  return html`<form class="move" data-move-form data-move-version="${s.version}" data-flow-id="${flowId}" data-move-live="${s.liveOrders}">
<h3>Version ${s.version}: ${plural(s.liveOrders, 'live order')}</h3>
<div><label for="${id}">Move to version</label><select id="${id}" name="toVersion" data-move-target>${s.targets.map(
    (t) => html`<option value="${t.version}" ${t === latest ? 'selected' : ''}>version ${t.version}${t === latest ? ' (latest)' : ''}</option>`,
  )}</select></div>
${s.targets.map((t) => mappingFieldset(s, t, t === latest))}
<div class="actions"><button type="button" data-move-dry-run>Dry run</button>
<button type="button" class="primary" data-move-confirm hidden>Move the orders</button></div>
<p class="hint">The move runs as a batch at ${rate} orders per second; pause or cancel it on <a href="/batches">Batches</a>.</p>
<div role="status" aria-live="polite" data-move-result hidden></div>
</form>`;
}

/** The section, or nothing when no version before the latest has live orders. */
export function moveSection(v: MoveSectionView): Html {
  if (v.sources.length === 0) return html``;
  return html`<section aria-labelledby="move-h" data-move-section>
<h2 id="move-h">Move live orders</h2>
<p>Orders keep the version they started on. To move the waiting ones to a later version, choose it, map each node that has no
counterpart by id, and dry-run first: it lists the orders that can move and why the others cannot. How to choose: <code>docs/flows.md</code>,
"Changing a flow that has live orders".</p>
${v.sources.map((s) => moveForm(v.flowId, s, v.ratePerSecond))}
</section>`;
}
