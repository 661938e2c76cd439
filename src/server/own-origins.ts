// The app's own origins for a request: BASE_URL's, and without BASE_URL also the address the request was sent to.
import type { Context } from 'koa';
import type { ServiceContext } from './service-context.js';

/**
 * The app's own origin is BASE_URL's. Without BASE_URL (local development) the origin the
 * request was addressed to (scheme + Host) also counts, so http://localhost:3000 works next
 * to http://127.0.0.1:3000; a cross-site page cannot forge its own Origin header.
 */
export function ownOriginsOf(ctx: ServiceContext): (c: Context) => string[] {
  return (c) => {
    const origins = [new URL(ctx.baseUrl()).origin.toLowerCase()];
    if (!ctx.config.env.BASE_URL) origins.push(`${c.protocol}://${c.host}`.toLowerCase());
    return origins;
  };
}
