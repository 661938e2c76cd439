// The upgrade dispatcher (security review C1, H1): every upgrade is answered or destroyed, and nothing thrown
// while handling one reaches the process.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { attachUpgradeDispatcher, refuseUpgrade, type UpgradeRoute } from '../../../src/transport/upgrade-dispatcher.js';
import { createLogger } from '../../../src/logging/logger.js';
import { rawExchange, rawRequest, UPGRADE_HEADERS } from '../../support/raw-http.js';

let server: http.Server | null = null;
const logged: Record<string, unknown>[] = [];
const logger = createLogger('info', 'test', { write: (line: string) => void logged.push(JSON.parse(line)) });

async function serve(routes: UpgradeRoute[], handshakeTimeoutMs?: number): Promise<number> {
  server = http.createServer((_req, res) => res.end('ok'));
  attachUpgradeDispatcher(server, routes, { logger, handshakeTimeoutMs });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
  logged.length = 0;
});

const upgrade = (path: string) => rawRequest(`GET ${path} HTTP/1.1`, { Host: 'x', ...UPGRADE_HEADERS });

describe('upgrade dispatcher', () => {
  it('passes the percent-decoded path parameters to the matching surface', async () => {
    const seen: string[][] = [];
    const port = await serve([{ pattern: /^\/ws\/([^/]+)$/, handle: async (_q, socket, _h, params) => (seen.push(params), refuseUpgrade(socket, 403, 'no')) }]);
    const res = await rawExchange(port, upgrade('/ws/a%20b'));
    expect(res.status).toBe(403);
    expect(seen).toEqual([['a b']]);
  });

  it('a parameter that is not valid percent-encoding is answered 400 before the surface runs', async () => {
    let ran = false;
    const port = await serve([{ pattern: /^\/ws\/([^/]+)$/, handle: async () => void (ran = true) }]);
    for (const bad of ['%E0%A4%A', '%', '%zz', '%C0']) {
      const res = await rawExchange(port, upgrade(`/ws/${bad}`));
      expect(res.status, bad).toBe(400);
      expect(res.closed).toBe(true);
    }
    expect(ran).toBe(false);
  });

  it('a path no surface owns is answered 404 and closed', async () => {
    const port = await serve([]);
    const res = await rawExchange(port, upgrade('/anything?x=%E0'));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ error: 'Not found' });
    expect(res.closed).toBe(true);
  });

  it('a surface that throws (even synchronously) gets a 500 and a logged error; the process goes on', async () => {
    const port = await serve([
      {
        pattern: /^\/boom$/,
        handle: () => {
          throw new Error('bug');
        },
      },
    ]);
    const res = await rawExchange(port, upgrade('/boom'));
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toEqual({ error: 'Internal error' });
    expect(logged.some((r) => r.msg === 'upgrade failed')).toBe(true);
  });

  it('an upgrade whose surface never answers is destroyed at the handshake timeout', async () => {
    const port = await serve([{ pattern: /^\/hang$/, handle: () => new Promise(() => undefined) }], 200);
    const res = await rawExchange(port, upgrade('/hang'), { waitMs: 5_000 });
    expect(res.status).toBeNull();
    expect(res.closed).toBe(true);
  });
});
