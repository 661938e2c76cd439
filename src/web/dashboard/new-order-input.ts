// Turns the new order form's fields into startOrder's input; values stay as typed where they are not numbers, so the API's own checks name them.
import { NEW_ORDER_LINE_ROWS, type NewOrderValues } from './new-order-page.js';

/** The form fields the page reads (and keeps on a refused form). */
export const NEW_ORDER_FIELDS = [
  'flowId',
  'model',
  'channel',
  'currency',
  'fulfillment',
  'title',
  'customerId',
  'email',
  ...Array.from({ length: NEW_ORDER_LINE_ROWS }, (_, i) => [`sku${i}`, `qty${i}`, `unitPrice${i}`]).flat(),
] as const;

/** A number when the text is one, else the text itself (the schema then refuses it with its message). */
function numeric(text: string): number | string {
  const n = Number(text);
  return text !== '' && Number.isFinite(n) ? n : text;
}

export function readNewOrderValues(field: (name: string) => string): NewOrderValues {
  return Object.fromEntries(NEW_ORDER_FIELDS.map((name) => [name, field(name).trim()]));
}

/** startOrder's input: empty fields left out, empty line rows skipped. */
export function newOrderInput(v: NewOrderValues, idempotencyKey: string): Record<string, unknown> {
  const lines: Record<string, unknown>[] = [];
  for (let i = 0; i < NEW_ORDER_LINE_ROWS; i++) {
    const sku = v[`sku${i}`] ?? '';
    const qty = v[`qty${i}`] ?? '';
    const price = v[`unitPrice${i}`] ?? '';
    if (!sku && !qty && !price) continue;
    lines.push({ sku, qty: qty === '' ? 1 : numeric(qty), ...(price === '' ? {} : { unitPrice: numeric(price) }) });
  }
  const input: Record<string, unknown> = { model: v.model, channel: v.channel || 'manual', currency: v.currency || 'USD', lines };
  if (v.title) input.title = v.title;
  if (v.customerId) input.customerId = v.customerId;
  if (v.email) input.contact = { email: v.email };
  if (v.fulfillment) input.fulfillment = { method: v.fulfillment };
  return { flowId: v.flowId, input, ...(idempotencyKey ? { idempotencyKey } : {}) };
}
