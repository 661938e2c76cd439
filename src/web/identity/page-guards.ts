// Page-level rules for every dashboard page: restricted sessions land on Account; `/` falls back to Account.
import type { Middleware } from 'koa';
import type { Authenticator } from '../../auth/authenticator.js';

/** Paths a restricted person may still load (Account, sign-in/out, assets) and non-page surfaces. */
const OPEN_PREFIXES = ['/account', '/login', '/logout', '/assets/', '/api/', '/health', '/.well-known/', '/oauth', '/mcp', '/a2a', '/docs/'];

/**
 * A page load (GET that accepts HTML) by a temporary-password or missing-two-factor session
 * is redirected to the Account page, whichever module serves the page (spec "Passwords").
 * REST and documents answer 403 through `Authenticator.require` instead.
 */
export function restrictedPageRedirect(auth: Authenticator): Middleware {
  return async (ctx, next) => {
    if (
      (ctx.method === 'GET' || ctx.method === 'HEAD') &&
      !ctx.get('authorization') &&
      ctx.get('cookie') &&
      (ctx.get('accept') ?? '').includes('text/html') &&
      !OPEN_PREFIXES.some((p) => ctx.path === p || ctx.path.startsWith(p))
    ) {
      const principal = await auth.authenticate(ctx).catch(() => null);
      if (principal?.restricted) {
        ctx.redirect('/account');
        ctx.status = 303;
        return;
      }
    }
    await next();
  };
}

/**
 * Until a dashboard home page exists, `/` sends a signed-in person to Account and others
 * to sign-in, instead of a 404 after signing in. Once some module serves `/`, this is inert.
 */
export function homeFallback(auth: Authenticator): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.path !== '/' || ctx.method !== 'GET' || ctx.status !== 404) return;
    const principal = await auth.authenticate(ctx).catch(() => null);
    ctx.redirect(principal ? '/account' : '/login');
    ctx.status = 303;
  };
}
