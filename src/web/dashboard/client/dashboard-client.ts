// The dashboard's browser script (bundled by esbuild, served from /assets/dashboard.js): live order pages over the
// order socket, approvals with the undo window, countdowns, node details on flow drawings, the draft editor's checks,
// the orders list's batch panel, the batches page's live progress, the flow page's Move forms, drawings that fit their box (zoom, pan, opened on
// where the order is). No inline script or style.
import type { OperationOutput } from '../../../application/operation-types.js';
import type { ErrorResponse } from '../../../transport/http-errors.js';
import { initSimulatePanel } from './flow-trial.js';
import { initMoveForm } from './flow-move.js';
import { DEFAULT_BATCH_RATE } from '../../../batches/batch-view.js';

/** Spec "Limits": the dashboard undo window, when decisions close before the timeout, when the countdown shows. */
const UNDO_MS = 5_000;
const CLOSE_BEFORE_MS = 2_000;
const COUNTDOWN_FROM_MS = 10_000;

type Send = (action: Record<string, unknown>) => Promise<{ ok: boolean; message: string }>;

/** A JSON object off the wire (the order socket's messages and live states), read field by field. */
type WireObject = Record<string, unknown>;
const isWireObject = (v: unknown): v is WireObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The draft editor's answers: the check (checkFlowDraft's documented output) or the API's error body. */
type DraftCheck = OperationOutput<'checkFlowDraft'>;
type ApiError = Partial<ErrorResponse['body']>;

/** Server time now: the page carries the server's clock at render (the test clock in tests), so deadlines compare with it. */
function serverClock(el: Element | null): () => number {
  const at = Number(el?.closest('[data-server-now]')?.getAttribute('data-server-now') ?? document.querySelector('[data-server-now]')?.getAttribute('data-server-now'));
  const offset = Number.isFinite(at) && at > 0 ? at - Date.now() : 0;
  return () => Date.now() + offset;
}

function say(el: Element | null, text: string, kind: 'ok' | 'error' = 'ok'): void {
  if (!(el instanceof HTMLElement)) return;
  el.hidden = false;
  el.textContent = text;
  el.classList.toggle('error', kind === 'error');
  el.classList.toggle('ok', kind === 'ok');
}

function bumpSent(): void {
  const html = document.documentElement;
  html.dataset.sentActions = String(Number(html.dataset.sentActions ?? '0') + 1);
}

function socketUrl(orderId: string): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/agents/order-agent/${encodeURIComponent(orderId)}`;
}

/** A request/answer over an order socket: `requestId` pairs the answer with the action. */
function sender(socket: () => WebSocket | null, pending: Map<string, (r: { ok: boolean; message: string }) => void>): Send {
  let n = 0;
  return (action) =>
    new Promise((resolve) => {
      const ws = socket();
      if (!ws || ws.readyState !== WebSocket.OPEN) return resolve({ ok: false, message: 'Not connected; try again in a moment.' });
      const requestId = `r${++n}`;
      pending.set(requestId, resolve);
      bumpSent();
      ws.send(JSON.stringify({ type: 'action', ...action, requestId }));
    });
}

function answer(msg: unknown, pending: Map<string, (r: { ok: boolean; message: string }) => void>): void {
  if (!isWireObject(msg) || typeof msg.requestId !== 'string') return;
  const done = pending.get(msg.requestId);
  if (!done) return;
  pending.delete(msg.requestId);
  if (msg.type === 'result') {
    const r = isWireObject(msg.result) ? msg.result : undefined;
    if (msg.action === 'deliver_event' && r && r.delivered === false) done({ ok: false, message: `Nothing waits for that event now.` });
    else done({ ok: true, message: `${String(msg.action).replace(/_/g, ' ')}: done.` });
  } else done({ ok: false, message: `Refused (${String(msg.status)}): ${String(msg.error)}` });
}

/**
 * Holds a decision for the undo window, then sends it. The window ends early enough for the decision to land before
 * decisions close (2 s before the timeout). Returns nothing; the container shows the countdown and an Undo button.
 */
function holdDecision(container: HTMLElement, nodeId: string, action: 'approve' | 'reject', now: () => number, deadline: number | null, send: Send, status: Element | null): void {
  const original = Array.from(container.childNodes).map((c) => c.cloneNode(true));
  const closeAt = deadline ? deadline - CLOSE_BEFORE_MS : Infinity;
  const windowMs = Math.max(0, Math.min(UNDO_MS, closeAt - now()));
  const endsAt = Date.now() + windowMs;
  const verb = action === 'approve' ? 'Approving' : 'Rejecting';
  const text = document.createElement('span');
  const undo = document.createElement('button');
  undo.type = 'button';
  undo.textContent = 'Undo';
  undo.dataset.undo = nodeId;
  container.replaceChildren(text, undo);
  container.dataset.pendingDecision = action;
  document.documentElement.dataset.pendingDecision = nodeId;
  undo.focus();
  const tick = () => (text.textContent = `${verb} in ${Math.max(0, Math.ceil((endsAt - Date.now()) / 1000))} s… `);
  tick();
  const ticker = setInterval(tick, 250);
  const finish = () => {
    clearInterval(ticker);
    clearTimeout(timer);
    delete container.dataset.pendingDecision;
    delete document.documentElement.dataset.pendingDecision;
  };
  const decide = async () => {
    finish();
    text.textContent = `${verb}…`;
    undo.remove();
    const r = await send({ action, nodeId });
    say(status, r.ok ? `${action === 'approve' ? 'Approved' : 'Rejected'}.` : r.message, r.ok ? 'ok' : 'error');
    container.dataset.decided = r.ok ? action : 'failed';
    if (!r.ok) container.replaceChildren(...original);
  };
  const timer = setTimeout(() => void decide(), windowMs);
  undo.addEventListener('click', () => {
    finish();
    container.replaceChildren(...original);
    say(status, 'Not sent: the decision was undone.');
    container.querySelector<HTMLElement>(`button[data-action="${action}"]`)?.focus();
  });
}

/** Every element with a deadline: a countdown message 10 s before the timeout; decisions closed 2 s before it. */
function tickCountdowns(now: () => number): void {
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-deadline]'))) {
    const deadline = Number(el.dataset.deadline);
    if (!el.dataset.deadline || !Number.isFinite(deadline)) continue;
    const left = deadline - now();
    const counter = el.querySelector<HTMLElement>('[data-countdown]');
    if (counter) {
      const s = Math.max(0, Math.ceil(left / 1000));
      const closing = left <= COUNTDOWN_FROM_MS;
      counter.classList.toggle('closing', closing);
      counter.textContent = left <= 0 ? '(timed out)' : closing ? `Decisions close in ${Math.max(0, s - 2)} s` : `(${formatLeft(s)} left)`;
    }
    const closed = left <= CLOSE_BEFORE_MS;
    for (const b of Array.from(el.querySelectorAll<HTMLButtonElement>('button[data-action="approve"], button[data-action="reject"]'))) b.disabled = closed;
  }
}

function formatLeft(s: number): string {
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s % 60} s` : `${s} s`;
}

/** Every `[data-since]` shows how long it has lasted; every `[data-until]` wait how long until it resumes. */
function tickDurations(now: () => number): void {
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-since]'))) {
    const since = Number(el.dataset.since);
    if (Number.isFinite(since) && since > 0) el.textContent = formatLeft(Math.max(0, Math.floor((now() - since) / 1000)));
  }
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-until]'))) {
    const until = Number(el.dataset.until);
    const left = el.querySelector<HTMLElement>('[data-until-left]');
    if (!left || !Number.isFinite(until)) continue;
    const s = Math.ceil((until - now()) / 1000);
    left.textContent = s > 0 ? `(in ${formatLeft(s)})` : '(due now)';
  }
}

/**
 * A drawing in its box (contract 17): at first the whole machine, scaled down to the box's width (CSS), never wider;
 * the buttons zoom in and out from there and Fit goes back; a mouse drags it around (touch scrolls natively), and
 * Ctrl + wheel zooms. `data-current-node` names the node to open on: the box scrolls to centre it.
 */
function initDiagram(box: HTMLElement): void {
  let zoom = 1;
  const tools = box.previousElementSibling instanceof HTMLElement && box.previousElementSibling.hasAttribute('data-diagram-tools') ? box.previousElementSibling : null;
  const svg = () => box.querySelector<SVGSVGElement>(':scope > svg');
  /** The drawing's own width (its viewBox): zoom 1 is the smaller of it and the box. */
  const natural = () => svg()?.viewBox.baseVal?.width || Number(svg()?.getAttribute('width')) || box.clientWidth;
  const apply = () => {
    const el = svg();
    if (!el) return;
    box.dataset.zoom = zoom.toFixed(2);
    if (zoom === 1) {
      box.classList.remove('zoomed');
      el.style.removeProperty('width');
      return;
    }
    box.classList.add('zoomed');
    el.style.width = `${Math.round(Math.min(natural(), box.clientWidth) * zoom)}px`;
  };
  const zoomBy = (factor: number, at?: { x: number; y: number }) => {
    const before = { left: box.scrollLeft, top: box.scrollTop, w: box.scrollWidth, h: box.scrollHeight };
    const point = at ?? { x: box.clientWidth / 2, y: box.clientHeight / 2 };
    zoom = Math.min(8, Math.max(1, zoom * factor));
    apply();
    // Keep the point under the pointer (or the box's centre) where it was.
    const kx = box.scrollWidth / Math.max(1, before.w);
    const ky = box.scrollHeight / Math.max(1, before.h);
    box.scrollLeft = (before.left + point.x) * kx - point.x;
    box.scrollTop = (before.top + point.y) * ky - point.y;
  };
  tools?.addEventListener('click', (e) => {
    const b = (e.target as Element).closest<HTMLButtonElement>('button[data-zoom]');
    if (!b) return;
    if (b.dataset.zoom === 'in') zoomBy(1.25);
    else if (b.dataset.zoom === 'out') zoomBy(0.8);
    else {
      zoom = 1;
      apply();
      centre();
    }
  });
  box.addEventListener(
    'wheel',
    (e) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const r = box.getBoundingClientRect();
      zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15, { x: e.clientX - r.left, y: e.clientY - r.top });
    },
    { passive: false },
  );
  let drag: { x: number; y: number; left: number; top: number; moved: boolean } | null = null;
  box.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'mouse' || e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop, moved: false };
  });
  box.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    if (!drag.moved) box.setPointerCapture(e.pointerId);
    drag.moved = true;
    box.classList.add('panning');
    box.scrollLeft = drag.left - dx;
    box.scrollTop = drag.top - dy;
  });
  const endDrag = () => {
    drag = null;
    box.classList.remove('panning');
  };
  box.addEventListener('pointerup', endDrag);
  box.addEventListener('pointercancel', endDrag);
  /** Scrolls the box (not the page) so the current node is in its middle. */
  function centre(): void {
    const id = box.dataset.currentNode;
    if (!id) return;
    const node = svg()?.querySelector<SVGGElement>(`[data-node-id="${CSS.escape(id)}"]`);
    if (!node) return;
    node.classList.add('node-current');
    const n = node.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    box.scrollTop += n.top + n.height / 2 - (b.top + box.clientHeight / 2);
    box.scrollLeft += n.left + n.width / 2 - (b.left + box.clientWidth / 2);
  }
  // The editor swaps the drawing on every change: the new one keeps the zoom.
  new MutationObserver(() => apply()).observe(box, { childList: true });
  // A live order moved on: open on where it is now.
  box.addEventListener('recentre', () => {
    svg()?.querySelector('.node-current')?.classList.remove('node-current');
    centre();
  });
  apply();
  centre();
  box.dataset.diagramReady = 'true';
}

/** Applies a live state to the drawing and header without a reload. */
function applyState(root: HTMLElement, state: unknown): void {
  if (!isWireObject(state)) return;
  const orderStatus = String(state.status);
  root.dataset.orderStatus = orderStatus;
  const status = root.querySelector('[data-live="status"]');
  if (status) {
    const badge = document.createElement('span');
    badge.className = `status status-${orderStatus.replace(/[^a-z_]/g, '')}`;
    badge.textContent = orderStatus.replace(/_/g, ' ');
    status.replaceChildren(badge);
  }
  const reason = root.querySelector('[data-live="reason"]');
  if (reason) reason.textContent = typeof state.reason === 'string' ? state.reason : '';
  const svg = root.querySelector('[data-order-diagram] svg');
  if (!svg) return;
  for (const [id, node] of Object.entries(isWireObject(state.nodes) ? state.nodes : {})) {
    if (!isWireObject(node)) continue;
    const nodeStatus = String(node.status);
    const g = svg.querySelector(`[data-node-id="${CSS.escape(id)}"]`);
    if (!g || g.getAttribute('data-node-status') === nodeStatus) continue;
    g.setAttribute('data-node-status', nodeStatus);
    const text = g.querySelector('.node-status');
    if (text) text.textContent = nodeStatus;
    const label = g.getAttribute('aria-label') ?? '';
    g.setAttribute('aria-label', `${label.replace(/: [a-z_]+$/, '')}: ${nodeStatus}`);
  }
  for (const edge of Array.isArray(state.edges) ? (state.edges as unknown[]) : []) {
    if (!isWireObject(edge)) continue;
    const g = svg.querySelector(`[data-edge-from="${CSS.escape(String(edge.from))}"][data-edge-to="${CSS.escape(String(edge.to))}"][data-edge-branch="${CSS.escape(String(edge.branch))}"]`);
    if (g) g.setAttribute('data-edge-status', String(edge.status));
  }
  // Where the order is now (waiting, else running, else failed): the drawing opens on it.
  const box = root.querySelector<HTMLElement>('[data-order-diagram]');
  const at = (status: string) => svg.querySelector(`[data-node-status="${status}"]`)?.getAttribute('data-node-id') ?? null;
  const current = at('waiting') ?? at('running') ?? at('failed') ?? '';
  if (box && box.dataset.currentNode !== current) {
    box.dataset.currentNode = current;
    box.dispatchEvent(new CustomEvent('recentre'));
  }
}

/** Re-reads the page's live sections (waits, lines, payouts, documents, timeline) and swaps them in, keeping held decisions. */
async function refreshSections(root: HTMLElement, orderId: string, held: Map<string, HTMLElement>): Promise<void> {
  const res = await fetch(`/orders/${encodeURIComponent(orderId)}/live`, { headers: { accept: 'text/html' }, credentials: 'same-origin' });
  if (!res.ok) return;
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  const now = doc.querySelector('[data-server-now]')?.getAttribute('data-server-now');
  if (now) root.dataset.serverNow = now;
  for (const fresh of Array.from(doc.querySelectorAll('[data-live-section]'))) {
    const name = fresh.getAttribute('data-live-section');
    const target = root.querySelector(`[data-live-section="${CSS.escape(name ?? '')}"]`);
    if (!target) continue;
    target.replaceChildren(...Array.from(fresh.childNodes).map((n) => document.importNode(n, true)));
  }
  // A decision still inside its undo window keeps its Undo button across the refresh.
  for (const [nodeId, container] of held) {
    if (!container.dataset.pendingDecision) {
      held.delete(nodeId);
      continue;
    }
    const replacement = root.querySelector(`[data-decision-for="${CSS.escape(nodeId)}"]`);
    replacement?.replaceWith(container);
  }
  if (!root.querySelector('[data-wait-node]')) root.querySelector('[data-cancel-section]')?.toggleAttribute('hidden', ['completed', 'failed', 'rolled_back', 'cancelled', 'declined'].includes(root.dataset.orderStatus ?? ''));
}

function initOrderPage(root: HTMLElement): void {
  const orderId = root.dataset.orderId ?? '';
  const connection = root.querySelector('[data-connection]');
  const status = root.querySelector('[data-action-status]');
  const pending = new Map<string, (r: { ok: boolean; message: string }) => void>();
  const held = new Map<string, HTMLElement>();
  let ws: WebSocket | null = null;
  let retry = 500;
  const send = sender(() => ws, pending);
  const now = () => serverClock(root)();

  const connect = () => {
    ws = new WebSocket(socketUrl(orderId));
    ws.addEventListener('open', () => {
      retry = 500;
      if (connection) connection.textContent = 'Live: updates appear as they happen.';
      root.dataset.live = 'open';
    });
    ws.addEventListener('message', (e) => {
      let msg: unknown;
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (isWireObject(msg) && msg.type === 'state') {
        applyState(root, msg.state);
        void refreshSections(root, orderId, held).then(() => {
          root.dataset.stateVersion = String(Number(root.dataset.stateVersion ?? '0') + 1);
          tickCountdowns(now);
          tickDurations(now);
        });
      } else answer(msg, pending);
    });
    ws.addEventListener('close', (e) => {
      root.dataset.live = 'closed';
      for (const [, done] of pending) done({ ok: false, message: 'The connection closed; try again.' });
      pending.clear();
      if (e.code === 4401 || e.code === 4403) {
        if (connection) connection.textContent = 'Live updates stopped: sign in again.';
        return;
      }
      if (connection) connection.textContent = 'Reconnecting…';
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 15_000);
    });
  };
  connect();

  const onClick = async (e: MouseEvent) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('button[data-action]');
    if (!button || button.disabled) return;
    const action = button.dataset.action;
    if (action === 'approve' || action === 'reject') {
      const container = button.closest<HTMLElement>('[data-decision-for]');
      const wait = button.closest<HTMLElement>('[data-deadline]');
      if (!container) return;
      held.set(button.dataset.node ?? '', container);
      holdDecision(container, button.dataset.node ?? '', action, now, wait?.dataset.deadline ? Number(wait.dataset.deadline) : null, send, status);
    } else if (action === 'deliver_event') {
      button.disabled = true;
      const payload: unknown = JSON.parse(button.dataset.payload ?? '{}');
      const r = await send({ action: 'deliver_event', event: button.dataset.event, payload });
      say(status, r.ok ? `Event ${button.dataset.event} sent.` : r.message, r.ok ? 'ok' : 'error');
      button.disabled = false;
    } else if (action === 'retry_hold' || action === 'rollback_hold') {
      // A held step (contract 16): the buttons stay disabled until the answer; the live state then redraws the section.
      const nodeId = button.dataset.node ?? '';
      const buttons = Array.from(root.querySelectorAll<HTMLButtonElement>(`[data-hold-node="${CSS.escape(nodeId)}"] button`));
      for (const b of buttons) b.disabled = true;
      const r = await send({ action, nodeId });
      say(status, r.ok ? (action === 'retry_hold' ? `Retrying ${nodeId}.` : `Rolling back from ${nodeId}.`) : r.message, r.ok ? 'ok' : 'error');
      if (!r.ok) for (const b of buttons) b.disabled = false;
    } else if (action === 'rollback_hold-start' || action === 'rollback_hold-keep') {
      const nodeId = button.dataset.node ?? '';
      const confirm = root.querySelector<HTMLElement>(`[data-hold-confirm="${CSS.escape(nodeId)}"]`);
      confirm?.toggleAttribute('hidden', action === 'rollback_hold-keep');
      if (action === 'rollback_hold-start') confirm?.querySelector<HTMLElement>('button[data-action="rollback_hold"]')?.focus();
    } else if (action === 'cancel-start') {
      root.querySelector<HTMLElement>('[data-cancel-confirm]')?.removeAttribute('hidden');
      root.querySelector<HTMLElement>('#cancel-reason')?.focus();
    } else if (action === 'cancel-keep') {
      root.querySelector<HTMLElement>('[data-cancel-confirm]')?.setAttribute('hidden', '');
    } else if (action === 'cancel') {
      const reason = root.querySelector<HTMLInputElement>('#cancel-reason')?.value.trim();
      const r = await send({ action: 'cancel', ...(reason ? { reason } : {}) });
      say(status, r.ok ? 'The order was cancelled.' : r.message, r.ok ? 'ok' : 'error');
      if (r.ok) root.querySelector<HTMLElement>('[data-cancel-confirm]')?.setAttribute('hidden', '');
    }
  };
  root.addEventListener('click', (e) => void onClick(e));
  setInterval(() => {
    tickCountdowns(now);
    tickDurations(now);
  }, 1000);
  tickCountdowns(now);
  tickDurations(now);
}

/** The inbox: each decision is held for the undo window, then sent over the order's socket, opened for that one action. */
function initApprovals(root: HTMLElement): void {
  const status = root.querySelector('[data-action-status]');
  const now = serverClock(root);
  const sendTo = (orderId: string): Send => (action) =>
    new Promise((resolve) => {
      const ws = new WebSocket(socketUrl(orderId));
      const pending = new Map<string, (r: { ok: boolean; message: string }) => void>();
      const send = sender(() => ws, pending);
      ws.addEventListener('open', () => void send(action).then((r) => (resolve(r), ws.close())));
      ws.addEventListener('message', (e) => {
        try {
          answer(JSON.parse(String(e.data)), pending);
        } catch {
          /* not JSON */
        }
      });
      ws.addEventListener('close', () => resolve({ ok: false, message: 'The connection closed; try again.' }));
    });
  root.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('button[data-action="approve"], button[data-action="reject"]');
    if (!button || button.disabled) return;
    const row = button.closest<HTMLElement>('[data-approval-order]');
    const container = button.closest<HTMLElement>('[data-decision-for]');
    if (!row || !container) return;
    const orderId = row.dataset.approvalOrder ?? '';
    const action = button.dataset.action as 'approve' | 'reject';
    holdDecision(container, row.dataset.approvalNode ?? '', action, now, row.dataset.deadline ? Number(row.dataset.deadline) : null, async (a) => {
      const r = await sendTo(orderId)(a);
      if (r.ok) {
        row.dataset.approvalOutcome = action === 'approve' ? 'approved' : 'rejected';
        container.replaceChildren(document.createTextNode(action === 'approve' ? 'Approved' : 'Rejected'));
      }
      return r;
    }, status);
  });
  setInterval(() => tickCountdowns(now), 1000);
  tickCountdowns(now);
}

/** Flow drawings: a node's catalogue entry on click, Enter or Space. */
function initFlowPage(root: HTMLElement): void {
  const shown = document.querySelector('[data-node-info-shown]');
  const show = (target: EventTarget | null) => {
    const g = (target as Element | null)?.closest?.('[data-node-id]');
    const id = g?.getAttribute('data-node-id');
    const info = id ? document.querySelector(`[data-node-info="${CSS.escape(id)}"]`) : null;
    if (shown && info) shown.replaceChildren(...Array.from(info.childNodes).map((n) => n.cloneNode(true)));
  };
  root.addEventListener('click', (e) => show(e.target));
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      show(e.target);
      e.preventDefault();
    }
  });
}

/**
 * The draft editor: every change is checked by the API (nothing saved) and the drawing and problems are redrawn.
 * Past the caller's new-drawing limit (429, contract 13) the change is checked without a drawing (never limited),
 * the last drawing stays, and the drawing is asked again when Retry-After has passed.
 */
function initFlowEditor(form: HTMLFormElement): void {
  const flowId = form.dataset.flowId ?? '';
  const input = form.querySelector<HTMLTextAreaElement>('[data-graph-input]');
  const name = form.querySelector<HTMLInputElement>('#name');
  const state = form.querySelector<HTMLElement>('[data-check-state]');
  const list = form.querySelector<HTMLElement>('[data-problems]');
  const diagram = form.querySelector<HTMLElement>('[data-editor-diagram]');
  const publish = form.querySelector<HTMLButtonElement>('[data-publish]');
  if (!input || !state || !list || !diagram) return;
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let redraw: ReturnType<typeof setTimeout> | undefined;
  const item = (nodeId: string, message: string) => {
    const li = document.createElement('li');
    li.dataset.problemNode = nodeId;
    if (nodeId) {
      const code = document.createElement('code');
      code.textContent = nodeId;
      li.append(code, ': ');
    }
    li.append(message);
    return li;
  };
  /** `isGraph`: the text is a graph the API checked; `svg`: its drawing, or null to keep the last one. */
  const show = (n: number, text: string, problems: { nodeId?: string; message: string }[], isGraph: boolean, svg: string | null) => {
    if (n !== asked) return; // a newer change is on its way
    state.textContent = text;
    list.replaceChildren(...problems.map((p) => item(p.nodeId ?? '', p.message)));
    if (svg !== null) {
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      diagram.replaceChildren(document.importNode(doc.documentElement, true));
    }
    if (publish) publish.disabled = problems.length > 0 || !isGraph;
    form.dataset.checked = String(n);
  };
  const ask = (graph: unknown, drawing: boolean) =>
    fetch(`/api/v1/flows/${encodeURIComponent(flowId)}/validate`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ...(name?.value.trim() ? { name: name.value.trim() } : {}), graph, drawing }),
    });
  const check = async () => {
    const n = ++asked;
    clearTimeout(redraw);
    let graph: unknown;
    try {
      graph = JSON.parse(input.value);
    } catch (err) {
      return show(n, `Not JSON yet: ${(err as Error).message}`, [], false, null);
    }
    try {
      let res = await ask(graph, true);
      let paused = 0;
      if (res.status === 429) {
        paused = Math.max(1, Number(res.headers.get('retry-after')) || 10);
        res = await ask(graph, false);
      }
      const answer: unknown = await res.json();
      if (!res.ok) {
        // The API's error body (`error`, and `issues` for an invalid request).
        const failed = answer as ApiError;
        return show(n, `Not a graph: ${failed.error ?? res.status}`, (failed.issues ?? []).map((i) => ({ message: `${i.path}: ${i.message}` })), false, null);
      }
      // A 200 answer is checkFlowDraft's output (its schema is the API's documented contract).
      const body = answer as DraftCheck;
      const count = body.problems.length;
      const summary = count ? `${count} problem${count === 1 ? '' : 's'}: publishing is blocked until they are fixed.` : 'No problems: ready to publish.';
      show(n, paused ? `${summary} Drawing paused (many new drawings): redrawn in ${paused} s.` : summary, body.problems, true, body.svg ?? null);
      if (paused && n === asked) redraw = setTimeout(() => void check(), paused * 1000);
    } catch {
      show(n, 'Could not check the graph (connection lost); it is checked again on the next change.', [], false, null);
    }
  };
  // A short pause after typing before checking, so each keystroke does not send a request.
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void check(), 250);
  };
  const policy = initStepPolicy(form, input);
  input.addEventListener('input', soon);
  input.addEventListener('input', policy);
  name?.addEventListener('input', soon);
}

/**
 * The editor's on-failure form (contract 16): one choice per step node of the graph text, Roll back (the default) or
 * Hold. A choice rewrites the step's `onFailure` param in the text, which is then checked like any edit. Redrawn from
 * the text whenever it parses; returns that redraw.
 */
function initStepPolicy(form: HTMLFormElement, input: HTMLTextAreaElement): () => void {
  const box = form.querySelector<HTMLElement>('[data-step-policy]');
  const rows = box?.querySelector<HTMLElement>('[data-step-policy-rows]');
  if (!box || !rows) return () => undefined;
  const stepTypes = new Set((box.dataset.stepTypes ?? '').split(' ').filter(Boolean));
  const stepsOf = (graph: unknown): WireObject[] => {
    const nodes = isWireObject(graph) && Array.isArray(graph.nodes) ? (graph.nodes as unknown[]) : [];
    return nodes.filter((n): n is WireObject => isWireObject(n) && typeof n.id === 'string' && typeof n.type === 'string' && stepTypes.has(n.type));
  };
  const redraw = () => {
    let graph: unknown;
    try {
      graph = JSON.parse(input.value);
    } catch {
      return; // the last form stays until the text parses again
    }
    const steps = stepsOf(graph);
    // The choice just made keeps the focus across the redraw it caused.
    const focused = rows.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.onFailureNode : undefined;
    if (steps.length === 0) return rows.replaceChildren(Object.assign(document.createElement('p'), { className: 'hint', textContent: 'No steps yet.' }));
    rows.replaceChildren(
      ...steps.map((node) => {
        const id = String(node.id);
        const row = document.createElement('div');
        row.className = 'step-policy-row';
        const label = document.createElement('label');
        label.htmlFor = `on-failure-${id}`;
        label.textContent = `${typeof node.label === 'string' && node.label ? node.label : id} (${String(node.type)})`;
        const select = document.createElement('select');
        select.id = `on-failure-${id}`;
        select.dataset.onFailureNode = id;
        for (const [value, text] of [['rollback', 'Roll back'], ['hold', 'Hold for a retry']]) select.append(new Option(text, value));
        select.value = isWireObject(node.params) && node.params.onFailure === 'hold' ? 'hold' : 'rollback';
        row.append(label, select);
        return row;
      }),
    );
    if (focused) rows.querySelector<HTMLElement>(`[data-on-failure-node="${CSS.escape(focused)}"]`)?.focus();
  };
  rows.addEventListener('change', (e) => {
    const select = (e.target as Element).closest<HTMLSelectElement>('select[data-on-failure-node]');
    if (!select) return;
    let graph: unknown;
    try {
      graph = JSON.parse(input.value);
    } catch {
      return;
    }
    const node = stepsOf(graph).find((n) => n.id === select.dataset.onFailureNode);
    if (!node) return;
    const params: WireObject = isWireObject(node.params) ? { ...node.params } : {};
    // Roll back is the default: it is written by leaving the param out.
    if (select.value === 'hold') params.onFailure = 'hold';
    else delete params.onFailure;
    if (Object.keys(params).length) node.params = params;
    else delete node.params;
    input.value = JSON.stringify(graph, null, 2);
    input.dispatchEvent(new Event('input'));
  });
  redraw();
  return redraw;
}

/** A POST of JSON to the API as the signed-in person (the session cookie; same origin), answered as JSON. */
async function postJson(url: string, body?: unknown): Promise<{ status: number; body: WireObject }> {
  const res = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer: unknown = await res.json().catch(() => ({}));
  return { status: res.status, body: isWireObject(answer) ? answer : {} };
}

/** An API refusal as one line: its message, and each invalid field. */
function refusal(body: WireObject, status: number): string {
  const issues = Array.isArray(body.issues) ? (body.issues as unknown[]).filter(isWireObject).map((i) => `${String(i.path)}: ${String(i.message)}`) : [];
  return `Refused (${status}): ${typeof body.error === 'string' ? body.error : 'error'}${issues.length ? ` (${issues.join('; ')})` : ''}`;
}

/**
 * The orders list's batch panel (contract 16): every order matching the filter, or the ticked rows, counted first
 * (a dry run), then started as a batch after the person confirms the count; any change asks for a new count.
 */
function initBulk(form: HTMLFormElement): void {
  const filter: unknown = JSON.parse(form.dataset.filter ?? '{}');
  const summary = form.querySelector<HTMLElement>('[data-bulk-summary]');
  const confirm = form.querySelector<HTMLButtonElement>('[data-bulk-confirm]');
  const operation = form.querySelector<HTMLSelectElement>('[data-bulk-operation]');
  const selectedCount = form.querySelector<HTMLElement>('[data-bulk-selected]');
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value.trim() ?? '';
  const selected = () => Array.from(document.querySelectorAll<HTMLInputElement>('input[data-select-order]:checked')).map((c) => c.value);
  const scope = () => (form.querySelector<HTMLInputElement>('input[name="scope"]:checked')?.value === 'selected' ? 'selected' : 'filter');
  const showInputs = () => {
    for (const el of Array.from(form.querySelectorAll<HTMLElement>('[data-bulk-input]'))) el.hidden = el.dataset.bulkInput !== operation?.value;
  };
  const reset = () => {
    if (confirm) confirm.hidden = true;
    delete form.dataset.bulkCount;
  };
  /** The batch body the form describes, or a message saying what to fix. */
  const body = (): Record<string, unknown> | string => {
    const op = operation?.value ?? '';
    let input: Record<string, unknown> = {};
    if (op === 'cancel' && value('reason')) input = { reason: value('reason') };
    if (op === 'deliver_event') {
      let payload: unknown;
      try {
        payload = JSON.parse(value('payload') || '{}');
      } catch {
        return 'The payload is not JSON.';
      }
      input = { event: value('event'), ...(isWireObject(payload) && Object.keys(payload).length ? { payload } : {}) };
    }
    if (op === 'decide_approval') input = { decision: value('decision'), ...(value('nodeId') ? { nodeId: value('nodeId') } : {}), ...(value('note') ? { note: value('note') } : {}) };
    if (op === 'resolve_hold') input = { action: value('holdAction'), ...(value('holdNote') ? { note: value('holdNote') } : {}) };
    const ids = selected();
    if (scope() === 'selected' && ids.length === 0) return 'Select at least one row first.';
    return { operation: op, ...(scope() === 'selected' ? { orderIds: ids } : { filter }), input, ratePerSecond: Number(value('ratePerSecond')) || DEFAULT_BATCH_RATE };
  };
  form.addEventListener('input', reset);
  form.addEventListener('change', () => {
    showInputs();
    reset();
  });
  document.addEventListener('change', (e) => {
    if (!(e.target instanceof HTMLInputElement) || !e.target.matches('[data-select-order]')) return;
    if (selectedCount) selectedCount.textContent = String(selected().length);
    reset();
  });
  showInputs();
  form.querySelector('[data-bulk-count]')?.addEventListener('click', () => {
    void (async () => {
      const b = body();
      if (typeof b === 'string') return say(summary, b, 'error');
      const res = await postJson('/api/v1/batches', { ...b, dryRun: true });
      if (res.status !== 200) return say(summary, refusal(res.body, res.status), 'error');
      const count = Number(res.body.count);
      form.dataset.bulkCount = String(count);
      say(summary, count === 0 ? 'No order matches: nothing to do.' : `${count} order${count === 1 ? '' : 's'} will be processed at most ${String(b.ratePerSecond)} per second. Start?`);
      if (confirm) confirm.hidden = count === 0;
    })();
  });
  confirm?.addEventListener('click', () => {
    void (async () => {
      const b = body();
      if (typeof b === 'string') return say(summary, b, 'error');
      confirm.disabled = true;
      const res = await postJson('/api/v1/batches', b);
      confirm.disabled = false;
      const batch = isWireObject(res.body.batch) ? res.body.batch : null;
      if (res.status !== 202 || !batch) return say(summary, refusal(res.body, res.status), 'error');
      location.assign(`/batches?started=${encodeURIComponent(String(batch.id))}`);
    })();
  });
}

/** /batches: every second the API's list updates each row in place (new batches redraw the table); pause, resume and cancel. */
function initBatches(root: HTMLElement): void {
  const status = document.querySelector('[data-action-status]');
  const tbody = root.querySelector('tbody');
  const update = (row: HTMLElement, b: WireObject) => {
    const done = Number(b.done);
    const processed = done + Number(b.failed) + Number(b.skipped);
    const state = String(b.state);
    Object.assign(row.dataset, { batchState: state, batchDone: String(done), batchTotal: String(b.total), batchProcessed: String(processed) });
    const badge = row.querySelector('[data-batch-cell="state"] .status');
    if (badge) {
      badge.className = `status status-${state.replace(/[^a-z_]/g, '')}`;
      badge.textContent = state;
    }
    const bar = row.querySelector<HTMLProgressElement>('[data-batch-cell="progress"] progress');
    if (bar) {
      bar.value = processed;
      bar.setAttribute('aria-label', `${processed} of ${String(b.total)} orders processed`);
    }
    const counts = row.querySelector('[data-batch-cell="progress"] .hint');
    if (counts) counts.textContent = `${done} done, ${String(b.skipped)} skipped, ${String(b.failed)} failed of ${String(b.total)}`;
    const finished = row.querySelector('[data-batch-cell="finished"]');
    if (finished && typeof b.finishedAt === 'number') finished.textContent = new Date(b.finishedAt).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');
    const show = { pause: state === 'running', resume: state === 'paused', cancel: state === 'running' || state === 'paused' };
    for (const button of Array.from(row.querySelectorAll<HTMLButtonElement>('button[data-batch-action]')))
      button.hidden = !show[button.dataset.batchAction as keyof typeof show];
  };
  const redraw = async () => {
    const res = await fetch('/batches', { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (!res.ok || !tbody) return;
    const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('[data-batches-list] tbody');
    if (fresh) tbody.replaceChildren(...Array.from(fresh.childNodes).map((n) => document.importNode(n, true)));
    document.querySelector('[data-empty]')?.remove();
  };
  const poll = async () => {
    const res = await fetch('/api/v1/batches', { credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (!res.ok) return;
    const answer: unknown = await res.json();
    const batches = isWireObject(answer) && Array.isArray(answer.batches) ? (answer.batches as unknown[]).filter(isWireObject) : [];
    let unknown = false;
    for (const b of batches) {
      const row = root.querySelector<HTMLElement>(`[data-batch-id="${CSS.escape(String(b.id))}"]`);
      if (row) update(row, b);
      else unknown = true;
    }
    if (unknown) await redraw();
    root.dataset.polled = String(Number(root.dataset.polled ?? '0') + 1);
  };
  root.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('button[data-batch-action]');
    const row = button?.closest<HTMLElement>('[data-batch-id]');
    if (!button || !row) return;
    void (async () => {
      button.disabled = true;
      const action = button.dataset.batchAction ?? '';
      const res = await postJson(`/api/v1/batches/${encodeURIComponent(row.dataset.batchId ?? '')}/${action}`);
      button.disabled = false;
      if (res.status === 200 && isWireObject(res.body.batch)) {
        update(row, res.body.batch);
        say(status, `Batch ${row.dataset.batchId ?? ''}: ${String(res.body.batch.state)}.`);
      } else say(status, refusal(res.body, res.status), 'error');
    })();
  });
  setInterval(() => void poll().catch(() => undefined), 1000);
}

for (const box of Array.from(document.querySelectorAll<HTMLElement>('[data-diagram]'))) initDiagram(box);
const orderRoot = document.querySelector<HTMLElement>('[data-order-page]');
if (orderRoot) initOrderPage(orderRoot);
const approvalsRoot = document.querySelector<HTMLElement>('[data-approvals-page]');
if (approvalsRoot) initApprovals(approvalsRoot);
const flowRoot = document.querySelector<HTMLElement>('[data-flow-diagram-page]');
if (flowRoot) initFlowPage(flowRoot);
const editor = document.querySelector<HTMLFormElement>('form[data-flow-editor]');
if (editor) initFlowEditor(editor);
const simulatePanel = document.querySelector<HTMLElement>('[data-simulate-panel]');
if (simulatePanel) initSimulatePanel(simulatePanel);
const bulk = document.querySelector<HTMLFormElement>('form[data-bulk-form]');
if (bulk) initBulk(bulk);
for (const form of Array.from(document.querySelectorAll<HTMLFormElement>('form[data-move-form]'))) initMoveForm(form);
const batchesRoot = document.querySelector<HTMLElement>('[data-batches-list]');
if (batchesRoot) initBatches(batchesRoot);
document.documentElement.dataset.dashboardReady = 'true';
