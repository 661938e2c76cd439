// The live sections of the order page (waits, summary, lines, seller orders, payouts, documents, timeline), rendered on load and re-fetched on every change.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal.js';
import { RESTARTABLE_STATUSES } from '../../orders/restart-order.js';
import { roleAtLeast } from '../../auth/roles.js';
import type { OperationOutput } from '../../application/operation-types.js';
import { formatTime, html, type Html } from '../../transport/html.js';
import { money, statusBadge } from './status-badge.js';

/** An order's payouts as `listOrderPayouts` answers them. */
export type PayoutRow = OperationOutput<'listOrderPayouts'>['payouts'][number];

/** An order's seller order as `listOrderSellerOrders` answers it (first party: sellerId null). */
export type SellerOrderRow = OperationOutput<'listOrderSellerOrders'>['sellerOrders'][number];

/** An order as `getOrder` answers it. */
export type OrderView = OperationOutput<'getOrder'>;

/** Approve/Reject for an approval wait; the client holds each decision for the undo window before sending it. */
export function decisionButtons(orderId: string, nodeId: string): Html {
  return html`<div class="actions" data-decision-for="${nodeId}" data-order="${orderId}">
<button type="button" class="primary" data-action="approve" data-node="${nodeId}">Approve</button>
<button type="button" class="danger" data-action="reject" data-node="${nodeId}">Reject</button></div>`;
}

/** The payload a dashboard event button sends (spec "Inbound events": record payment, back office). */
export function eventButtons(event: string, total: number): Html {
  const payment = JSON.stringify({ source: 'dashboard', amount: total });
  const backOffice = JSON.stringify({ source: 'back-office' });
  return html`<div class="actions">
<button type="button" data-action="deliver_event" data-event="${event}" data-payload="${payment}">Record payment (${event})</button>
<button type="button" data-action="deliver_event" data-event="${event}" data-payload="${backOffice}">From back office (${event})</button></div>`;
}

/** Accept/reject on behalf of each seller still pending (spec "Inbound events": `seller.responded` `{ sellerId, decision }`). */
export function sellerAnswerButtons(sellerOrders: SellerOrderRow[]): Html {
  const pending = sellerOrders.filter((s) => s.status === 'pending' && s.sellerId);
  if (pending.length === 0) return html``;
  return html`<p class="hint">Record a seller's answer given by phone or mail (sellers usually answer through their integration):</p>${pending.map((s) => {
    const accept = JSON.stringify({ sellerId: s.sellerId, decision: 'accepted' });
    const reject = JSON.stringify({ sellerId: s.sellerId, decision: 'rejected', reason: 'Rejected for the seller from the dashboard' });
    return html`<div class="actions" data-seller-answer="${s.sellerId}">
<button type="button" data-action="deliver_event" data-event="seller.responded" data-payload="${accept}">${s.sellerId} accepts</button>
<button type="button" class="danger" data-action="deliver_event" data-event="seller.responded" data-payload="${reject}">${s.sellerId} rejects</button></div>`;
  })}`;
}

/** Retry and Roll back (the latter confirmed first) for a held step (contract 16); sent over the order socket. */
export function holdButtons(nodeId: string): Html {
  return html`<div class="actions" data-hold-actions="${nodeId}">
<button type="button" class="primary" data-action="retry_hold" data-node="${nodeId}">Retry</button>
<button type="button" class="danger" data-action="rollback_hold-start" data-node="${nodeId}">Roll back…</button></div>
<div class="actions" data-hold-confirm="${nodeId}" hidden><span>Undo the completed steps and end the order?</span>
<button type="button" class="danger" data-action="rollback_hold" data-node="${nodeId}">Confirm roll back</button>
<button type="button" data-action="rollback_hold-keep" data-node="${nodeId}">Keep it held</button></div>`;
}

/** Held steps (contract 16): what failed, since when, and for an operator Retry and Roll back. */
export function holdsSection(view: OrderView, principal: Principal): Html {
  if (view.holds.length === 0) return html``;
  const operator = roleAtLeast(principal.role, 'operator');
  return html`<ul class="waits holds">${view.holds.map(
    (h) => html`<li data-hold-node="${h.nodeId}" data-hold-since="${h.since}">
<strong>${h.title}</strong> <span class="hint">(held since ${formatTime(h.since)}; nothing was undone)</span>
${operator ? holdButtons(h.nodeId) : html`<p class="hint">An operator can retry the step or roll the order back.</p>`}
</li>`,
  )}</ul>`;
}

export function waitsSection(view: OrderView, principal: Principal, sellerOrders: SellerOrderRow[] = []): Html {
  const approver = roleAtLeast(principal.role, 'approver');
  const operator = roleAtLeast(principal.role, 'operator');
  if (view.waits.length === 0 && view.holds.length === 0) return html`<p data-no-waits>Not waiting for anyone.</p>`;
  return html`${holdsSection(view, principal)}<ul class="waits">${view.waits.map(
    (w) => html`<li data-wait-node="${w.nodeId}" data-wait-kind="${w.kind}" data-deadline="${w.deadline ?? ''}">
<strong>${w.title ?? w.nodeId}</strong> <span class="hint">(${w.kind === 'approval' ? `approval for ${w.assignee ?? 'anyone'}` : `event ${w.event}`}, since ${formatTime(w.since)})</span>
${w.amount !== null ? html`<br>Amount: ${money(w.amount, view.order.currency)}` : ''}
<br>Deadline: ${formatTime(w.deadline)} ${w.deadline ? html`<span class="countdown" data-countdown></span>` : ''}
${w.kind === 'approval' && approver ? decisionButtons(view.orderId, w.nodeId) : ''}
${w.kind === 'event' && operator && w.event && w.event !== 'seller.responded' ? eventButtons(w.event, view.order.total) : ''}
${w.kind === 'event' && w.event === 'seller.responded' ? (operator ? sellerAnswerButtons(sellerOrders) : html`<p class="hint">Waiting for the sellers to answer.</p>`) : ''}
</li>`,
  )}</ul>`;
}

/** Restart (contract 4) for an order that ended failed, rolled back, cancelled or declined: a new order with the same input. */
export function restartForm(view: OrderView): Html {
  if (!(RESTARTABLE_STATUSES as readonly string[]).includes(view.status)) return html``;
  // One key per drawing of the form: a double submit answers the same new order.
  return html`<form method="post" action="/orders/${encodeURIComponent(view.orderId)}/restart" class="actions" data-restart-form>
<input type="hidden" name="idempotencyKey" value="restart-${randomUUID()}">
<button type="submit" class="primary" data-action-restart>Restart</button>
<span class="hint">A new order with the same input on ${view.flow.name} v${view.flow.version}, linked to this one.</span></form>`;
}

export function summarySection(view: OrderView, canRestart = false): Html {
  const o = view.order;
  return html`${canRestart ? restartForm(view) : ''}<dl class="facts">
<dt>Status</dt><dd>${statusBadge(view.status)}${view.reason ? html` <span data-order-reason>${view.reason}</span>` : ''}</dd>
<dt>Flow</dt><dd><a href="/flows/${encodeURIComponent(view.flow.id)}?version=${view.flow.version}">${view.flow.name}</a> v${view.flow.version}</dd>
<dt>Model / channel</dt><dd>${o.model} / ${o.channel}</dd>
<dt>Customer</dt><dd>${o.customerId ?? '—'}${o.contactEmail ? ` · ${o.contactEmail}` : ''}</dd>
<dt>Subtotal</dt><dd>${money(o.subtotal, o.currency)}</dd>
<dt>Tax</dt><dd>${money(o.tax, o.currency)}</dd>
<dt>Total</dt><dd data-order-total="${o.total}"><strong>${money(o.total, o.currency)}</strong></dd>
<dt>Updated</dt><dd>${formatTime(view.updatedAt)}</dd></dl>`;
}

export function linesSection(view: OrderView): Html {
  const lines = view.order.lines;
  if (lines.length === 0) return html`<p>No lines.</p>`;
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">SKU</th><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Unit price</th><th scope="col" class="hide-narrow">Seller</th></tr></thead>
<tbody>${lines.map(
    (l) => html`<tr data-line-sku="${l.sku}"><td>${l.sku}</td><td>${l.name ?? ''}${l.dropped ? html` <span class="status status-cancelled">dropped</span>` : ''}</td><td>${l.qty}</td><td>${money(l.unitPrice, view.order.currency)}</td><td class="hide-narrow">${l.sellerId ?? 'first party'}</td></tr>`,
  )}</tbody></table></div>`;
}

export function payoutsSection(payouts: PayoutRow[]): Html {
  if (payouts.length === 0) return html`<p>No payouts.</p>`;
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">Seller</th><th scope="col">Gross</th><th scope="col">Commission</th><th scope="col">Net</th><th scope="col">Status</th></tr></thead>
<tbody>${payouts.map(
    (p) => html`<tr data-payout-id="${p.id}" data-payout-status="${p.status}"><td>${p.sellerId}</td><td>${money(p.gross, p.currency)}</td><td>${money(p.commission, p.currency)}</td><td>${money(p.net, p.currency)}</td><td>${statusBadge(p.status)}</td></tr>`,
  )}</tbody></table></div>`;
}

export function sellerOrdersSection(rows: SellerOrderRow[]): Html {
  if (rows.length === 0) return html`<p>Not split by seller (yet).</p>`;
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">Seller</th><th scope="col">Lines</th><th scope="col">Subtotal</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.map(
    (s) => html`<tr data-seller-order="${s.id}" data-seller-order-seller="${s.sellerId ?? 'first_party'}" data-seller-order-status="${s.status}"><td>${s.sellerId ?? 'first party'}</td>
<td>${s.lines.map((l) => `${l.qty} × ${l.sku}`).join(', ')}</td><td>${money(s.subtotal, s.currency)}</td><td>${statusBadge(s.status)}${s.reason ? html`<br><span class="hint">${s.reason}</span>` : ''}</td></tr>`,
  )}</tbody></table></div>`;
}

export function documentsSection(view: OrderView): Html {
  if (view.documents.length === 0) return html`<p>No documents.</p>`;
  return html`<ul>${view.documents.map((d) => html`<li data-document="${d.id}"><a href="${d.url}">${d.name}</a> <span class="hint">${d.kind}, ${formatTime(d.createdAt)}</span></li>`)}</ul>`;
}

export function timelineSection(view: OrderView): Html {
  return html`<ol class="timeline" reversed>${[...view.timeline].reverse().map(
    (t) => html`<li data-timeline-kind="${t.kind}"><time datetime="${new Date(t.at).toISOString()}">${formatTime(t.at)}</time>${t.message}${t.nodeId ? html` <span class="hint">(${t.nodeId})</span>` : ''}</li>`,
  )}</ol>`;
}

/** Every live section by name: the page renders them in place, the fragment route answers them for the client to swap in. */
export function liveSections(view: OrderView, principal: Principal, payouts: PayoutRow[], sellerOrders: SellerOrderRow[], o: { canRestart?: boolean } = {}): Record<string, Html> {
  return {
    summary: summarySection(view, o.canRestart),
    waits: waitsSection(view, principal, sellerOrders),
    lines: linesSection(view),
    sellerOrders: sellerOrdersSection(sellerOrders),
    payouts: payoutsSection(payouts),
    documents: documentsSection(view),
    timeline: timelineSection(view),
  };
}
