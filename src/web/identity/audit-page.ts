// The Audit log page (operator): newest first, filter by type, page back by time.
import type { Principal } from '../../auth/principal.js';
import { auditTypes, type AuditEvent } from '../../auth/audit-log.js';
import { formatTime, html, page } from '../../transport/html.js';

export function auditPage(o: {
  nonce: string;
  principal: Principal;
  events: AuditEvent[];
  type: string | null;
  limit: number;
}): string {
  const last = o.events.at(-1);
  const older =
    last && o.events.length >= o.limit
      ? `/audit?${new URLSearchParams({ ...(o.type ? { type: o.type } : {}), before: String(last.at) }).toString()}`
      : null;
  return page({
    title: 'Audit log',
    nonce: o.nonce,
    principal: o.principal,
    body: html`<form method="get" action="/audit">
  <label for="type">Type</label>
  <select id="type" name="type"><option value="">all</option>${auditTypes.map(
    (t) => html`<option ${t === o.type ? 'selected' : ''}>${t}</option>`,
  )}</select>
  <button type="submit">Show</button>
</form>
<table class="stack"><thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Target</th><th scope="col">Detail</th><th scope="col">Address</th></tr></thead>
<tbody>${o.events.map(
      (e) => html`<tr data-audit-event="${e.id}" data-action="${e.action}"><td data-label="When">${formatTime(e.at)}</td><td data-label="Action">${e.action}</td>
<td data-label="Actor">${e.actor} <span class="hint">(${e.actorKind})</span></td><td data-label="Target">${e.target ?? ''}</td>
<td data-label="Detail"><code>${e.detail ? JSON.stringify(e.detail) : ''}</code></td><td data-label="Address">${e.ip ?? ''}</td></tr>`,
    )}</tbody></table>
${o.events.length === 0 ? html`<p>No events.</p>` : ''}
${older ? html`<p><a href="${older}" rel="next">Older events</a></p>` : ''}`,
  });
}
