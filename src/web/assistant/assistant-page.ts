// The /assistant page: a conversation with the assistant, kept live over its socket; proposals confirmed from the page.
import type { Principal } from '../../auth/principal.js';
import { html, page } from '../../transport/html.js';
import { PERSON_ONLY_MESSAGE } from './assistant-socket.js';

export function assistantPage(o: { nonce: string; principal: Principal; name: string }): string {
  // The socket refuses a principal that is not a person (the workspace password): say why instead of opening it.
  if (o.principal.kind !== 'person')
    return page({
      title: 'Assistant',
      nonce: o.nonce,
      principal: o.principal,
      body: html`<section data-assistant-unavailable="person-only">
<p role="status">${PERSON_ONLY_MESSAGE}.</p>
<p class="hint">You are signed in as ${o.principal.actor}. An admin adds people on the <a href="/team">Team page</a>; then sign out and sign in with that account.</p>
</section>`,
    });
  return page({
    title: 'Assistant',
    nonce: o.nonce,
    principal: o.principal,
    body: html`<section data-assistant data-conversation="${o.name}" aria-live="polite">
<p class="hint">Ask about orders, approvals, stock and flows in plain words ("what needs attention?", "why is order ord_… waiting?").
Actions are proposed first and run only when you confirm them, as you.</p>
<ol data-turns></ol>
<p data-assistant-status role="status">Connecting…</p>
<form data-ask>
  <label for="question">Your question</label>
  <input id="question" name="question" type="text" autocomplete="off" maxlength="4000" required>
  <button type="submit">Ask</button>
</form>
</section>
<script type="module" src="/assets/assistant.js"></script>`,
  });
}
