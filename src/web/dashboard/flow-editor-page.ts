// The draft editor (/flows/<id>/edit, operator): the graph as JSON, checked on every change with the drawing redrawn beside it; save, publish.
import type { Principal } from '../../auth/principal.js';
import { html, notice, page } from '../../transport/html.js';
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
  error?: string | null;
  ok?: string | null;
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
</form>`,
  });
}
