// The Account page: password, two-factor, recovery codes, sessions, API tokens, connected apps, sign-out.
import type { Principal } from '../../auth/principal.js';
import type { Person } from '../../auth/people-store.js';
import type { SessionRow } from '../../auth/session-store.js';
import type { ApiTokenView } from '../../auth/api-token-service.js';
import type { ConnectedApp } from '../../auth/connected-apps.js';
import { formatTime, html, notice, page, type Html } from '../../transport/html.js';

export interface AccountView {
  nonce: string;
  principal: Principal;
  person: Person | null;
  recoveryRemaining: number;
  twoFactorRequired: boolean;
  sessions: SessionRow[];
  tokens: ApiTokenView[] | null;
  /** The apps this person connected (MCP clients, A2A agents), newest first. */
  connectedApps: ConnectedApp[];
  error?: string | null;
  ok?: string | null;
  /** Shown once, right after enabling two-factor or replacing the codes. */
  recoveryCodes?: string[];
  /** Shown once, right after creating an API token. */
  newTokenSecret?: string;
}

function restrictionNotice(p: Principal): Html {
  if (p.restricted === 'temporary_password')
    return notice('warn', 'Your password was set by an operator. Choose your own password to use the rest of the service.');
  if (p.restricted === 'two_factor_required')
    return notice('warn', 'Two-factor sign-in is required for your role. Turn it on to use the rest of the service.');
  return html``;
}

function recoveryCodesBlock(codes: string[] | undefined): Html {
  if (!codes?.length) return html``;
  return html`<section aria-labelledby="codes-h"><h2 id="codes-h">Your recovery codes</h2>
<p>Each code works once. Keep them somewhere safe: they are shown only now.</p>
<ul class="codes">${codes.map((c) => html`<li data-recovery-code="${c}">${c}</li>`)}</ul></section>`;
}

function passwordSection(): Html {
  return html`<section aria-labelledby="pw-h"><h2 id="pw-h">Password</h2>
<form method="post" action="/account/password">
  <label for="current">Current password</label>
  <input id="current" name="current" type="password" autocomplete="current-password" required>
  <label for="password">New password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="256" aria-describedby="pw-hint">
  <p class="hint" id="pw-hint">10 to 256 characters, not a common password, not containing your email. Other sessions are signed out.</p>
  <button type="submit">Change password</button>
</form></section>`;
}

function twoFactorSection(v: AccountView): Html {
  const person = v.person!;
  if (person.totpEnabledAt === null)
    return html`<section aria-labelledby="tf-h"><h2 id="tf-h">Two-factor sign-in</h2>
<p data-two-factor="off">Two-factor sign-in is off.${v.twoFactorRequired ? ' It is required for your role.' : ''}</p>
<p><a href="/account/two-factor">Turn on two-factor</a></p></section>`;
  const low = v.recoveryRemaining <= 3;
  return html`<section aria-labelledby="tf-h"><h2 id="tf-h">Two-factor sign-in</h2>
<p data-two-factor="on">On since ${formatTime(person.totpEnabledAt)}.</p>
<p data-recovery-remaining="${v.recoveryRemaining}" ${low ? html`class="notice warn" role="status"` : ''}>${v.recoveryRemaining} recovery codes left.${low ? ' Make new ones soon.' : ''}</p>
<form method="post" action="/account/recovery-codes">
  <label for="rc-password">Password</label>
  <input id="rc-password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Make new recovery codes</button>
  <p class="hint">Replaces all your recovery codes.</p>
</form>
${
  v.twoFactorRequired
    ? html`<p class="hint">Two-factor is required for your role, so it cannot be turned off.</p>`
    : html`<form method="post" action="/account/two-factor/disable">
  <label for="off-password">Password</label>
  <input id="off-password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Turn off two-factor</button>
</form>`
}</section>`;
}

function sessionsSection(v: AccountView): Html {
  return html`<section aria-labelledby="ses-h"><h2 id="ses-h">Sessions</h2>
<table class="stack"><thead><tr><th scope="col">Browser and system</th><th scope="col">Address</th><th scope="col">Signed in</th><th scope="col">Last activity</th><th scope="col"><span class="hint">Action</span></th></tr></thead>
<tbody>${v.sessions.map(
    (s) => html`<tr data-session="${s.id}"><td data-label="Browser and system">${s.userAgent ?? 'unknown'}</td><td data-label="Address">${s.ip ?? ''}</td><td data-label="Signed in">${formatTime(s.createdAt)}</td><td data-label="Last activity">${formatTime(s.lastUsedAt)}</td>
<td>${
      s.id === v.principal.sessionId
        ? html`<strong>This session</strong>`
        : html`<form method="post" action="/account/sessions/${s.id}/end" class="inline"><button type="submit">End</button></form>`
    }</td></tr>`,
  )}</tbody></table>
<form method="post" action="/account/sessions/end-others"><button type="submit">End all other sessions</button></form></section>`;
}

/** Apps connected through the consent pages: kind, address, role, when; Disconnect asks for confirmation first. */
function connectedAppsSection(apps: ConnectedApp[]): Html {
  const rows = apps.map(
    (a) => html`<tr data-connected-app="${a.id}" data-app-kind="${a.kind}" data-app-role="${a.role}">
  <td data-label="App">${a.appName}</td><td data-label="Kind">${a.kind === 'mcp' ? 'MCP' : 'A2A'}</td><td data-label="Address"><code>${a.resource}</code></td><td data-label="Role">${a.role}</td><td data-label="Connected">${formatTime(a.connectedAt)}</td>
  <td><a href="/account/apps/${encodeURIComponent(a.id)}/disconnect">Disconnect…</a></td></tr>`,
  );
  return html`<section aria-labelledby="apps-h"><h2 id="apps-h">Connected apps</h2>
${apps.length === 0
  ? html`<p data-connected-apps="0">No connected apps. An MCP client or an A2A agent you connect with your account appears here.</p>`
  : html`<table class="stack" data-connected-apps="${apps.length}"><thead><tr><th scope="col">App</th><th scope="col">Kind</th><th scope="col">Address</th><th scope="col">Role</th><th scope="col">Connected</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${rows}</tbody></table>`}
</section>`;
}

function tokensSection(v: AccountView): Html {
  if (!v.tokens) return html``;
  return html`<section aria-labelledby="tok-h"><h2 id="tok-h">API tokens</h2>
${v.newTokenSecret ? html`<p class="notice ok" role="status">Copy the token now, it is shown only once: <code data-api-token-secret="${v.newTokenSecret}">${v.newTokenSecret}</code></p>` : ''}
<table class="stack"><thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Prefix</th><th scope="col">Created by</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"><span class="hint">Action</span></th></tr></thead>
<tbody>${v.tokens.map(
    (t) => html`<tr data-api-token="${t.id}"><td data-label="Name">${t.name}</td><td data-label="Role">${t.role}</td><td data-label="Prefix"><code>${t.prefix}</code></td><td data-label="Created by">${t.createdBy}</td>
<td data-label="Expires" ${t.expiresSoon || t.expired ? html`class="soon"` : ''}>${t.expiresAt === null ? 'never' : formatTime(t.expiresAt)}${t.expired ? ' (expired)' : t.expiresSoon ? ' (soon)' : ''}</td>
<td data-label="Last used">${formatTime(t.lastUsedAt)}</td>
<td><form method="post" action="/account/api-tokens/${t.id}/revoke" class="inline"><button type="submit">Revoke</button></form></td></tr>`,
  )}</tbody></table>
<form method="post" action="/account/api-tokens">
  <label for="tok-name">Name</label><input id="tok-name" name="name" type="text" required maxlength="100">
  <label for="tok-role">Role</label><select id="tok-role" name="role"><option>viewer</option><option>approver</option><option>operator</option></select>
  <label for="tok-exp">Expires</label><select id="tok-exp" name="expiresIn"><option value="30d">in 30 days</option><option value="90d" selected>in 90 days</option><option value="1y">in 1 year</option><option value="never">never</option></select>
  <button type="submit">Create token</button>
</form></section>`;
}

export function accountPage(v: AccountView): string {
  const p = v.principal;
  const body = v.person
    ? html`${notice('error', v.error)}${notice('ok', v.ok)}${restrictionNotice(p)}
<p>${v.person.name ? html`${v.person.name} · ` : ''}<span data-email>${v.person.email}</span> · role <span data-role>${v.person.role}</span></p>
${recoveryCodesBlock(v.recoveryCodes)}
${passwordSection()}
${twoFactorSection(v)}
${sessionsSection(v)}
${p.restricted ? '' : tokensSection(v)}
${connectedAppsSection(v.connectedApps)}`
    : html`${notice('error', v.error)}${notice('ok', v.ok)}
<p>Signed in with the workspace password (operator). It has no password, two-factor or sessions of its own to manage here.</p>
${tokensSection(v)}`;
  return page({ title: 'Account', nonce: v.nonce, principal: p, body });
}

/** The enrolment page with the pending secret, the code-and-password form, and a way to start over with a new key. */
export function enrolPage(o: { nonce: string; principal: Principal; secret: string; uri: string; error?: string | null }): string {
  return page({
    title: 'Turn on two-factor',
    nonce: o.nonce,
    principal: o.principal,
    body: html`${notice('error', o.error)}
<ol>
  <li>Add this key to your authenticator app: <code class="secret" data-totp-secret="${o.secret}">${o.secret}</code>
  (or open <a data-totp-uri href="${o.uri}">${o.uri}</a> on the device with the app).</li>
  <li>Enter the 6-digit code the app shows, with your password.</li>
</ol>
<form method="post" action="/account/two-factor">
  <label for="code">Code from the app</label>
  <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Turn on two-factor</button>
</form>
<form method="post" action="/account/two-factor/start" data-two-factor-start>
  <button type="submit">Start over with a new key</button>
  <p class="hint">The key above stops working for this enrolment.</p>
</form>
<p><a href="/account">Back to Account</a></p>`,
  });
}
