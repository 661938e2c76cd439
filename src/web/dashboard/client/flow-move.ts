// The flow page's Move forms (contract 15) in the browser: a dry run of POST /api/v1/flows/:id/migrations shows which orders can move
// and why the others cannot; only then "Move N orders" starts the batch, linked to /batches. Any change asks for a new dry run.

type Wire = Record<string, unknown>;
const isWire = (v: unknown): v is Wire => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reasons listed one per order up to this many; past it the reasons are still counted (the API lists up to 1,000). */
const REFUSALS_LISTED = 200;

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, data: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  Object.assign(el.dataset, data);
  return el;
}

/** An API refusal as one line: its message, and each invalid field. */
function refusal(body: Wire, status: number): string {
  const issues = Array.isArray(body.issues) ? (body.issues as unknown[]).filter(isWire).map((i) => `${String(i.path)}: ${String(i.message)}`) : [];
  return `Refused (${status}): ${typeof body.error === 'string' ? body.error : 'error'}${issues.length ? ` (${issues.join('; ')})` : ''}`;
}

async function post(url: string, body: unknown): Promise<{ status: number; body: Wire }> {
  const res = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  const answer: unknown = await res.json().catch(() => ({}));
  return { status: res.status, body: isWire(answer) ? answer : {} };
}

/** The dry run's answer drawn: the movable count, then the refused orders grouped by reason and listed one by one. */
function drawDryRun(out: HTMLElement, r: Wire): number {
  const movable = Number(r.movableCount) || 0;
  const refusedCount = Number(r.refusedCount) || 0;
  const refused = (Array.isArray(r.refused) ? (r.refused as unknown[]) : []).filter(isWire);
  const parts: HTMLElement[] = [
    element('p', movable === 0 ? 'No order can move.' : `${plural(movable, 'order')} can move from version ${String(r.fromVersion)} to version ${String(r.toVersion)}.`, { moveMovable: String(movable) }),
  ];
  const refusedLine = element('p', refusedCount === 0 ? 'None is refused.' : `${plural(refusedCount, 'order')} cannot move${refused.length < refusedCount ? ` (the first ${refused.length.toLocaleString('en')} are listed)` : ''}:`, {
    moveRefused: String(refusedCount),
  });
  parts.push(refusedLine);
  if (refused.length) {
    // The same reason for many orders reads once, with its count; then each order with its own.
    const byReason = new Map<string, number>();
    for (const x of refused) byReason.set(String(x.reason), (byReason.get(String(x.reason)) ?? 0) + 1);
    const reasons = element('ul', undefined, { moveReasons: '' });
    for (const [reason, n] of [...byReason].sort((a, b) => b[1] - a[1])) reasons.append(element('li', `${plural(n, 'order')}: ${reason}`, { moveReason: reason, moveReasonCount: String(n) }));
    const details = element('details');
    details.append(element('summary', 'Each refused order'));
    const list = element('ul', undefined);
    list.className = 'move-refusals';
    for (const x of refused.slice(0, REFUSALS_LISTED)) {
      const li = element('li', undefined, { moveRefusal: String(x.orderId) });
      const a = element('a', String(x.orderId));
      a.href = `/orders/${encodeURIComponent(String(x.orderId))}`;
      li.append(a, document.createTextNode(`: ${String(x.reason)}`));
      list.append(li);
    }
    if (refused.length > REFUSALS_LISTED) list.append(element('li', `… and ${plural(refused.length - REFUSALS_LISTED, 'more')} listed by the API.`));
    details.append(list);
    parts.push(reasons, details);
  }
  out.replaceChildren(...parts);
  out.hidden = false;
  out.classList.remove('error');
  return movable;
}

export function initMoveForm(form: HTMLFormElement): void {
  const flowId = form.dataset.flowId ?? '';
  const fromVersion = Number(form.dataset.moveVersion);
  const target = form.querySelector<HTMLSelectElement>('[data-move-target]');
  const dryRun = form.querySelector<HTMLButtonElement>('[data-move-dry-run]');
  const confirm = form.querySelector<HTMLButtonElement>('[data-move-confirm]');
  const out = form.querySelector<HTMLElement>('[data-move-result]');
  const url = `/api/v1/flows/${encodeURIComponent(flowId)}/migrations`;
  const fieldset = () => form.querySelector<HTMLFieldSetElement>(`[data-move-mapping="${CSS.escape(target?.value ?? '')}"]`);
  /** The chosen target's mapping: each row with a node picked (a blank row maps by id, which the target cannot: the dry run says so). */
  const body = () => {
    const mapping: Record<string, string> = {};
    for (const s of Array.from(fieldset()?.querySelectorAll<HTMLSelectElement>('select[data-move-map-select]') ?? [])) if (s.value) mapping[s.dataset.moveMapSelect ?? ''] = s.value;
    return { fromVersion, toVersion: Number(target?.value), ...(Object.keys(mapping).length ? { mapping } : {}) };
  };
  const fail = (text: string) => {
    if (!out) return;
    out.replaceChildren(element('p', text));
    out.hidden = false;
    out.classList.add('error');
  };
  /** A change of target or mapping: the last dry run no longer says what would move. */
  const reset = () => {
    if (confirm) confirm.hidden = true;
    if (out) out.hidden = true;
    delete form.dataset.moveCount;
    for (const f of Array.from(form.querySelectorAll<HTMLElement>('[data-move-mapping]'))) f.hidden = f.dataset.moveMapping !== target?.value;
  };
  form.addEventListener('change', reset);
  form.addEventListener('submit', (e) => e.preventDefault());
  dryRun?.addEventListener('click', () => {
    void (async () => {
      dryRun.disabled = true;
      const res = await post(url, { ...body(), dryRun: true }).catch(() => null);
      dryRun.disabled = false;
      if (!res) return fail('Could not reach the service; try again.');
      if (res.status !== 200) return fail(refusal(res.body, res.status));
      if (!out) return;
      const movable = drawDryRun(out, res.body);
      form.dataset.moveCount = String(movable);
      if (confirm) {
        confirm.textContent = `Move ${plural(movable, 'order')}`;
        confirm.hidden = movable === 0;
      }
    })();
  });
  confirm?.addEventListener('click', () => {
    void (async () => {
      confirm.disabled = true;
      const res = await post(url, body()).catch(() => null);
      confirm.disabled = false;
      const batch = res && isWire(res.body.batch) ? res.body.batch : null;
      if (!res) return fail('Could not reach the service; try again.');
      if (res.status !== 202 || !batch) return fail(refusal(res.body, res.status));
      const id = String(batch.id);
      const line = element('p', undefined, { moveStarted: id });
      const link = element('a', 'Follow it on Batches', { moveBatchLink: '' });
      link.href = `/batches?started=${encodeURIComponent(id)}`;
      line.append(document.createTextNode(`Batch ${id} started: ${plural(Number(batch.total) || 0, 'order')} moving at ${String(batch.ratePerSecond)} per second. `), link);
      out?.replaceChildren(line);
      if (out) out.hidden = false;
      confirm.hidden = true;
      form.dataset.moveBatch = id;
    })();
  });
}
