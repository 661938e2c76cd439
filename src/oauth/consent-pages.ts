// The consent pages of connected apps (contract section 12): sign in with your own account, two-factor, then consent.
import type { Role } from '../auth/roles.js';
import { html, notice, page } from '../transport/html.js';

/** What every step says about the request: which app wants what. */
export interface ConsentSubject {
  nonce: string;
  uid: string;
  appName: string;
  /** The endpoint's address (BASE_URL/mcp or BASE_URL/a2a). */
  endpoint: string;
  kind: 'MCP' | 'A2A';
  /** Where the code goes if the person allows: the redirect URI's host (and port), or a native app's scheme. */
  redirect: { kind: 'host' | 'scheme'; target: string };
  error?: string | null;
}

/** The app's name is its own claim; where the code goes is the fact a person can check (contract 12). */
const destination = (r: ConsentSubject['redirect']) =>
  r.kind === 'host'
    ? html`<p>After you allow, the code is sent to <strong data-redirect-host>${r.target}</strong>.</p>`
    : html`<p>After you allow, the code is sent to the app on this device that opens <strong data-redirect-scheme>${r.target}</strong> addresses.</p>`;

const intro = (s: ConsentSubject) =>
  html`<p><strong data-app-name>${s.appName}</strong> asks to use the service's ${s.kind === 'MCP' ? 'MCP server' : 'A2A agent'} at <code data-app-endpoint>${s.endpoint}</code> on your behalf.</p>
${destination(s.redirect)}`;

export function consentSignInPage(s: ConsentSubject & { email?: string }): string {
  return page({
    title: 'Connect an app',
    nonce: s.nonce,
    body: html`${notice('error', s.error)}${intro(s)}
<p>Sign in with your own account (not the workspace password) to continue.</p>
<form method="post" action="/oauth/consent/${s.uid}/login">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${s.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>`,
  });
}

export function consentTwoFactorPage(s: ConsentSubject): string {
  return page({
    title: 'Two-factor sign-in',
    nonce: s.nonce,
    body: html`${notice('error', s.error)}${intro(s)}
<form method="post" action="/oauth/consent/${s.uid}/two-factor">
  <label for="code">Code from your authenticator app</label>
  <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required aria-describedby="code-hint">
  <p class="hint" id="code-hint">Or one of your recovery codes (xxxxx-xxxxx).</p>
  <button type="submit">Continue</button>
</form>`,
  });
}

/** The choice: a role no higher than the person's own, then allow or deny. */
export function consentDecisionPage(s: ConsentSubject & { email: string; roles: readonly Role[]; suggested: Role }): string {
  return page({
    title: 'Connect an app',
    nonce: s.nonce,
    body: html`${notice('error', s.error)}${intro(s)}
<p>Signed in as <strong>${s.email}</strong>. The app acts as you, recorded as <code>${s.email} via ${s.kind}</code>, with the role you choose; you can disconnect it from your Account page at any time.</p>
<form method="post" action="/oauth/consent/${s.uid}/confirm">
  <label for="role">Role for this app</label>
  <select id="role" name="role">
    ${s.roles.map((r) => html`<option value="${r}"${r === s.suggested ? html` selected` : html``}>${r}</option>`)}
  </select>
  <button type="submit" name="decision" value="allow">Allow</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  });
}

/** A consent request that cannot go on (expired, unknown): the app must start again. */
export function consentEndedPage(o: { nonce: string; message: string }): string {
  return page({ title: 'Connect an app', nonce: o.nonce, body: html`${notice('error', o.message)}<p>Start connecting again from the app.</p>` });
}
