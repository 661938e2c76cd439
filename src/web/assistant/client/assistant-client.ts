// The assistant page in the browser: the conversation over /agents/assistant-agent/<name>, proposals confirmed or dropped.
interface Turn {
  taskId: string;
  question: string;
  answer: string;
  state: string;
  proposal: { skill: string; input: Record<string, unknown> } | null;
}

const root = document.querySelector<HTMLElement>('[data-assistant]');
if (root) {
  const name = root.dataset.conversation ?? 'default';
  const list = root.querySelector<HTMLOListElement>('[data-turns]')!;
  const status = root.querySelector<HTMLElement>('[data-assistant-status]')!;
  const form = root.querySelector<HTMLFormElement>('[data-ask]')!;
  const input = form.querySelector<HTMLInputElement>('input[name="question"]')!;
  const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/agents/assistant-agent/${encodeURIComponent(name)}`);

  /** One turn as a list item (replacing the same task's earlier item): the question, the answer, confirm buttons while it waits. */
  const render = (turn: Turn) => {
    const item = document.createElement('li');
    item.dataset.turn = turn.taskId;
    item.dataset.turnState = turn.state;
    const q = document.createElement('p');
    q.className = 'question';
    q.textContent = turn.question;
    const a = document.createElement('p');
    a.className = 'answer';
    a.dataset.answer = '';
    a.textContent = turn.answer;
    item.append(q, a);
    if (turn.proposal) {
      for (const [label, confirm] of [['Confirm', true], ['Drop', false]] as const) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = label;
        button.dataset.confirm = String(confirm);
        button.addEventListener('click', () => {
          item.querySelectorAll('button').forEach((b) => (b.disabled = true));
          socket.send(JSON.stringify({ type: 'confirm', taskId: turn.taskId, confirm }));
        });
        item.append(button);
      }
    }
    const earlier = list.querySelector(`[data-turn="${CSS.escape(turn.taskId)}"]`);
    if (earlier) earlier.replaceWith(item);
    else list.append(item);
  };

  let opened = false;
  socket.addEventListener('open', () => {
    opened = true;
    status.textContent = 'Connected.';
  });
  // The reason is shown as the server gave it; a refused upgrade reaches a browser without its answer, so the
  // usual causes are named instead.
  socket.addEventListener('close', (event) => {
    root.dataset.closed = String(event.code);
    status.textContent = event.reason
      ? `Disconnected: ${event.reason}. Reload the page to continue.`
      : opened
        ? 'Disconnected: reload the page to continue.'
        : 'Could not connect: your session may have ended, or too many assistant and order pages are open (20 at most). Close some and reload the page.';
  });
  socket.addEventListener('message', (event) => {
    const m = JSON.parse(String(event.data)) as { type: string; turns?: Turn[]; turn?: Turn; error?: string };
    if (m.type === 'history') m.turns?.forEach(render);
    else if (m.type === 'turn' && m.turn) render(m.turn);
    else if (m.type === 'error') status.textContent = m.error ?? 'Something went wrong.';
    if (m.type !== 'error') status.textContent = 'Connected.';
    root.dataset.ready = 'true';
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || socket.readyState !== WebSocket.OPEN) return;
    status.textContent = 'Thinking…';
    socket.send(JSON.stringify({ type: 'ask', text }));
    input.value = '';
  });
}
