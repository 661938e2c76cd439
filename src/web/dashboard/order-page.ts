// The order page (/orders/<id>): status and reason, the live drawing, waits with countdowns and decisions, cancel, returns, the live sections.
import type { Principal } from '../../auth/principal.js';
import { roleAtLeast } from '../../auth/roles.js';
import { html, page, type Html } from '../../transport/html.js';
import { statusBadge } from './status-badge.js';
import { returnForm, type OrderView } from './order-sections.js';
import { diagramBox } from './diagram-box.js';

const FINISHED = new Set(['completed', 'failed', 'rolled_back', 'cancelled', 'declined']);

/** A live section: the client replaces its content with the fragment route's on every change. */
function section(name: string, title: string, content: Html): Html {
  return html`<section class="part-${name}" aria-labelledby="${name}-h"><h2 id="${name}-h">${title}</h2><div data-live-section="${name}">${content}</div></section>`;
}

/** Where the order is: the node it waits at, runs or failed at, which its drawing opens on (the page script centres it). */
function currentNode(v: OrderView): string | null {
  const nodes = Object.values(v.nodes);
  const at = (status: string) => nodes.filter((n) => n.status === status).sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0))[0]?.id ?? null;
  return at('waiting') ?? at('running') ?? at('failed') ?? null;
}

export function orderPage(o: { nonce: string; principal: Principal; view: OrderView; svg: string; sections: Record<string, Html>; now: number; canReturn?: boolean }): string {
  const v = o.view;
  const operator = roleAtLeast(o.principal.role, 'operator');
  return page({
    title: v.order.title ?? `Order ${v.orderId}`,
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`<div class="order" data-order-page data-order-id="${v.orderId}" data-order-status="${v.status}" data-server-now="${o.now}" data-role="${o.principal.role}">
<div class="order-head">
  <p>Status: <span data-live="status">${statusBadge(v.status)}</span> <span data-live="reason">${v.reason ?? ''}</span></p>
  <p class="hint">${v.orderId}</p>
  <p class="live-state" role="status" aria-live="polite" data-connection>Connecting for live updates…</p>
</div>
<p class="notice" role="status" aria-live="polite" data-action-status hidden></p>
<div class="grid order-grid">
<div class="column">
<section class="part-diagram" aria-labelledby="diagram-h"><h2 id="diagram-h">Flow</h2>
<p class="hint">Each step shows its status as text; colours repeat it. The drawing opens on where the order is.</p>
${diagramBox(html`data-order-diagram data-current-node="${currentNode(v) ?? ''}"`, o.svg, 'Order drawing')}</section>
${section('steps', 'Steps', o.sections.steps)}
${section('timeline', 'Timeline', o.sections.timeline)}
</div>
<div class="column">
${section('waits', 'Waiting for', o.sections.waits)}
${
  operator && !FINISHED.has(v.status)
    ? html`<section class="part-cancel" aria-labelledby="cancel-h" data-cancel-section><h2 id="cancel-h">Cancel</h2>
<p class="hint">Stops the run and undoes its work; money captured is not refunded.</p>
<div class="actions"><button type="button" class="danger" data-action="cancel-start">Cancel order…</button></div>
<div class="actions" data-cancel-confirm hidden>
  <label for="cancel-reason">Reason</label><input id="cancel-reason" type="text" maxlength="500" value="Cancelled from the dashboard">
  <button type="button" class="danger" data-action="cancel">Confirm cancel</button>
  <button type="button" data-action="cancel-keep">Keep the order</button>
</div></section>`
    : ''
}
${section('summary', 'Order', o.sections.summary)}
${section('lines', 'Lines', o.sections.lines)}
${section('sellerOrders', 'Seller orders', o.sections.sellerOrders)}
${section('payouts', 'Payouts', o.sections.payouts)}
${section('returns', 'Returns', o.sections.returns)}
${o.canReturn ? returnForm(v, o.now) : ''}
${section('documents', 'Documents', o.sections.documents)}
</div></div></div>`,
  });
}

/** The fragment the client swaps in: each live section wrapped in its marker, plus the order's status for the header. */
export function orderFragment(view: OrderView, sections: Record<string, Html>, now: number): string {
  return html`<div data-fragment data-order-status="${view.status}" data-server-now="${now}">${Object.entries(sections).map(
    ([name, content]) => html`<div data-live-section="${name}">${content}</div>`,
  )}</div>`.html;
}
