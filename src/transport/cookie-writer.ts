// Writing the service's cookies on a Koa response (dashboard session, OAuth interaction): HttpOnly, SameSite=Lax, Path=/, Secure behind https.
import type { Context } from 'koa';

/** HttpOnly, SameSite=Lax, Path=/ and Secure where the address is https; set by hand so a TLS-terminating proxy needs no TRUST_PROXY. */
export function setCookie(ctx: Context, name: string, value: string, secure: boolean, maxAgeSeconds: number): void {
  const attrs = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (secure) attrs.push('Secure');
  ctx.append('Set-Cookie', attrs.join('; '));
}

export function clearCookie(ctx: Context, name: string, secure: boolean): void {
  setCookie(ctx, name, '', secure, 0);
}
