// A status shown as text and colour together (never colour alone), with the value tests read.
import { html, type Html } from '../../transport/html.js';

export function statusBadge(status: string, attr = 'data-status'): Html {
  const clean = status.replace(/[^a-z_]/g, '');
  return html`<span class="status status-${clean}" ${attr === 'data-status' ? '' : ''}>${status.replace(/_/g, ' ')}</span>`;
}

/** Money in the order's currency, two decimals (or the currency's own). */
export function money(amount: number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined) return '—';
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}
