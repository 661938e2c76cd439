// The signed-in person of a page (dashboard, assistant, identity), or null after answering (sign-in redirect, Account redirect, 403 page).
import type { Context } from 'koa';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import { roleAtLeast, type Role } from '../auth/roles.js';
import { DomainError } from '../domain/errors.js';
import { html, page } from '../transport/html.js';
import { seeOther, send } from '../transport/page-responses.js';
import { cspNonce } from '../transport/security-headers.js';

export interface PagePrincipalOptions {
  /** A restricted person (temporary password, two-factor missing) may see the page: the Account page's own actions. */
  allowRestricted?: boolean;
  /** Where a signed-out form post returns after sign-in (a page load returns to itself). */
  postNext?: string;
}

/**
 * `need` is the role the page needs; null when the page leaves roles to the registry operations it
 * calls (the identity pages: their answer to a role below the operation's is the operation's refusal).
 */
export async function pagePrincipal(auth: Authenticator, ctx: Context, need: Role | null = 'viewer', options: PagePrincipalOptions = {}): Promise<Principal | null> {
  let principal: Principal | null = null;
  try {
    principal = await auth.authenticate(ctx);
  } catch (err) {
    if (!(err instanceof DomainError) || err.kind !== 'unauthenticated') throw err;
  }
  if (!principal) {
    seeOther(ctx, `/login?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.originalUrl : (options.postNext ?? '/orders'))}`);
    return null;
  }
  if (principal.restricted && !options.allowRestricted) {
    seeOther(ctx, '/account');
    return null;
  }
  if (need && !roleAtLeast(principal.role, need)) {
    forbiddenPage(ctx, principal, need);
    return null;
  }
  return principal;
}

/** The 403 page of a role below what the page (or the operation behind it) needs. */
export function forbiddenPage(ctx: Context, principal: Principal, need: string): void {
  send(ctx, 403, page({ title: 'Not allowed', nonce: cspNonce(ctx), principal, body: html`<p role="alert">This page needs the ${need} role.</p>` }));
}
