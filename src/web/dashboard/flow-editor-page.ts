// The draft editor (/flows/<id>/edit, operator): the graph as JSON, checked on every change with the drawing redrawn beside it; the
// impact of publishing on live orders; a simulation of one order drawn on the diagram (contract 14); save, publish.
import type { Principal } from '../../auth/principal.js';
import { html, notice, page, type Html } from '../../transport/html.js';
import { diagramBox } from './diagram-box.js';

export interface FlowEditorView {
  nonce: string;
  principal: Principal;
  flowId: string;
  name: string;
  description: string;
  /** The graph as the person edits it (pretty JSON, or the text they sent back). */
  graphText: string;
  publishedVersion: number | null;
  problems: { nodeId?: string; message: string }[];
  /** The draft drawn, problem nodes marked; empty when the text is not a graph. */
  svg: string;
  /** Why the drawing is missing when the graph was not drawn (the caller's new-drawing limit). */
  drawingNote?: string;
  isNew: boolean;
  /** The catalogue's step types: their nodes get the editor's on-failure form (contract 16 `onFailure`). */
  stepTypes: readonly string[];
  /** The simulate panel: a sample input, recent orders to copy an input from, the steps that may be told to fail. */
  simulate: SimulatePanelView;
  /** The saved draft against the latest published version with its live orders per node; null before the first publish. */
  impact: ImpactView | null;
  error?: string | null;
  ok?: string | null;
}

export interface SimulatePanelView {
  inputText: string;
  recentOrders: { id: string; title: string | null; status: string }[];
  /** Step nodes of the graph as loaded (the list follows the graph as it is edited). */
  steps: { id: string; label: string }[];
  /** The node types that are steps (the browser rebuilds the fail-steps list from the graph typed). */
  stepTypes: string[];
}

export interface ImpactView {
  from: number;
  total: number;
  rows: { nodeId: string; change: 'added' | 'removed' | 'changed'; fields: string[]; liveOrders: number }[];
  edges: { added: number; removed: number };
}

/** The Impact panel (contract 14): what publishing the saved draft changes, and the live orders at each changed node. */
function impactPanel(impact: ImpactView | null): Html {
  if (!impact) return html`<section aria-labelledby="impact-h" data-impact-panel><h2 id="impact-h">Impact on live orders</h2><p class="hint">Not published yet: no order runs on this flow.</p></section>`;
  const holding = impact.rows.filter((r) => r.change !== 'added' && r.liveOrders > 0);
  return html`<section aria-labelledby="impact-h" data-impact-panel data-impact-from="${String(impact.from)}" data-live-total="${String(impact.total)}">
<h2 id="impact-h">Impact on live orders</h2>
<p>The saved draft against version ${String(impact.from)}, on which ${String(impact.total)} unfinished order${impact.total === 1 ? '' : 's'} run${impact.total === 1 ? 's' : ''}. Publishing starts new orders on the new version; running orders keep version ${String(impact.from)}.</p>
${
  impact.rows.length === 0
    ? html`<p data-impact-none>No node changes${impact.edges.added + impact.edges.removed ? html` (${String(impact.edges.added)} edge${impact.edges.added === 1 ? '' : 's'} added, ${String(impact.edges.removed)} removed)` : ''}.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Node</th><th scope="col">Change</th><th scope="col">Live orders there</th></tr></thead><tbody>${impact.rows.map(
        (r) => html`<tr data-impact-node="${r.nodeId}" data-impact-change="${r.change}" data-live-orders="${String(r.liveOrders)}"><td><code>${r.nodeId}</code></td><td>${r.change}${r.fields.length ? html` <span class="hint">(${r.fields.join(', ')})</span>` : ''}</td><td>${String(r.liveOrders)}</td></tr>`,
      )}</tbody></table></div>
<p class="hint">Edges: ${String(impact.edges.added)} added, ${String(impact.edges.removed)} removed.</p>`
}
${holding.length ? html`<p role="alert" data-impact-warning>${holding.map((r) => `${r.liveOrders} at ${r.nodeId}`).join(', ')}: these orders stand at nodes this draft removes or changes; they finish on version ${String(impact.from)}.</p>` : ''}
</section>`;
}

/** The Simulate panel (contract 14): input, script, fail steps; the run drawn on the diagram with its timeline beside it. */
function simulatePanel(flowId: string, v: SimulatePanelView): Html {
  return html`<section aria-labelledby="simulate-h" data-simulate-panel data-flow-id="${flowId}" data-step-types="${JSON.stringify(v.stepTypes)}">
<h2 id="simulate-h">Simulate</h2>
<p class="hint">Runs one order through the graph as typed above, with the steps' own code against this workspace's products, sellers, stock and prices, on a simulated clock. Nothing is kept: no order, stock, payment, notification, webhook or call. The script is described in <code>docs/flows.md</code>.</p>
<div class="grid">
<div>
<label for="sim-input">Sample input (as <code>POST /api/v1/orders</code> takes it)</label>
<textarea id="sim-input" class="json short" spellcheck="false" data-sim-input>${v.inputText}</textarea>
${
  v.recentOrders.length
    ? html`<div class="actions"><label for="sim-copy">Or copy the input of an order</label><select id="sim-copy" data-sim-copy><option value="">Choose an order…</option>${v.recentOrders.map(
        (o) => html`<option value="${o.id}">${o.title ?? o.id} (${o.status.replace('_', ' ')})</option>`,
      )}</select><button type="button" data-sim-copy-button>Copy input</button></div>`
    : ''
}
<label for="sim-script">Script (a JSON list, applied in order each time the run waits)</label>
<textarea id="sim-script" class="json short" spellcheck="false" data-sim-script>[]</textarea>
<p class="hint">Entries: <code>{"event": "payment.confirmed", "payload": {}}</code> · <code>{"decision": "approved", "nodeId": "review"}</code> · <code>{"advance": "2d"}</code> (timers fire only then) · <code>{"respond": "&lt;http.call node&gt;", "status": 503}</code> (other calls answer 200 {}).</p>
<fieldset data-sim-fail><legend>Fail steps (as if their retries ran out)</legend><div class="actions" data-sim-fail-list>${
    v.steps.length
      ? v.steps.map((s) => html`<label><input type="checkbox" value="${s.id}" data-sim-fail-step> ${s.label} <code>${s.id}</code></label>`)
      : html`<span class="hint">No steps in this graph.</span>`
  }</div></fieldset>
<div class="actions"><button type="button" class="primary" data-sim-run>Simulate</button></div>
<p role="status" aria-live="polite" data-sim-state></p>
</div>
<div>
<dl class="facts" data-sim-summary hidden></dl>
<div class="diagram" data-simulation hidden></div>
<h3 class="visually-hidden">Timeline of the simulated run</h3>
<ol class="timeline" data-sim-timeline></ol>
</div>
</div>
</section>`;
}

export function flowEditorPage(o: FlowEditorView): string {
  const id = encodeURIComponent(o.flowId);
  return page({
    title: `Edit ${o.name || o.flowId}`,
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`${notice('error', o.error)}${notice('ok', o.ok)}
<p>${o.isNew ? html`A new flow <code>${o.flowId}</code>: saving creates it.` : html`<a href="/flows/${id}">Back to the flow</a> · published: ${o.publishedVersion === null ? 'not yet' : `version ${o.publishedVersion}`}`}</p>
<form method="post" action="/flows/${id}/edit" data-flow-editor data-flow-id="${o.flowId}">
<div class="grid">
<div>
<label for="name">Name</label><input id="name" name="name" value="${o.name}" maxlength="200" required>
<label for="description">Description</label><input id="description" name="description" value="${o.description}" maxlength="2000">
<label for="graph">Graph (JSON: <code>{ nodes, edges }</code>)</label>
<textarea id="graph" name="graph" class="json" spellcheck="false" aria-describedby="check-state" data-graph-input>${o.graphText}</textarea>
<p class="hint">Checked as you type; the drawing follows. Node types and their params: <a href="/api/v1/node-types">node catalogue</a>.</p>
<fieldset class="step-policy" data-step-policy data-step-types="${o.stepTypes.join(' ')}"><legend>When a step fails</legend>
<p class="hint">With no failure branch wired: <strong>Roll back</strong> undoes the completed steps and ends the order; <strong>Hold</strong> undoes nothing and waits for an operator's Retry or Roll back. Each choice edits the step's <code>onFailure</code> param in the text.</p>
<div data-step-policy-rows></div></fieldset>
${impactPanel(o.impact)}
<div class="actions">
<button type="submit" name="intent" value="save">Save draft</button>
<button type="submit" name="intent" value="publish" class="primary" data-publish ${o.problems.length ? 'disabled' : ''}>Save and publish as version ${(o.publishedVersion ?? 0) + 1}</button>
</div>
</div>
<div>
<p role="status" aria-live="polite" id="check-state" data-check-state>${o.problems.length ? `${o.problems.length} problem${o.problems.length === 1 ? '' : 's'}: publishing is blocked until they are fixed.` : 'No problems: ready to publish.'}</p>
<ul class="problems" data-problems>${o.problems.map((p) => html`<li data-problem-node="${p.nodeId ?? ''}">${p.nodeId ? html`<code>${p.nodeId}</code>: ` : ''}${p.message}</li>`)}</ul>
${diagramBox(html`data-editor-diagram`, `${o.drawingNote ? html`<p class="hint" data-drawing-note>${o.drawingNote}</p>`.html : ''}${o.svg}`, 'Draft drawing')}
</div>
</div>
</form>
${simulatePanel(o.flowId, o.simulate)}`,
  });
}
