// The live sections of the order page (waits, summary, lines, seller orders, payouts, returns, documents, timeline), rendered on load and re-fetched on every change.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal.js';
import { RESTARTABLE_STATUSES } from '../../orders/restart-order.js';
import { roleAtLeast } from '../../auth/roles.js';
import type { OperationOutput } from '../../application/operation-types.js';
import { formatTime, html, type Html } from '../../transport/html.js';
import { durationText } from '../../lib/duration-text.js';
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

/** What delivering a business event does, as a button says it (the event's name is a hint beside it). */
const EVENT_ACTIONS: Record<string, string> = {
  'customer.collected': 'Record pickup by the customer',
  'goods.received': 'Record the goods as received',
  'return.received': 'Record the return as received',
  'order.picked': 'Record the order as picked',
  'order.packed': 'Record the order as packed',
};

/** `gift.wrapped` -> `Record “gift wrapped”`: an event the service does not know by name still reads as an action. */
function eventAction(event: string): string {
  return EVENT_ACTIONS[event] ?? `Record “${event.replace(/[._-]+/g, ' ').trim()}”`;
}

/**
 * The buttons of an event wait (spec "Inbound events"): a payment event is recorded with the order total
 * (`{ source: dashboard, amount }`) or confirmed from the back office (`{ source: back-office }`); any other event
 * is recorded from the back office. Each label names the action; the event sent is shown beside it.
 */
export function eventButtons(event: string, total: number, currency: string): Html {
  const backOffice = JSON.stringify({ source: 'back-office' });
  if (event.startsWith('payment.')) {
    const payment = JSON.stringify({ source: 'dashboard', amount: total });
    return html`<div class="actions">
<button type="button" data-action="deliver_event" data-event="${event}" data-payload="${payment}">Record payment of ${money(total, currency)}</button>
<button type="button" data-action="deliver_event" data-event="${event}" data-payload="${backOffice}">Confirm payment from the back office</button>
<span class="hint">sends <code>${event}</code></span></div>`;
  }
  return html`<div class="actions">
<button type="button" data-action="deliver_event" data-event="${event}" data-payload="${backOffice}">${eventAction(event)}</button>
<span class="hint">sends <code>${event}</code></span></div>`;
}

/** How long something has lasted at render, kept current by the page script (`data-since`). */
function lasted(since: number, now: number): Html {
  return html`<span class="lasted" data-since="${since}">${durationText(Math.max(0, now - since))}</span>`;
}

/** A return's goods arrived (contract 18): `return.received` from the dashboard. */
export function goodsReceivedButton(): Html {
  const payload = JSON.stringify({ source: 'dashboard' });
  return html`<div class="actions"><button type="button" class="primary" data-action="deliver_event" data-event="return.received" data-payload="${payload}">Goods received (return.received)</button></div>`;
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

/** Events whose waits show buttons of their own (or none: `return.ended` is sent by a return when it ends). */
const OWN_BUTTONS: ReadonlySet<string> = new Set(['seller.responded', 'return.received', 'return.ended']);

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

/** The order's open waits: approvals and events with their deadline and actions, then timers with when they resume. */
export function waitsSection(view: OrderView, principal: Principal, sellerOrders: SellerOrderRow[] = [], now = Date.now()): Html {
  const approver = roleAtLeast(principal.role, 'approver');
  const operator = roleAtLeast(principal.role, 'operator');
  const timers = view.timers ?? [];
  if (view.waits.length === 0 && timers.length === 0 && view.holds.length === 0) return html`<p data-no-waits>Not waiting for anyone.</p>`;
  return html`${holdsSection(view, principal)}<ul class="waits">${view.waits.map(
    (w) => html`<li data-wait-node="${w.nodeId}" data-wait-kind="${w.kind}" data-deadline="${w.deadline ?? ''}">
<strong>${w.title ?? w.nodeId}</strong> <span class="hint">(${w.kind === 'approval' ? `approval for ${w.assignee ?? 'anyone'}` : `event ${w.event}`})</span>
<br>Waiting for ${lasted(w.since, now)} <span class="hint">since ${formatTime(w.since)}</span>
${w.amount !== null ? html`<br>Amount: ${money(w.amount, view.order.currency)}` : ''}
<br>Deadline: ${formatTime(w.deadline)} ${w.deadline ? html`<span class="countdown" data-countdown></span>` : ''}
${w.kind === 'approval' && approver ? decisionButtons(view.orderId, w.nodeId) : ''}
${w.kind === 'event' && operator && w.event === 'return.received' ? goodsReceivedButton() : ''}
${w.kind === 'event' && operator && w.event && !OWN_BUTTONS.has(w.event) ? eventButtons(w.event, view.order.total, view.order.currency) : ''}
${w.kind === 'event' && w.event === 'return.ended' ? html`<p class="hint">The payout waits for the order's open returns to end (see Returns).</p>` : ''}
${w.kind === 'event' && w.event === 'seller.responded' ? (operator ? sellerAnswerButtons(sellerOrders) : html`<p class="hint">Waiting for the sellers to answer.</p>`) : ''}
</li>`,
  )}${timers.map(
    (w) => html`<li class="timer" data-wait-node="${w.nodeId}" data-wait-kind="${w.kind}" data-until="${w.until}">
<strong data-waiting-until>Waiting until ${formatTime(w.until)}</strong> <span class="until" data-until-left></span>
<br>${w.label} <span class="hint">(${w.kind === 'delay' ? 'a delay' : 'before retrying a failed attempt'}: resumes on its own)</span>
<br>Waiting for ${lasted(w.since, now)} <span class="hint">since ${formatTime(w.since)}</span>
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

/** The steps that ran, in the order they started: status, how long each took (or has lasted so far), runs. */
export function stepsSection(view: OrderView, now = Date.now()): Html {
  const steps = Object.values(view.nodes)
    .filter((n) => n.runs > 0 && n.startedAt !== null)
    .sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0));
  if (steps.length === 0) return html`<p>No step ran yet.</p>`;
  return html`<div class="table-wrap"><table class="stack" data-steps><thead><tr><th scope="col">Step</th><th scope="col">Status</th><th scope="col">Took</th><th scope="col">Runs</th></tr></thead>
<tbody>${steps.map((n) => {
    const ongoing = n.status === 'running' || n.status === 'waiting';
    const took = n.durationMs ?? null;
    return html`<tr data-step="${n.id}" data-step-status="${String(n.status)}" data-duration-ms="${took ?? ''}"><th scope="row" data-label="Step">${n.label ?? n.id}</th><td data-label="Status">${statusBadge(String(n.status))}</td>
<td data-label="Took">${ongoing && n.startedAt !== null ? html`${lasted(n.startedAt, now)} so far` : took !== null ? durationText(took) : '—'}</td><td data-label="Runs">${n.runs}</td></tr>`;
  })}</tbody></table></div>`;
}

export function summarySection(view: OrderView, canRestart = false): Html {
  const o = view.order;
  return html`${canRestart ? restartForm(view) : ''}<dl class="facts">
<dt>Status</dt><dd>${statusBadge(view.status)}${view.reason ? html` <span data-order-reason>${view.reason}</span>` : ''}</dd>
<dt>Flow</dt><dd><a href="/flows/${encodeURIComponent(view.flow.id)}?version=${view.flow.version}">${view.flow.name}</a> v${view.flow.version}</dd>
${view.order.returnOf ? html`<dt>Return of</dt><dd data-return-of="${view.order.returnOf}"><a href="/orders/${encodeURIComponent(view.order.returnOf)}">${view.order.returnOf}</a></dd>` : ''}
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

/** The order's returns (contract 18), each linked to its own page, with its status, lines and refund; on a return, the order it returns from. */
export function returnsSection(view: OrderView): Html {
  if (view.order.returnOf) return html`<p>This is a return of <a href="/orders/${encodeURIComponent(view.order.returnOf)}">${view.order.returnOf}</a>: its refund goes through that order's payment.</p>`;
  if (view.returns.length === 0) return html`<p data-no-returns>No returns.</p>`;
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">Return</th><th scope="col">Lines</th><th scope="col">Amount</th><th scope="col">Status</th></tr></thead>
<tbody>${view.returns.map(
    (r) => html`<tr data-return-id="${r.returnId}" data-return-status="${r.status}"><td><a href="/orders/${encodeURIComponent(r.returnId)}">${r.returnId}</a>${r.reason ? html`<br><span class="hint">${r.reason}</span>` : ''}</td>
<td>${r.lines.map((l) => `${l.qty} × ${l.sku}${l.sellerId ? ` (${l.sellerId})` : ''}`).join(', ')}</td><td data-return-amount="${r.amount}">${money(r.amount, view.order.currency)}</td><td>${statusBadge(r.status)}</td></tr>`,
  )}</tbody></table></div>`;
}

/**
 * The operator's Return form (contract 18): one quantity per SKU and seller still returnable (0 to what is left), a
 * reason, and a fresh idempotency key per drawing (a double submit starts one return). Nothing when no return may start.
 */
export function returnForm(view: OrderView, now: number): Html {
  const r = view.returnable;
  if (r.closed || r.lines.length === 0 || (r.windowEndsAt !== null && now >= r.windowEndsAt)) return html``;
  return html`<section aria-labelledby="return-h" data-return-section><h2 id="return-h">Return</h2>
<p class="hint">The buyer sends units back: a return waits for the goods, then refunds their share of the order's total and restocks them.${r.windowEndsAt !== null ? ` Returns close ${formatTime(r.windowEndsAt)}.` : ''}</p>
<form method="post" action="/orders/${encodeURIComponent(view.orderId)}/returns" data-return-form>
<input type="hidden" name="idempotencyKey" value="return-${randomUUID()}">
<div class="table-wrap"><table><thead><tr><th scope="col">SKU</th><th scope="col">Seller</th><th scope="col">Left</th><th scope="col">Return</th></tr></thead>
<tbody>${r.lines.map((l, i) => {
    const id = `return-qty-${i}`;
    return html`<tr data-returnable-sku="${l.sku}"><td>${l.sku}${l.name ? html` <span class="hint">${l.name}</span>` : ''}</td><td>${l.sellerId ?? 'first party'}</td><td>${l.qty}</td>
<td><label class="visually-hidden" for="${id}">Units of ${l.sku} to return</label><input id="${id}" type="number" name="qty:${l.sku}:${l.sellerId ?? ''}" min="0" max="${l.qty}" step="1" value="0"></td></tr>`;
  })}</tbody></table></div>
<label for="return-reason">Reason</label><input id="return-reason" name="reason" type="text" maxlength="500">
<div class="actions"><button type="submit" class="primary" data-action-return>Start return</button></div></form></section>`;
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
export function liveSections(
  view: OrderView,
  principal: Principal,
  payouts: PayoutRow[],
  sellerOrders: SellerOrderRow[],
  o: { canRestart?: boolean; now?: number } = {},
): Record<string, Html> {
  const now = o.now ?? Date.now();
  return {
    summary: summarySection(view, o.canRestart),
    waits: waitsSection(view, principal, sellerOrders, now),
    steps: stepsSection(view, now),
    lines: linesSection(view),
    sellerOrders: sellerOrdersSection(sellerOrders),
    payouts: payoutsSection(payouts),
    returns: returnsSection(view),
    documents: documentsSection(view),
    timeline: timelineSection(view),
  };
}
