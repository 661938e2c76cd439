// GET /assistant (the page, `?name=` picks the conversation) and its script.
import { Router } from '@koa/router';
import type { Authenticator } from '../../auth/authenticator.js';
import { pagePrincipal } from '../page-principal.js';
import { send } from '../../transport/page-responses.js';
import { assistantPage } from './assistant-page.js';
import { assistantBundle } from './assistant-bundle.js';
import { cspNonce } from '../../transport/security-headers.js';

const NAME = /^[A-Za-z0-9_-]{1,60}$/;

export function assistantRouter(deps: { auth: Authenticator }): Router {
  const router = new Router();
  router.get('/assistant', async (ctx) => {
    const principal = await pagePrincipal(deps.auth, ctx);
    if (!principal) return;
    const asked = typeof ctx.query.name === 'string' ? ctx.query.name : 'default';
    send(ctx, 200, assistantPage({ nonce: cspNonce(ctx), principal, name: NAME.test(asked) ? asked : 'default' }));
  });
  router.get('/assets/assistant.js', async (ctx) => {
    ctx.type = 'text/javascript';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await assistantBundle();
  });
  return router;
}
