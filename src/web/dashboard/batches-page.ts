// The batches page (/batches, contract 16): each batch with live progress (the client re-reads the API every second), pause, resume, cancel.
import type { Principal } from '../../auth/principal.js';
import type { OperationOutput } from '../../application/operation-types.js';
import { formatTime, html, notice, page, type Html } from '../../transport/html.js';
import { statusBadge } from './status-badge.js';

/** A batch as `listBatches` answers it. */
export type BatchRow = OperationOutput<'listBatches'>['batches'][number];

/** What each batch operation is called on the page. */
export const BATCH_OPERATION_LABELS: Record<string, string> = {
  cancel: 'Cancel orders',
  deliver_event: 'Deliver an event',
  decide_approval: 'Decide approvals',
  resolve_hold: 'Retry or roll back held steps',
  restart: 'Restart orders',
  migrate: 'Move to another flow version',
};

/** Orders with an outcome so far. */
export const processedOf = (b: BatchRow) => b.done + b.failed + b.skipped;

/** The buttons a batch in its state offers to someone who may change it (the client shows and hides them as the state moves). */
function actions(b: BatchRow): Html {
  return html`<div class="actions">
<button type="button" data-batch-action="pause" ${b.state === 'running' ? '' : 'hidden'}>Pause</button>
<button type="button" data-batch-action="resume" ${b.state === 'paused' ? '' : 'hidden'}>Resume</button>
<button type="button" class="danger" data-batch-action="cancel" ${b.state === 'running' || b.state === 'paused' ? '' : 'hidden'}>Cancel</button></div>`;
}

/** One batch's row: the marks tests read (`data-batch-done` is the API's `done`, `data-batch-processed` every outcome so far). */
export function batchRow(b: BatchRow, canChange: boolean): Html {
  const processed = processedOf(b);
  return html`<tr data-batch-id="${b.id}" data-batch-state="${b.state}" data-batch-done="${b.done}" data-batch-total="${b.total}" data-batch-processed="${processed}" data-batch-operation="${b.operation}">
<td>${b.id} <a href="/api/v1/batches/${encodeURIComponent(b.id)}" class="hint">results (JSON)</a><br><span class="hint">${formatTime(b.createdAt)} by ${b.createdBy}</span></td>
<td>${BATCH_OPERATION_LABELS[b.operation] ?? b.operation}</td>
<td data-batch-cell="state">${statusBadge(b.state)}</td>
<td data-batch-cell="progress"><progress max="${Math.max(1, b.total)}" value="${processed}" aria-label="${processed} of ${b.total} orders processed"></progress>
<br><span class="hint">${b.done} done, ${b.skipped} skipped, ${b.failed} failed of ${b.total}</span></td>
<td class="hide-narrow">${b.ratePerSecond}/s</td>
<td class="hide-narrow" data-batch-cell="finished">${b.finishedAt ? formatTime(b.finishedAt) : '—'}</td>
<td>${canChange ? actions(b) : ''}</td></tr>`;
}

export function batchesPage(o: { nonce: string; principal: Principal; batches: BatchRow[]; canChange: (operation: string) => boolean; started?: string | null }): string {
  return page({
    title: 'Batches',
    nonce: o.nonce,
    principal: o.principal,
    live: true,
    wide: true,
    body: html`${notice('ok', o.started ? `Batch ${o.started} started.` : null)}
<p class="hint">One operation over many orders, at its rate across every node; start one from <a href="/orders">Orders</a>, or move live orders from a flow's page. Progress updates every second.</p>
<p class="notice" role="status" aria-live="polite" data-action-status hidden></p>
<div class="table-wrap"><table data-batches-list>
<caption class="hint">Newest first</caption>
<thead><tr><th scope="col">Batch</th><th scope="col">Operation</th><th scope="col">State</th><th scope="col">Progress</th><th scope="col" class="hide-narrow">Rate</th><th scope="col" class="hide-narrow">Finished</th><th scope="col">Actions</th></tr></thead>
<tbody>${o.batches.map((b) => batchRow(b, o.canChange(b.operation)))}</tbody></table></div>
${o.batches.length === 0 ? html`<p data-empty>No batches yet.</p>` : ''}`,
  });
}
