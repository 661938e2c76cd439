// The signed-in person of a dashboard page, or null after answering (sign-in redirect, Account redirect, 403 page).
import type { Context } from 'koa';
import type { Authenticator } from '../../auth/authenticator.js';
import type { Principal } from '../../auth/principal.js';
import { roleAtLeast, type Role } from '../../auth/roles.js';
import { DomainError } from '../../domain/errors.js';
import { html, page } from '../identity/html.js';
import { seeOther, send } from '../identity/page-responses.js';

export async function pagePrincipal(auth: Authenticator, ctx: Context, need: Role = 'viewer'): Promise<Principal | null> {
  let principal: Principal | null = null;
  try {
    principal = await auth.authenticate(ctx);
  } catch (err) {
    if (!(err instanceof DomainError) || err.kind !== 'unauthenticated') throw err;
  }
  if (!principal) {
    seeOther(ctx, `/login?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.originalUrl : '/orders')}`);
    return null;
  }
  if (principal.restricted) {
    seeOther(ctx, '/account');
    return null;
  }
  if (!roleAtLeast(principal.role, need)) {
    send(ctx, 403, page({ title: 'Not allowed', nonce: ctx.state.cspNonce, principal, body: html`<p role="alert">This page needs the ${need} role.</p>` }));
    return null;
  }
  return principal;
}
