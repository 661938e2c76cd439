// How the server-rendered pages answer: an HTML page, a 303 to the next page, the shared sign-in messages.
import type { Context } from 'koa';
import type { RequestInfo } from '../auth/identity-deps.js';

/** What a wrong email or password reads as, on every sign-in form (it never says which was wrong). */
export const SIGN_IN_FAILED = 'Email and password did not match.';

export function send(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

export function seeOther(ctx: Context, location: string): void {
  ctx.redirect(location);
  ctx.status = 303;
}

/** The throttled sign-in message, in minutes. */
export function waitText(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

export const requestInfo = (ctx: Context): RequestInfo => ({ ip: ctx.ip, userAgent: ctx.get('user-agent') || null });
