// The Team page (operator): people, roles, passwords, enable/disable, two-factor reset, the requirement setting.
import type { Principal } from '../../auth/principal.js';
import type { PersonView } from '../../auth/people-store.js';
import { roles } from '../../auth/roles.js';
import { twoFactorRequirements, type TwoFactorRequirement } from '../../auth/two-factor-policy.js';
import { formatTime, html, notice, page } from '../../transport/html.js';

const REQUIREMENT_LABEL: Record<TwoFactorRequirement, string> = {
  nobody: 'Nobody',
  operators: 'Operators',
  approvers_and_operators: 'Approvers and operators',
  everyone: 'Everyone',
};

export interface TeamView {
  nonce: string;
  principal: Principal;
  people: PersonView[];
  requirement: TwoFactorRequirement;
  error?: string | null;
  ok?: string | null;
  /** Shown once after adding a person or resetting a password. */
  temporaryPassword?: { email: string; password: string };
}

export function teamPage(v: TeamView): string {
  const temp = v.temporaryPassword;
  return page({
    title: 'Team',
    nonce: v.nonce,
    principal: v.principal,
    body: html`${notice('error', v.error)}${notice('ok', v.ok)}
${
  temp
    ? html`<p class="notice ok" role="status">Temporary password for ${temp.email} (shown only now):
<code data-temporary-password="${temp.password}">${temp.password}</code></p>`
    : ''
}
<section aria-labelledby="add-h"><h2 id="add-h">Add person</h2>
<form method="post" action="/team/people">
  <label for="add-email">Email</label><input id="add-email" name="email" type="email" required>
  <label for="add-name">Name (optional)</label><input id="add-name" name="name" type="text" maxlength="200">
  <label for="add-role">Role</label><select id="add-role" name="role">${roles.map((r) => html`<option>${r}</option>`)}</select>
  <button type="submit">Add person</button>
</form></section>
<section aria-labelledby="req-h"><h2 id="req-h">Two-factor requirement</h2>
<form method="post" action="/team/two-factor-requirement">
  <label for="req">Who must use two-factor sign-in</label>
  <select id="req" name="twoFactorRequirement" data-two-factor-requirement="${v.requirement}">${twoFactorRequirements.map(
    (r) => html`<option value="${r}" ${r === v.requirement ? 'selected' : ''}>${REQUIREMENT_LABEL[r]}</option>`,
  )}</select>
  <button type="submit">Save</button>
</form></section>
<section aria-labelledby="people-h"><h2 id="people-h">People</h2>
<table><thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Two-factor</th><th scope="col"><span class="hint">Actions</span></th></tr></thead>
<tbody>${v.people.map(
      (p) => html`<tr data-person="${p.id}" data-email="${p.email}">
<td>${p.email}${p.name ? html`<br><span class="hint">${p.name}</span>` : ''}<br><span class="hint">added ${formatTime(p.createdAt)}</span></td>
<td><form method="post" action="/team/people/${p.id}/role" class="inline">
  <label class="hint" for="role-${p.id}">Role of ${p.email}</label>
  <select id="role-${p.id}" name="role">${roles.map((r) => html`<option ${r === p.role ? 'selected' : ''}>${r}</option>`)}</select>
  <button type="submit">Change</button></form></td>
<td>${p.enabled ? 'active' : 'disabled'}${p.temporaryPassword ? html`<br><span class="hint">temporary password</span>` : ''}<br>
<form method="post" action="/team/people/${p.id}/enabled" class="inline"><input type="hidden" name="enabled" value="${p.enabled ? 'false' : 'true'}">
<button type="submit">${p.enabled ? 'Disable' : 'Enable'}</button></form></td>
<td>${p.twoFactor.enabled ? 'on' : 'off'}${
        p.twoFactor.enabled
          ? html`<br><form method="post" action="/team/people/${p.id}/reset-two-factor" class="inline"><button type="submit">Reset two-factor</button></form>`
          : ''
      }</td>
<td><form method="post" action="/team/people/${p.id}/reset-password" class="inline"><button type="submit">Reset password</button></form></td>
</tr>`,
    )}</tbody></table></section>`,
  });
}
