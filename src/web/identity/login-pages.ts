// The sign-in pages: password step (`/login`) and code step (`/login/two-factor`).
import { html, notice, page } from '../../transport/html.js';

/** Disables the submit button once pressed (no double sign-in); carries the response's CSP nonce. */
const SUBMIT_ONCE = `document.querySelectorAll('form[data-submit-once]').forEach(function (f) {
  f.addEventListener('submit', function () { var b = f.querySelector('button[type=submit]'); if (b) { setTimeout(function () { b.disabled = true; }, 0); } });
});`;

export function loginPage(o: { nonce: string; next: string | null; error?: string | null; email?: string }): string {
  return page({
    title: 'Sign in',
    nonce: o.nonce,
    script: SUBMIT_ONCE,
    body: html`${notice('error', o.error)}
<form method="post" action="/login" data-submit-once>
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" value="${o.email ?? ''}" aria-describedby="email-hint">
  <p class="hint" id="email-hint">Leave the email empty to sign in with the workspace password.</p>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  ${o.next ? html`<input type="hidden" name="next" value="${o.next}">` : ''}
  <button type="submit">Sign in</button>
</form>`,
  });
}

export function twoFactorPage(o: { nonce: string; error?: string | null }): string {
  return page({
    title: 'Two-factor sign-in',
    nonce: o.nonce,
    script: SUBMIT_ONCE,
    body: html`${notice('error', o.error)}
<form method="post" action="/login/two-factor" data-submit-once>
  <label for="code">Code from your authenticator app</label>
  <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required aria-describedby="code-hint">
  <p class="hint" id="code-hint">Or enter one of your recovery codes (xxxxx-xxxxx). You have 10 minutes from entering your password.</p>
  <button type="submit">Continue</button>
</form>
<p><a href="/login">Start again</a></p>`,
  });
}
