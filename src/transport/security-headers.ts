// Security headers on every response, and a CSP with a fresh nonce on HTML (spec "Browser protections").
import { randomBytes } from 'node:crypto';
import type { Context, Middleware } from 'koa';

export const securityHeaders: Middleware = async (ctx, next) => {
  ctx.state.cspNonce = randomBytes(16).toString('base64');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  await next();
  if (ctx.response.is('html')) ctx.set('Content-Security-Policy', htmlContentSecurityPolicy(cspNonce(ctx)));
};

/** The nonce securityHeaders set for this request, typed (koa types `ctx.state` as any). */
export function cspNonce(ctx: Context): string {
  const nonce: unknown = ctx.state.cspNonce;
  return String(nonce);
}

/** The CSP of every HTML page: own origin only, inline scripts only with this response's nonce. */
export function htmlContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "font-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}
