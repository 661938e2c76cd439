// Cross-site refusal (spec "Browser protections"): state-changing browser requests need the app's own Origin.
import type { Context, Middleware } from 'koa';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_SITE_MESSAGE = 'Cross-site request refused';

/**
 * True when a browser request may change state: `Origin` is one of ours, or without
 * `Origin`, `Sec-Fetch-Site` is `same-origin` or `none`. A client sending neither header
 * (curl, server-to-server) is not a browser and passes. Other subdomains of the same
 * parent are different origins, so they are refused by the exact match. The live
 * connection calls this too, with the upgrade request's headers.
 */
export function sameOriginRequest(
  headers: { origin?: string | undefined; secFetchSite?: string | undefined },
  ownOrigins: readonly string[],
): boolean {
  const origin = headers.origin?.trim();
  if (origin) return ownOrigins.includes(origin.toLowerCase());
  const site = headers.secFetchSite?.trim().toLowerCase();
  if (!site) return true;
  return site === 'same-origin' || site === 'none';
}

export interface BrowserProtectionOptions {
  /** The origins that count as the app's own for this request (lower-case, no trailing slash). */
  ownOrigins(ctx: Context): string[];
  /** True when the request rides on a dashboard cookie (session or pending sign-in). */
  carriesCookie(ctx: Context): boolean;
  /** Form endpoints guarded even without a cookie (sign-in: no logging a victim into our account). */
  alwaysGuarded(path: string): boolean;
}

/**
 * Refuses cross-site state-changing requests that would act through the browser's cookie
 * with 403 `{ error: "Cross-site request refused" }`. Bearer requests are exempt: a
 * browser never adds an Authorization header on its own.
 */
export function browserProtections(options: BrowserProtectionOptions): Middleware {
  return async (ctx, next) => {
    if (!SAFE_METHODS.has(ctx.method) && !ctx.get('authorization') && (options.carriesCookie(ctx) || options.alwaysGuarded(ctx.path))) {
      const ok = sameOriginRequest(
        { origin: ctx.get('origin') || undefined, secFetchSite: ctx.get('sec-fetch-site') || undefined },
        options.ownOrigins(ctx),
      );
      if (!ok) {
        ctx.status = 403;
        ctx.body = { error: CROSS_SITE_MESSAGE };
        return;
      }
    }
    await next();
  };
}
