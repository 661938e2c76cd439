// The orders list (/orders): the API's filters as query parameters, waiting-on column, newest first, cursor paging.
import type { Principal } from '../../auth/principal.js';
import type { OperationOutput } from '../../application/operation-types.js';
import { ORDER_CHANNELS, ORDER_MODELS } from '../../domain/order-input-schema.js';
import { ORDER_STATUSES } from '../../orders/order-schemas.js';
import { formatTime, html, notice, page } from '../../transport/html.js';
import { money, statusBadge } from './status-badge.js';

/** A row as `listOrders` answers it. */
export type OrderRow = OperationOutput<'listOrders'>['orders'][number];

export interface OrdersFilters {
  status?: string;
  model?: string;
  channel?: string;
  q?: string;
}

function select(id: string, label: string, values: readonly string[], current: string | undefined) {
  return html`<div><label for="${id}">${label}</label><select id="${id}" name="${id}"><option value="">any</option>${values.map(
    (v) => html`<option ${v === current ? 'selected' : ''}>${v}</option>`,
  )}</select></div>`;
}

export function ordersPage(o: { nonce: string; principal: Principal; orders: OrderRow[]; nextCursor: string | null; filters: OrdersFilters; paged: boolean; error?: string | null }): string {
  const f = o.filters;
  const keep = Object.fromEntries(Object.entries(f).filter(([, v]) => v)) as Record<string, string>;
  const next = o.nextCursor ? `/orders?${new URLSearchParams({ ...keep, cursor: o.nextCursor }).toString()}` : null;
  const first = o.paged ? `/orders?${new URLSearchParams(keep).toString()}` : null;
  return page({
    title: 'Orders',
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`${notice('error', o.error)}
${o.principal.role === 'operator' ? html`<p><a href="/orders/new">Start an order</a></p>` : ''}
<form method="get" action="/orders" class="filters" role="search" aria-label="Filter orders">
  ${select('status', 'Status', ORDER_STATUSES, f.status)}
  ${select('model', 'Model', ORDER_MODELS, f.model)}
  ${select('channel', 'Channel', ORDER_CHANNELS, f.channel)}
  <div><label for="q">Search</label><input id="q" name="q" type="search" value="${f.q ?? ''}" maxlength="200" placeholder="id, title, customer, email"></div>
  <div><button type="submit">Show</button></div>
</form>
<div class="table-wrap"><table data-orders-list>
<caption class="hint">Newest first</caption>
<thead><tr><th scope="col">Order</th><th scope="col">Status</th><th scope="col">Waiting on</th><th scope="col" class="hide-narrow">Model / channel</th><th scope="col" class="hide-narrow">Flow</th><th scope="col">Total</th><th scope="col" class="hide-narrow">Created</th></tr></thead>
<tbody>${o.orders.map(
      (r) => html`<tr data-order-id="${r.id}" data-status="${r.status}">
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
