// GET /docs/orders/:orderId/:documentId — a stored order document for a signed-in person (contract section 10).
import { Router } from '@koa/router';
import type { Authenticator } from '../auth/authenticator.js';
import type { Db } from '../db/db.js';
import { notFound } from '../domain/errors.js';
import { readOrderDocument } from '../orders/order-documents.js';

/** Served as an attachment-safe download: never rendered as active content in the app's origin. */
export function orderDocumentsRouter(deps: { auth: Authenticator; db: Db }): Router {
  const router = new Router();
  router.get('/docs/orders/:orderId/:documentId', async (ctx) => {
    await deps.auth.require(ctx, 'viewer');
    const doc = await readOrderDocument(deps.db, ctx.params.orderId, ctx.params.documentId);
    if (!doc) throw notFound('Document');
    ctx.set('Content-Type', doc.contentType);
    ctx.set('Content-Disposition', `inline; filename="${doc.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
    // A stored document is data, not a page: no scripts, no frames, no same-origin powers.
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = doc.body;
  });
  return router;
}
