// The back office (/back-office): sellers, payouts with status and "mark paid", products with stock, the stock review.
import type { Principal } from '../../auth/principal.js';
import type { OperationOutput } from '../../application/operation-types.js';
import { roleAtLeast } from '../../auth/roles.js';
import { formatTime, html, notice, page } from '../../transport/html.js';
import { money, statusBadge } from './status-badge.js';

/** What the back office shows, as its operations answer it. */
export type SellerView = OperationOutput<'listSellers'>['sellers'][number];

export type LedgerPayoutView = OperationOutput<'listPayouts'>['payouts'][number];

export type ProductView = OperationOutput<'listProducts'>['products'][number];

export const PAYOUT_FILTERS = ['all', 'scheduled', 'paid', 'reversed'] as const;
export type PayoutFilter = (typeof PAYOUT_FILTERS)[number];

export interface BackOfficeView {
  nonce: string;
  principal: Principal;
  sellers: SellerView[];
  payouts: LedgerPayoutView[];
  payoutFilter: PayoutFilter;
  products: ProductView[];
  error?: string | null;
  ok?: string | null;
}

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

export function backOfficePage(o: BackOfficeView): string {
  const operator = roleAtLeast(o.principal.role, 'operator');
  return page({
    title: 'Back office',
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`${notice('error', o.error)}${notice('ok', o.ok)}
<nav aria-label="Back office sections"><ul class="actions"><li><a href="#sellers-h">Sellers</a></li><li><a href="#payouts-h">Payouts</a></li><li><a href="#stock-h">Stock</a></li></ul></nav>
<section aria-labelledby="sellers-h"><h2 id="sellers-h">Sellers</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Seller</th><th scope="col">Commission</th><th scope="col">Auto-accept</th><th scope="col">Active</th></tr></thead>
<tbody>${o.sellers.map(
      (s) => html`<tr data-seller-id="${s.id}"><td>${s.name}<br><span class="hint">${s.id}</span></td><td>${(s.commission * 100).toFixed(1)} %</td><td>${yesNo(s.autoAccept)}</td>
<td>${s.active ? html`<span class="status status-completed">active</span>` : html`<span class="status status-cancelled">inactive</span>`}</td></tr>`,
    )}</tbody></table></div>
${o.sellers.length === 0 ? html`<p>No sellers.</p>` : ''}</section>

<section aria-labelledby="payouts-h"><h2 id="payouts-h">Payouts</h2>
<nav aria-label="Payout status"><ul class="actions">${PAYOUT_FILTERS.map(
      (s) => html`<li><a href="/back-office?payouts=${s}#payouts-h" ${s === o.payoutFilter ? html`aria-current="page"` : ''}>${s}</a></li>`,
    )}</ul></nav>
<div class="table-wrap"><table><caption class="hint">Newest first; amounts in the order currency</caption>
<thead><tr><th scope="col">Seller</th><th scope="col">Order</th><th scope="col" class="hide-narrow">Gross</th><th scope="col" class="hide-narrow">Commission</th><th scope="col">Net</th><th scope="col">Status</th>${operator ? html`<th scope="col">Action</th>` : ''}</tr></thead>
<tbody>${o.payouts.map(
      (p) => html`<tr data-payout-id="${p.id}" data-payout-status="${p.status}"><td>${p.sellerId}</td><td><a href="/orders/${encodeURIComponent(p.orderId)}">${p.orderId}</a></td>
<td class="hide-narrow">${money(p.gross, p.currency)}</td><td class="hide-narrow">${money(p.commission, p.currency)}</td><td>${money(p.net, p.currency)}</td>
<td>${statusBadge(p.status)}<br><span class="hint">${p.paidAt ? `paid ${formatTime(p.paidAt)}` : `scheduled ${formatTime(p.scheduledAt)}`}</span></td>
${
  operator
    ? html`<td>${
        p.status === 'scheduled'
          ? html`<form method="post" action="/back-office/payouts/${encodeURIComponent(p.id)}/paid" class="inline"><button type="submit" aria-label="Mark payout ${p.id} to ${p.sellerId} paid">Mark paid</button></form>`
          : '—'
      }</td>`
    : ''
}</tr>`,
    )}</tbody></table></div>
${o.payouts.length === 0 ? html`<p data-empty>No payouts${o.payoutFilter === 'all' ? '' : ` ${o.payoutFilter}`}.</p>` : ''}</section>

<section aria-labelledby="stock-h"><h2 id="stock-h">Stock</h2>
${
  operator
    ? html`<form method="post" action="/back-office/stock-review" class="actions"><button type="submit" class="primary">Run the stock review</button>
<span class="hint">Starts a reorder for every first-party SKU at or below its reorder point that has none open.</span></form>`
    : ''
}
<div class="table-wrap"><table><caption class="hint">All locations; rows at or below the reorder point are marked low</caption>
<thead><tr><th scope="col">SKU</th><th scope="col" class="hide-narrow">Product</th><th scope="col">Stock</th><th scope="col">Reserved</th><th scope="col">Available</th><th scope="col">Reorder point</th></tr></thead>
<tbody>${o.products.map((p) => {
      const low = p.reorderPoint > 0 && p.available <= p.reorderPoint;
      return html`<tr data-sku="${p.sku}" data-available="${p.available}"><td>${p.sku}</td><td class="hide-narrow">${p.name}${p.sellerId ? html` <span class="hint">(${p.sellerId})</span>` : ''}</td>
<td>${p.stock}</td><td>${p.reserved}</td><td>${p.available}${low ? html` <span class="status status-waiting">low</span>` : ''}</td><td>${p.reorderPoint}</td></tr>`;
    })}</tbody></table></div></section>`,
  });
}
