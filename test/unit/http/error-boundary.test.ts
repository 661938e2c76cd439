// Error boundary and CSP nonces through a real Koa server (spec "Errors" 500 shape, "Browser protections").
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/http/create-app.js';
import { defineRoute } from '../../../src/http/route.js';
import { Authenticator } from '../../../src/auth/authenticator.js';
import { createLogger } from '../../../src/logging/logger.js';

let server: http.Server;
let base: string;

beforeAll(async () => {
  const routes = [
    defineRoute({
      method: 'get', path: '/boom', operationId: 'boom', summary: 'throws a bug', tag: 't', access: 'public', responses: {},
      handler: () => {
        throw new Error('secret detail: db password is hunter2');
      },
    }),
    defineRoute({
      method: 'get', path: '/page', operationId: 'page', summary: 'an html page', tag: 't', access: 'public', responses: {},
      handler: ({ ctx }) => {
        ctx.type = 'html';
        return { body: `<!doctype html><script nonce="${ctx.state.cspNonce}">1</script>` };
      },
    }),
  ];
  const app = createApp({ logger: createLogger('silent'), auth: new Authenticator(), routes, proxyHops: 0 });
  const handle = app.callback();
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('error boundary and CSP', () => {
  it('a thrown bug is 500 { error: "Internal error" } without the message (spec "Errors": 500)', async () => {
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal error' });
    expect(text).not.toContain('hunter2');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('HTML responses carry a CSP with a fresh nonce per response (spec "Browser protections")', async () => {
    const a = await fetch(`${base}/page`);
    const b = await fetch(`${base}/page`);
    const csp = [a.headers.get('content-security-policy'), b.headers.get('content-security-policy')];
    for (const c of csp) {
      expect(c).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(c).toContain("frame-ancestors 'none'");
      expect(c).toContain("form-action 'self'");
      expect(c).toContain("connect-src 'self'");
      expect(c).toContain("style-src 'self'");
    }
    const nonce = (c: string | null) => /nonce-([^']+)/.exec(c ?? '')?.[1];
    expect(nonce(csp[0])).toBeTruthy();
    expect(nonce(csp[0])).not.toBe(nonce(csp[1]));
    expect(await a.text()).toContain(`nonce="${nonce(csp[0])}"`);
  });

  it('JSON responses carry no CSP (only HTML pages do)', async () => {
    const res = await fetch(`${base}/nothing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});
