// Plain sentences from tool outputs: the numbers and ids the tools returned, links to the dashboard pages, nothing invented.
import type { OperationOutput } from '../operation-types.js';

type Row = { id: string; title?: string | null; status?: string; total?: number; currency?: string };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** An order as a reader meets it: id, title, and the dashboard link. */
export function orderRef(baseUrl: string, o: Row): string {
  return `${o.id}${o.title ? ` (${o.title})` : ''} ${baseUrl}/orders/${o.id}`;
}

export function when(ms: number | null | undefined): string {
  return ms ? new Date(ms).toISOString().replace('T', ' ').replace(/:\d\d\.\d{3}Z$/, ' UTC') : 'an unknown time';
}

export function attentionAnswer(baseUrl: string, o: OperationOutput<'needs_attention'>): string {
  const parts: string[] = [];
  parts.push(
    o.counts.approvals === 0
      ? 'No approval is open.'
      : `${plural(o.counts.approvals, 'approval is', 'approvals are')} open; the oldest: ${o.approvals
          .slice(0, 3)
          .map((a) => `${a.title ?? a.nodeId} on ${orderRef(baseUrl, { id: a.orderId, title: a.orderTitle })} since ${when(a.since)}`)
          .join('; ')}.`,
  );
  parts.push(
    o.counts.failed === 0
      ? 'No order failed or rolled back in the last 3 days.'
      : `${plural(o.counts.failed, 'order')} failed or rolled back in the last 3 days: ${o.failed.slice(0, 3).map((r) => orderRef(baseUrl, r)).join('; ')}.`,
  );
  parts.push(
    o.counts.waiting === 0
      ? 'No order has waited over a day for a business event.'
      : `${plural(o.counts.waiting, 'order has', 'orders have')} waited over a day for a business event: ${o.waiting
          .slice(0, 3)
          .map((r) => `${orderRef(baseUrl, r)} (waiting for ${r.event})`)
          .join('; ')}.`,
  );
  // Held steps (contract 16) are said only when there are some: most workspaces never hold.
  if (o.counts.held > 0)
    parts.push(
      `${plural(o.counts.held, 'order is', 'orders are')} held for a retry or a rollback: ${o.held
        .slice(0, 3)
        .map((r) => `${orderRef(baseUrl, r)} (${r.title})`)
        .join('; ')}.`,
    );
  return parts.join(' ');
}

export function orderStateAnswer(baseUrl: string, o: OperationOutput<'get_order'>): string {
  const head = `Order ${o.orderId} is ${String(o.status).replace('_', ' ')}${o.reason ? `: ${o.reason}` : ''}.`;
  const waits = o.waits.map((w) => {
    const leads = Object.entries(w.leadsTo).map(([branch, to]) => `${branch} leads to ${to}`).join(', ');
    const what = w.kind === 'approval' ? `an approval (${w.title ?? w.label}${w.assignee ? `, assigned to ${w.assignee}` : ''})` : `the event ${w.event}`;
    return `It waits for ${what} at ${w.label} since ${when(w.since)}${w.deadline ? `, until ${when(w.deadline)}` : ''}${leads ? `; ${leads}` : ''}.`;
  });
  const failed = o.steps.filter((s) => s.status === 'failed').map((s) => `${s.label} failed: ${s.error}`);
  const holds = o.holds.map((h) => `${h.label} is held since ${when(h.since)}: retry it or roll it back.`);
  const last = o.activity.at(-1);
  return [head, ...waits, ...failed, ...holds, last ? `Latest: ${last.message} (${when(last.at)}).` : '', `${baseUrl}/orders/${o.orderId}`].filter(Boolean).join(' ');
}

export function productsAnswer(o: OperationOutput<'find_products'>, sku: string | undefined): string {
  if (sku) {
    const p = o.products[0];
    return p
      ? `${p.sku} (${p.name}): ${p.stock} on hand, ${p.reserved} reserved, ${p.available} available; reorder point ${p.reorderPoint}.`
      : `No product has the SKU ${sku}.`;
  }
  if (o.products.length === 0) return 'No product is at or below its reorder point.';
  return `${plural(o.products.length, 'product is', 'products are')} at or below the reorder point: ${o.products
    .slice(0, 10)
    .map((p) => `${p.sku} (${p.available} available, reorder point ${p.reorderPoint})`)
    .join('; ')}.`;
}

export function flowsAnswer(o: Pick<OperationOutput<'list_flows'>, 'flows'>): string {
  return `${plural(o.flows.length, 'flow')}: ${o.flows
    .map((f) => `${f.name} (${f.id}, ${f.publishedVersion ? `version ${f.publishedVersion} published` : 'not published'})`)
    .join('; ')}.`;
}

export function flowAnswer(baseUrl: string, o: OperationOutput<'get_flow'>): string {
  const problems = o.draft.problems.length ? ` The draft has ${plural(o.draft.problems.length, 'problem')}: ${o.draft.problems.map((p) => p.message).join('; ')}.` : ' The draft has no problems.';
  return `${o.flow.name} (${o.flow.id}) has ${plural(o.draft.steps.length, 'step')} in its draft: ${o.draft.steps.map((s) => s.label ?? s.id).join(' → ')}.${problems} ${baseUrl}/flows/${o.flow.id}`;
}

export function findOrdersAnswer(baseUrl: string, o: OperationOutput<'find_orders'>, described: string): string {
  if (o.count === 0) return `No order matches${described ? ` (${described})` : ''}.`;
  const shown = o.orders.slice(0, 5).map((r) => `${orderRef(baseUrl, r)} ${String(r.status).replace('_', ' ')}`);
  return `${plural(o.count, 'order')} match${o.count === 1 ? 'es' : ''}${described ? ` (${described})` : ''}, ${o.totalUsd.toFixed(2)} USD in all. Newest: ${shown.join('; ')}.`;
}
