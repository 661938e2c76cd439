// The draft editor's Simulate panel (contract 14) in the browser: runs one order through the graph as typed (POST /api/v1/flows/:id/simulate)
// and draws the run on a copy of the editor's diagram (`data-simulation`, nodes with data-node-id and data-node-status), its timeline beside it.
import type { OperationOutput } from '../../../application/operation-types.js';

type Simulation = OperationOutput<'simulateFlow'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function say(el: HTMLElement | null, text: string, kind: 'ok' | 'error' = 'ok'): void {
  if (!el) return;
  el.textContent = text;
  el.classList.toggle('error', kind === 'error');
  el.classList.toggle('ok', kind === 'ok');
}

/** JSON typed into a box, or the reason it is not. */
function parsed(box: HTMLTextAreaElement | null, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(box?.value ?? '') };
  } catch (err) {
    return { ok: false, message: `The ${what} is not JSON: ${(err as Error).message}` };
  }
}

/** An API refusal as one line: its message, and each invalid field. */
function refusal(body: unknown, status: number): string {
  const b = isObject(body) ? body : {};
  const issues = Array.isArray(b.issues) ? (b.issues as unknown[]).filter(isObject).map((i) => `${String(i.path)}: ${String(i.message)}`) : [];
  return `Refused (${status}): ${typeof b.error === 'string' ? b.error : 'error'}${issues.length ? ` (${issues.join('; ')})` : ''}`;
}

/** The run's node and edge statuses drawn on a copy of the editor's drawing (or a plain list when there is no drawing). */
function drawRun(target: HTMLElement, source: SVGSVGElement | null, run: Simulation): void {
  const nodes = Object.values(run.nodes);
  if (!source) {
    const list = document.createElement('ul');
    for (const n of nodes) {
      const li = document.createElement('li');
      li.dataset.nodeId = n.id;
      li.dataset.nodeStatus = n.status;
      li.textContent = `${n.label ?? n.id} (${n.id}): ${n.status}`;
      list.append(li);
    }
    target.replaceChildren(list);
    return;
  }
  const svg = source.cloneNode(true) as SVGSVGElement;
  svg.setAttribute('data-flow-diagram', 'simulation');
  for (const n of nodes) {
    const g = svg.querySelector(`[data-node-id="${CSS.escape(n.id)}"]`);
    if (!g) continue;
    g.setAttribute('data-node-status', n.status);
    g.removeAttribute('data-problem');
    const label = g.querySelector('.node-label');
    let text = g.querySelector('.node-status');
    if (!text && label) {
      text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
      text.setAttribute('class', 'node-status');
      text.setAttribute('x', label.getAttribute('x') ?? '0');
      text.setAttribute('y', String(Number(label.getAttribute('y') ?? '0') + 13));
      text.setAttribute('text-anchor', 'middle');
      text.setAttribute('font-size', '10');
      text.setAttribute('fill', '#44505c');
      label.setAttribute('y', String(Number(label.getAttribute('y') ?? '0') - 5));
      g.append(text);
    }
    if (text) text.textContent = n.status;
    g.setAttribute('aria-label', `${(g.getAttribute('aria-label') ?? n.id).replace(/: [a-z_]+$/, '')}: ${n.status}`);
  }
  for (const e of run.edges) {
    const g = svg.querySelector(`[data-edge-from="${CSS.escape(e.from)}"][data-edge-to="${CSS.escape(e.to)}"][data-edge-branch="${CSS.escape(e.branch)}"]`);
    g?.setAttribute('data-edge-status', e.status);
  }
  target.replaceChildren(svg);
}

function fact(list: HTMLElement, term: string, value: string, mark?: string): void {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  if (mark) dd.dataset[mark] = value;
  list.append(dt, dd);
}

/** The summary and timeline of a run. */
function describeRun(panel: HTMLElement, run: Simulation): void {
  const summary = panel.querySelector<HTMLElement>('[data-sim-summary]');
  if (summary) {
    summary.replaceChildren();
    fact(summary, 'Status', run.status.replace('_', ' '), 'simStatus');
    if (run.reason) fact(summary, 'Reason', run.reason);
    if (run.rollback) fact(summary, 'Rollback', `${run.rollback.outcome}${run.rollback.error ? `: ${run.rollback.error}` : ''}`);
    fact(summary, 'Path', run.path.join(' → '), 'simPath');
    fact(summary, 'Script', `${run.scriptUsed} entr${run.scriptUsed === 1 ? 'y' : 'ies'} used`);
    if (run.waits.length) fact(summary, 'Waits for', run.waits.map((w) => w.title ?? w.nodeId).join('; '));
    if (run.events.length) fact(summary, 'Would send', run.events.map((e) => e.event).join(', '));
    if (run.calls.length) fact(summary, 'Would call', run.calls.map((c) => `${c.method} ${c.url} → ${c.status}`).join('; '));
    summary.hidden = false;
  }
  const timeline = panel.querySelector<HTMLElement>('[data-sim-timeline]');
  if (timeline) {
    const start = run.createdAt;
    timeline.replaceChildren(
      ...run.timeline.map((entry) => {
        const li = document.createElement('li');
        li.dataset.timelineKind = entry.kind;
        const time = document.createElement('time');
        const after = entry.at - (typeof start === 'number' ? start : entry.at);
        time.textContent = after <= 0 ? 'at the start' : `+${formatSpan(after)}`;
        li.append(time, entry.message);
        return li;
      }),
    );
  }
}

function formatSpan(ms: number): string {
  const s = Math.round(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d} d${h ? ` ${h} h` : ''}` : h ? `${h} h${m ? ` ${m} min` : ''}` : m ? `${m} min` : `${s} s`;
}

/** Rebuilds the fail-steps checkboxes from the graph as typed (keeping what was ticked). */
function followGraph(panel: HTMLElement, graphBox: HTMLTextAreaElement): void {
  const list = panel.querySelector<HTMLElement>('[data-sim-fail-list]');
  if (!list) return;
  const stepTypes = new Set<string>(JSON.parse(panel.dataset.stepTypes ?? '[]') as string[]);
  let graph: unknown;
  try {
    graph = JSON.parse(graphBox.value);
  } catch {
    return;
  }
  const nodes = isObject(graph) && Array.isArray(graph.nodes) ? graph.nodes.filter(isObject) : [];
  const ticked = new Set(Array.from(list.querySelectorAll<HTMLInputElement>('input[data-sim-fail-step]:checked')).map((c) => c.value));
  const boxes = nodes
    .filter((n) => typeof n.id === 'string' && typeof n.type === 'string' && stepTypes.has(n.type))
    .map((n) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = String(n.id);
      box.dataset.simFailStep = '';
      box.checked = ticked.has(box.value);
      const code = document.createElement('code');
      code.textContent = String(n.id);
      label.append(box, ` ${typeof n.label === 'string' ? n.label : String(n.id)} `, code);
      return label;
    });
  if (boxes.length) list.replaceChildren(...boxes);
  else {
    const none = document.createElement('span');
    none.className = 'hint';
    none.textContent = 'No steps in this graph.';
    list.replaceChildren(none);
  }
}

export function initSimulatePanel(panel: HTMLElement): void {
  const flowId = panel.dataset.flowId ?? '';
  const state = panel.querySelector<HTMLElement>('[data-sim-state]');
  const inputBox = panel.querySelector<HTMLTextAreaElement>('[data-sim-input]');
  const scriptBox = panel.querySelector<HTMLTextAreaElement>('[data-sim-script]');
  const graphBox = document.querySelector<HTMLTextAreaElement>('[data-graph-input]');
  const target = panel.querySelector<HTMLElement>('[data-simulation]');
  const run = panel.querySelector<HTMLButtonElement>('[data-sim-run]');
  let followTimer: ReturnType<typeof setTimeout> | undefined;
  graphBox?.addEventListener('input', () => {
    clearTimeout(followTimer);
    followTimer = setTimeout(() => followGraph(panel, graphBox), 300);
  });

  panel.querySelector('[data-sim-copy-button]')?.addEventListener('click', () => {
    void (async () => {
      const id = panel.querySelector<HTMLSelectElement>('[data-sim-copy]')?.value ?? '';
      if (!id || !inputBox) return say(state, 'Choose an order to copy its input from.', 'error');
      const res = await fetch(`/api/v1/orders/${encodeURIComponent(id)}`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
      const body: unknown = await res.json().catch(() => ({}));
      const input = isObject(body) && isObject(body.order) ? body.order.input : undefined;
      if (!res.ok || !isObject(input)) return say(state, refusal(body, res.status), 'error');
      inputBox.value = JSON.stringify(input, null, 2);
      say(state, `Copied the input of ${id}.`);
    })();
  });

  run?.addEventListener('click', () => {
    void (async () => {
      const input = parsed(inputBox, 'sample input');
      if (!input.ok) return say(state, input.message, 'error');
      const script = parsed(scriptBox, 'script');
      if (!script.ok) return say(state, script.message, 'error');
      const graph = graphBox ? parsed(graphBox, 'graph') : null;
      if (graph && !graph.ok) return say(state, graph.message, 'error');
      const failSteps = Array.from(panel.querySelectorAll<HTMLInputElement>('input[data-sim-fail-step]:checked')).map((c) => c.value);
      run.disabled = true;
      say(state, 'Simulating…');
      try {
        const res = await fetch(`/api/v1/flows/${encodeURIComponent(flowId)}/simulate`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ ...(graph ? { graph: graph.value } : {}), input: input.value, script: script.value, ...(failSteps.length ? { failSteps } : {}) }),
        });
        const body: unknown = await res.json().catch(() => ({}));
        if (!res.ok) {
          say(state, res.status === 429 ? `${refusal(body, res.status)} Try again in ${res.headers.get('retry-after') ?? 'a few'} s.` : refusal(body, res.status), 'error');
          return;
        }
        // A 200 answer is simulateFlow's output (its schema is the API's documented contract).
        const answer = body as Simulation;
        if (target) {
          drawRun(target, document.querySelector<SVGSVGElement>('[data-editor-diagram] svg'), answer);
          target.hidden = false;
        }
        describeRun(panel, answer);
        say(state, `Simulated: ${answer.status.replace('_', ' ')}${answer.reason ? ` (${answer.reason})` : ''}. Nothing was kept.`);
        panel.dataset.simulated = String(Number(panel.dataset.simulated ?? '0') + 1);
      } catch {
        say(state, 'Could not simulate (connection lost); try again.', 'error');
      } finally {
        run.disabled = false;
      }
    })();
  });
}
