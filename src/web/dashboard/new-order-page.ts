// The new order form (/orders/new, operator): a published flow, the order's input and its lines; the API's messages on refusal.
import type { Principal } from '../../auth/principal.js';
import { FULFILLMENT_METHODS, ORDER_CHANNELS, ORDER_MODELS } from '../../domain/order-input-schema.js';
import { html, page, type Html } from '../../transport/html.js';

/** Line rows on the form; empty rows are left out of the order. */
export const NEW_ORDER_LINE_ROWS = 5;

/** What the person typed, kept on a refused form so nothing has to be typed again. */
export type NewOrderValues = Record<string, string>;

export interface NewOrderPageView {
  nonce: string;
  principal: Principal;
  flows: { id: string; name: string; publishedVersion: number | null; model: string | null }[];
  values: NewOrderValues;
  /** A fresh key per form: a double submit answers the first order instead of starting two. */
  idempotencyKey: string;
  error?: string | null;
  issues?: { path: string; message: string }[];
}

function options(values: readonly string[], current: string | undefined, empty?: string): Html {
  return html`${empty !== undefined ? html`<option value="">${empty}</option>` : ''}${values.map((v) => html`<option ${v === current ? 'selected' : ''}>${v}</option>`)}`;
}

export function newOrderPage(o: NewOrderPageView): string {
  const v = o.values;
  const published = o.flows.filter((f) => f.publishedVersion !== null);
  const rows = Array.from({ length: NEW_ORDER_LINE_ROWS }, (_, i) => i);
  return page({
    title: 'Start an order',
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    body: html`${
      o.error
        ? html`<div class="notice error" role="alert" data-error><p>${o.error}</p>${
            o.issues?.length ? html`<ul>${o.issues.map((i) => html`<li data-issue-path="${i.path}"><code>${i.path}</code>: ${i.message}</li>`)}</ul>` : ''
          }</div>`
        : ''
    }
<form method="post" action="/orders/new" data-new-order-form>
<input type="hidden" name="idempotencyKey" value="${o.idempotencyKey}">
<label for="flowId">Flow (published)</label>
<select id="flowId" name="flowId" required>${published.map(
      (f) => html`<option value="${f.id}" ${f.id === v.flowId ? 'selected' : ''}>${f.name} (${f.id}, version ${f.publishedVersion})</option>`,
    )}</select>
<div class="filters">
<div><label for="model">Model</label><select id="model" name="model" required>${options(ORDER_MODELS, v.model ?? 'b2c')}</select></div>
<div><label for="channel">Channel</label><select id="channel" name="channel">${options(ORDER_CHANNELS, v.channel ?? 'manual')}</select></div>
<div><label for="currency">Currency</label><input id="currency" name="currency" value="${v.currency ?? 'USD'}" maxlength="3" size="4" autocomplete="off"></div>
<div><label for="fulfillment">Fulfilment</label><select id="fulfillment" name="fulfillment">${options(FULFILLMENT_METHODS, v.fulfillment, 'flow default')}</select></div>
</div>
<label for="title">Title</label><input id="title" name="title" value="${v.title ?? ''}" maxlength="140">
<div class="filters">
<div><label for="customerId">Customer id</label><input id="customerId" name="customerId" value="${v.customerId ?? ''}" maxlength="100"></div>
<div><label for="email">Contact email</label><input id="email" name="email" type="email" value="${v.email ?? ''}" maxlength="254"></div>
</div>
<fieldset><legend>Lines</legend>
<p class="hint">SKU and quantity; leave the price empty for the catalogue price. Empty rows are ignored.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">SKU</th><th scope="col">Qty</th><th scope="col">Unit price</th></tr></thead><tbody>${rows.map(
      (i) => html`<tr><td><input name="sku${i}" aria-label="SKU of line ${i + 1}" value="${v[`sku${i}`] ?? ''}" maxlength="100"></td>
<td><input name="qty${i}" aria-label="Quantity of line ${i + 1}" inputmode="numeric" value="${v[`qty${i}`] ?? ''}" size="5"></td>
<td><input name="unitPrice${i}" aria-label="Unit price of line ${i + 1}" inputmode="decimal" value="${v[`unitPrice${i}`] ?? ''}" size="8"></td></tr>`,
    )}</tbody></table></div></fieldset>
<div class="actions"><button type="submit" class="primary">Start the order</button> <a href="/orders">Back to orders</a></div>
</form>`,
  });
}
