// The orders list (/orders): the API's filters as query parameters, waiting-on column, newest first, cursor paging,
// and for those who may run one a batch over every order matching the filter or over the selected rows (contract 16).
import type { Principal } from '../../auth/principal.js';
import type { OperationOutput } from '../../application/operation-types.js';
import { ORDER_CHANNELS, ORDER_MODELS } from '../../domain/order-input-schema.js';
import { ORDER_STATUSES } from '../../orders/order-schemas.js';
import { DEFAULT_BATCH_RATE } from '../../batches/batch-view.js';
import { formatTime, html, notice, page, type Html } from '../../transport/html.js';
import { money, statusBadge } from './status-badge.js';

/** A row as `listOrders` answers it. */
export type OrderRow = OperationOutput<'listOrders'>['orders'][number];

/** The filter as typed in the page's form (query parameters; contract 16's keys). */
export interface OrdersFilters {
  status?: string;
  model?: string;
  channel?: string;
  q?: string;
  flowId?: string;
  flowVersion?: string;
  waitingAtNode?: string;
  sellerId?: string;
  sku?: string;
  createdAfter?: string;
  createdBefore?: string;
}

/** A batch operation the signed-in person may start from the list. */
export interface BulkOperation {
  name: string;
  label: string;
}

function select(id: string, label: string, values: readonly string[], current: string | undefined) {
  return html`<div><label for="${id}">${label}</label><select id="${id}" name="${id}"><option value="">any</option>${values.map(
    (v) => html`<option ${v === current ? 'selected' : ''}>${v}</option>`,
  )}</select></div>`;
}

function text(id: string, label: string, current: string | undefined, o: { placeholder?: string; size?: number; inputmode?: string } = {}) {
  return html`<div><label for="${id}">${label}</label><input id="${id}" name="${id}" type="text" value="${current ?? ''}" maxlength="100" size="${o.size ?? 14}"${
    o.placeholder ? html` placeholder="${o.placeholder}"` : ''
  }${o.inputmode ? html` inputmode="${o.inputmode}"` : ''}></div>`;
}

/** Every order matching the filter, or the ticked rows: counted first (a dry run), then started as a batch (dashboard-client.ts). */
function bulkPanel(filter: Record<string, unknown>, operations: BulkOperation[]): Html {
  return html`<section aria-labelledby="bulk-h" class="bulk">
<h2 id="bulk-h">Act on many orders</h2>
<form data-bulk-form data-filter="${JSON.stringify(filter)}" class="filters">
  <fieldset><legend>Which orders</legend>
    <label><input type="radio" name="scope" value="filter" checked> Every order matching the filter</label>
    <label><input type="radio" name="scope" value="selected"> The selected rows (<span data-bulk-selected>0</span>)</label>
  </fieldset>
  <div><label for="bulk-operation">Operation</label><select id="bulk-operation" name="operation" data-bulk-operation>${operations.map(
    (op) => html`<option value="${op.name}">${op.label}</option>`,
  )}</select></div>
  <div data-bulk-input="cancel"><div><label for="bulk-reason">Reason</label><input id="bulk-reason" name="reason" type="text" maxlength="500" placeholder="Cancelled by the batch"></div></div>
  <div data-bulk-input="deliver_event" hidden><div><label for="bulk-event">Event</label><input id="bulk-event" name="event" type="text" maxlength="100" value="payment.received"></div>
    <div><label for="bulk-payload">Payload (JSON)</label><input id="bulk-payload" name="payload" type="text" value="{}"></div></div>
  <div data-bulk-input="decide_approval" hidden><div><label for="bulk-decision">Decision</label><select id="bulk-decision" name="decision"><option value="approved">approve</option><option value="rejected">reject</option></select></div>
    <div><label for="bulk-node">Node (blank: its one open approval)</label><input id="bulk-node" name="nodeId" type="text" maxlength="100"></div>
    <div><label for="bulk-note">Note</label><input id="bulk-note" name="note" type="text" maxlength="2000"></div></div>
  <div data-bulk-input="resolve_hold" hidden><div><label for="bulk-hold-action">Held step</label><select id="bulk-hold-action" name="holdAction"><option value="retry">retry</option><option value="rollback">roll back</option></select></div>
    <div><label for="bulk-hold-note">Note</label><input id="bulk-hold-note" name="holdNote" type="text" maxlength="2000"></div></div>
  <div><label for="bulk-rate">Orders per second</label><input id="bulk-rate" name="ratePerSecond" type="number" min="1" max="1000" value="${DEFAULT_BATCH_RATE}" inputmode="numeric"></div>
  <div class="actions"><button type="button" data-bulk-count>Count the orders</button>
    <button type="button" class="primary" data-bulk-confirm hidden>Start the batch</button></div>
  <p role="status" aria-live="polite" data-bulk-summary hidden></p>
</form></section>`;
}

export function ordersPage(o: {
  nonce: string;
  principal: Principal;
  orders: OrderRow[];
  nextCursor: string | null;
  filters: OrdersFilters;
  /** The filter as the API reads it (numbers as numbers), for the batch panel; null when the filter was refused. */
  batchFilter: Record<string, unknown> | null;
  /** The batch operations the person may start (none: no panel, no row selection). */
  bulk: BulkOperation[];
  paged: boolean;
  error?: string | null;
}): string {
  const f = o.filters;
  const keep = Object.fromEntries(Object.entries(f).filter(([, v]) => v)) as Record<string, string>;
  const next = o.nextCursor ? `/orders?${new URLSearchParams({ ...keep, cursor: o.nextCursor }).toString()}` : null;
  const first = o.paged ? `/orders?${new URLSearchParams(keep).toString()}` : null;
  const selectable = o.bulk.length > 0;
  return page({
    title: 'Orders',
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`${notice('error', o.error)}
${o.principal.role === 'operator' ? html`<p><a href="/orders/new">Start an order</a> · <a href="/batches">Batches</a></p>` : html`<p><a href="/batches">Batches</a></p>`}
<form method="get" action="/orders" class="filters" role="search" aria-label="Filter orders">
  ${select('status', 'Status', ORDER_STATUSES, f.status)}
  ${select('model', 'Model', ORDER_MODELS, f.model)}
  ${select('channel', 'Channel', ORDER_CHANNELS, f.channel)}
  <div><label for="q">Search</label><input id="q" name="q" type="search" value="${f.q ?? ''}" maxlength="200" placeholder="id, title, customer, email"></div>
  ${text('flowId', 'Flow', f.flowId)}
  ${text('flowVersion', 'Version', f.flowVersion, { size: 4, inputmode: 'numeric' })}
  ${text('waitingAtNode', 'Parked at node', f.waitingAtNode)}
  ${text('sellerId', 'Seller', f.sellerId)}
  ${text('sku', 'SKU', f.sku)}
  ${text('createdAfter', 'Created from', f.createdAfter, { placeholder: 'YYYY-MM-DD or ms' })}
  ${text('createdBefore', 'Created until', f.createdBefore, { placeholder: 'YYYY-MM-DD or ms' })}
  <div><button type="submit">Show</button></div>
</form>
${selectable && o.batchFilter ? bulkPanel(o.batchFilter, o.bulk) : ''}
<div class="table-wrap"><table data-orders-list>
<caption class="hint">Newest first</caption>
<thead><tr>${selectable ? html`<th scope="col"><span class="visually-hidden">Select</span></th>` : ''}<th scope="col">Order</th><th scope="col">Status</th><th scope="col">Waiting on</th><th scope="col" class="hide-narrow">Model / channel</th><th scope="col" class="hide-narrow">Flow</th><th scope="col">Total</th><th scope="col" class="hide-narrow">Created</th></tr></thead>
<tbody>${o.orders.map(
      (r) => html`<tr data-order-id="${r.id}" data-status="${r.status}">
${selectable ? html`<td><input type="checkbox" data-select-order value="${r.id}" aria-label="Select ${r.title ?? r.id}"></td>` : ''}
<td><a href="/orders/${encodeURIComponent(r.id)}">${r.title ?? r.id}</a><br><span class="hint">${r.id}</span></td>
<td>${statusBadge(r.status)}</td>
<td>${r.waitingOn.length ? r.waitingOn.join('; ') : '—'}</td>
<td class="hide-narrow">${r.model} / ${r.channel}</td>
<td class="hide-narrow"><a href="/flows/${encodeURIComponent(r.flowId)}?version=${r.flowVersion}">${r.flowId} v${r.flowVersion}</a></td>
<td>${money(r.total, r.currency)}</td>
<td class="hide-narrow">${formatTime(r.createdAt)}</td></tr>`,
    )}</tbody></table></div>
${o.orders.length === 0 ? html`<p data-empty>No orders match.</p>` : ''}
<nav class="pager" aria-label="Pages">${first ? html`<a href="${first}">First page</a>` : ''}${next ? html`<a href="${next}" rel="next">Next page</a>` : ''}</nav>`,
  });
}
