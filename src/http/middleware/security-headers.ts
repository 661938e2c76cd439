// Security headers on every response, and a CSP with a fresh nonce on HTML (spec "Browser protections").
import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';

export const securityHeaders: Middleware = async (ctx, next) => {
  ctx.state.cspNonce = randomBytes(16).toString('base64');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  await next();
  if (ctx.response.is('html'))
    ctx.set(
      'Content-Security-Policy',
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${ctx.state.cspNonce}'`,
        "style-src 'self'",
        "font-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'self'",
        "object-src 'none'",
      ].join('; '),
    );
};
