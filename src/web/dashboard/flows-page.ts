// The flows list (/flows) and a flow's page (/flows/<id>): versions drawn or as a heat view, node catalogue entries, moving live orders, draft problems, publish.
import type { Principal } from '../../auth/principal.js';
import type { OperationOutput } from '../../application/operation-types.js';
import { roleAtLeast } from '../../auth/roles.js';
import { formatTime, html, notice, page, type Html } from '../../transport/html.js';
import { diagramBox } from './diagram-box.js';
import { moveSection, type MoveSectionView } from './flow-move-form.js';

/** A flow as `listFlows` answers it. */
export type FlowRowView = OperationOutput<'listFlows'>['flows'][number];

export function flowsPage(o: { nonce: string; principal: Principal; flows: FlowRowView[]; newId?: string; error?: string | null }): string {
  const operator = roleAtLeast(o.principal.role, 'operator');
  return page({
    title: 'Flows',
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`${notice('error', o.error)}${
      operator
        ? html`<form method="post" action="/flows" class="filters" data-new-flow><div><label for="new-flow-id">Flow id</label><input id="new-flow-id" name="id" value="${o.newId ?? ''}" required maxlength="100" placeholder="my-first-flow" aria-describedby="new-flow-hint"></div><button type="submit" class="primary" data-new-flow-button>New flow</button><p class="hint" id="new-flow-hint">Opens the editor on a starter graph (a trigger, an approval and its ends); nothing is saved until you save it. How to write and try a flow: <code>docs/flows.md</code>.</p></form>`
        : ''
    }<div class="table-wrap"><table><thead><tr><th scope="col">Flow</th><th scope="col">Published</th><th scope="col">Orders active</th><th scope="col" class="hide-narrow">Nodes (draft)</th><th scope="col" class="hide-narrow">Model</th><th scope="col" class="hide-narrow">Updated</th></tr></thead>
<tbody>${o.flows.map((f) => {
      const running = f.activeOrders?.running ?? 0;
      const waiting = f.activeOrders?.waiting ?? 0;
      return html`<tr data-flow-id="${f.id}" data-active-orders="${running + waiting}"><td><a href="/flows/${encodeURIComponent(f.id)}">${f.name}</a><br><span class="hint">${f.id}</span></td>
<td>${f.publishedVersion === null ? 'not published' : `version ${f.publishedVersion}`}</td>
<td>${f.publishedVersion === null ? '—' : html`<a href="/flows/${encodeURIComponent(f.id)}?view=heat" aria-label="${running + waiting} orders active in ${f.name}: where they are">${running + waiting}</a>${waiting ? html` <span class="hint">(${waiting} waiting)</span>` : ''}`}</td>
<td class="hide-narrow">${f.nodeCount}</td><td class="hide-narrow">${f.model ?? '—'}</td><td class="hide-narrow">${formatTime(f.updatedAt)}</td></tr>`;
    })}</tbody></table></div>
<p class="hint">Orders active: running or waiting now, as last counted (a few seconds behind).</p>`,
  });
}

export interface FlowPageView {
  nonce: string;
  principal: Principal;
  flow: FlowRowView;
  versions: { version: number; createdBy: string; createdAt: number }[];
  shown: number | null;
  /** The shown version drawn (the heat view's drawing when `heat` is set). */
  svg: string | null;
  /** The nodes of the shown version with their catalogue entry (shown on hover or selection). */
  nodes: { id: string; label: string; type: string; description: string }[];
  /** The draft drawn, or null when it is the latest version unchanged (nothing to publish, nothing drawn twice). */
  draftSvg: string | null;
  problems: { nodeId?: string; message: string }[];
  /** The heat view's range form, legend and table (contract 17), when `?view=heat`. */
  heat?: { form: Html; legend: Html; table: Html } | null;
  /** The paths of the shown version (or of the draft before the first publish), or why there are none. */
  paths: FlowPathsView;
  /** The Move section (contract 15) for someone who may move orders; null otherwise. */
  move: MoveSectionView | null;
  error?: string | null;
  ok?: string | null;
}

export type FlowPathsView = { of: string; flowId: string; paths: OperationOutput<'getFlowPaths'>['paths']; unreachable: string[]; truncated: boolean } | { of: string; error: string };

/** Paths listed on the page (the API lists up to 500): a page stays readable, and small, on a wide graph. */
const PATHS_SHOWN = 50;

/** The ways an order can go through the machine (contract 14), each as its nodes and the branches taken. */
function pathsSection(p: FlowPathsView) {
  if ('error' in p) return html`<section aria-labelledby="paths-h" data-flow-paths><h2 id="paths-h">Paths of ${p.of}</h2><p data-paths-error>${p.error}</p></section>`;
  const shown = p.paths.slice(0, PATHS_SHOWN);
  return html`<section aria-labelledby="paths-h" data-flow-paths data-path-count="${String(p.paths.length)}" data-paths-truncated="${String(p.truncated)}">
<h2 id="paths-h">Paths of ${p.of}</h2>
<p>${String(p.paths.length)}${p.truncated ? ' (the first; there are more)' : ''} way${p.paths.length === 1 ? '' : 's'} an order can go through, from the trigger to an end; a loop is followed back once.${
    shown.length < p.paths.length ? html` The first ${String(PATHS_SHOWN)} are listed; <code>GET /api/v1/flows/${p.flowId}/paths</code> lists up to 500.` : ''
  }</p>
<ol class="paths">${shown.map(
    (path) => html`<li data-flow-path data-path-end="${path.end}">${path.nodes.map((id, i) => html`<code>${id}</code>${i < path.branches.length ? html` <span class="hint">${path.branches[i]} →</span> ` : ''}`)}</li>`,
  )}</ol>
${p.unreachable.length ? html`<p data-unreachable>No path reaches: ${p.unreachable.map((id, i) => html`${i ? ', ' : ''}<code>${id}</code>`)}.</p>` : ''}
</section>`;
}

export function flowPage(o: FlowPageView): string {
  const f = o.flow;
  const operator = roleAtLeast(o.principal.role, 'operator');
  const id = encodeURIComponent(f.id);
  const heat = o.heat ?? null;
  const views = o.shown === null
    ? html``
    : html`<nav aria-label="Views"><ul class="actions tabs"><li><a href="/flows/${id}?version=${o.shown}" ${heat ? '' : html`aria-current="page"`}>Drawing</a></li><li><a href="/flows/${id}?version=${o.shown}&amp;view=heat" ${heat ? html`aria-current="page"` : ''} data-heat-link>Where orders spend their time</a></li></ul></nav>`;
  return page({
    title: f.name,
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`${notice('error', o.error)}${notice('ok', o.ok)}
<p>${f.description ?? ''}</p>
<section aria-labelledby="versions-h"><h2 id="versions-h">Published versions</h2>
${
  o.versions.length === 0
    ? html`<p>Not published yet.</p>`
    : html`<nav aria-label="Versions"><ul class="actions">${o.versions.map(
        (v) => html`<li><a href="/flows/${id}?version=${v.version}${heat ? '&view=heat' : ''}" ${v.version === o.shown ? html`aria-current="page"` : ''}>version ${v.version}</a> <span class="hint">${v.createdBy}, ${formatTime(v.createdAt)}</span></li>`,
      )}</ul></nav>
${views}
${heat ? html`${heat.form}${heat.legend}` : html`<p><a href="/api/v1/flows/${id}/versions/${o.shown ?? 1}/diagram.svg">This drawing as SVG</a></p>`}
${diagramBox(html`data-flow-diagram-page data-version="${o.shown ?? ''}"${heat ? html` data-heat-view` : ''}`, o.svg ?? '', heat ? 'Heat view' : 'Drawing')}
<div class="node-info" role="status" aria-live="polite" data-node-info-shown><p class="hint">Select a node for its catalogue entry.</p></div>
${heat ? heat.table : ''}
<details><summary>Nodes of version ${o.shown ?? ''}</summary><ul>${o.nodes.map(
        (n) => html`<li data-node-info="${n.id}"><strong>${n.label}</strong> <code>${n.id}</code> · <code>${n.type}</code>: ${n.description}</li>`,
      )}</ul></details>`
}
</section>
${o.move ? moveSection(o.move) : ''}
${pathsSection(o.paths)}
<section aria-labelledby="draft-h"><h2 id="draft-h">Draft</h2>
${
  o.draftSvg === null
    ? html`<p data-draft-unchanged>The draft is version ${f.publishedVersion ?? ''} as published: nothing to publish.</p>`
    : html`${o.problems.length === 0 ? html`<p data-draft-valid>The draft has no problems${f.publishedVersion === null ? '' : html`; it differs from version ${f.publishedVersion}`}.</p>` : html`<ul class="problems">${o.problems.map((p) => html`<li data-problem-node="${p.nodeId ?? ''}">${p.message}</li>`)}</ul>`}
${diagramBox(html`data-draft-diagram`, o.draftSvg, 'Draft drawing')}`
}
${
  operator
    ? html`<p><a href="/flows/${id}/edit" data-edit-draft>Edit the draft</a></p>${
        o.draftSvg === null
          ? ''
          : html`<form method="post" action="/flows/${id}/publish"><button type="submit" class="primary" data-publish ${o.problems.length ? 'disabled' : ''}>Publish the draft as version ${(f.publishedVersion ?? 0) + 1}</button></form>`
      }`
    : ''
}
</section>`,
  });
}
