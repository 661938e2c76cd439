// The approvals inbox (/approvals): filter by status, oldest first, decide from the row with the undo window.
import type { Principal } from '../../auth/principal.js';
import { roleAtLeast } from '../../auth/roles.js';
import { INBOX_STATUSES, type InboxRow, type InboxStatus } from '../../orders/approval-inbox.js';
import { formatTime, html, notice, page } from '../../transport/html.js';
import { decisionButtons } from './order-sections.js';
import { money, statusBadge } from './status-badge.js';

export function approvalsPage(o: { nonce: string; principal: Principal; rows: InboxRow[]; status: InboxStatus; now: number; error?: string | null }): string {
  const canDecide = roleAtLeast(o.principal.role, 'approver');
  return page({
    title: 'Approvals',
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`${notice('error', o.error)}
<nav aria-label="Approval status"><ul class="actions">${INBOX_STATUSES.map(
      (s) => html`<li><a href="/approvals?status=${s}" ${s === o.status ? html`aria-current="page"` : ''}>${s}</a></li>`,
    )}</ul></nav>
<div data-approvals-page data-server-now="${o.now}">
<p class="live-state" role="status" data-action-status></p>
<div class="table-wrap"><table class="stack">
<caption class="hint">${o.status}: oldest first</caption>
<thead><tr><th scope="col">Approval</th><th scope="col">Order</th><th scope="col">Amount</th><th scope="col">Deadline</th><th scope="col">Outcome</th>${canDecide && o.status === 'pending' ? html`<th scope="col">Decide</th>` : ''}</tr></thead>
<tbody>${o.rows.map(
      (r) => html`<tr data-approval-order="${r.orderId}" data-approval-node="${r.nodeId}" data-approval-outcome="${r.outcome}" data-deadline="${r.deadline ?? ''}">
<td data-label="Approval">${r.title ?? r.nodeId}<br><span class="hint">${r.assignee ?? ''} · since ${formatTime(r.since)}</span></td>
<td data-label="Order"><a href="/orders/${encodeURIComponent(r.orderId)}">${r.orderTitle ?? r.orderId}</a><br><span class="hint">${r.orderStatus}</span></td>
<td data-label="Amount">${money(r.amount, r.currency)}</td>
<td data-label="Deadline">${formatTime(r.deadline)}${r.outcome === 'pending' && r.deadline ? html`<br><span class="countdown" data-countdown></span>` : ''}</td>
<td data-label="Outcome">${statusBadge(r.outcome)}${r.decidedBy ? html`<br><span class="hint">by ${r.decidedBy}${r.note ? `: ${r.note}` : ''}</span>` : ''}</td>
${canDecide && o.status === 'pending' ? html`<td class="decide">${decisionButtons(r.orderId, r.nodeId)}</td>` : ''}</tr>`,
    )}</tbody></table></div>
${o.rows.length === 0 ? html`<p data-empty>No ${o.status === 'all' ? '' : o.status} approvals.</p>` : ''}
</div>`,
  });
}
