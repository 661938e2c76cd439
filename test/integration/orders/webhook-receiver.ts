// A real local HTTP receiver for webhook tests: records raw bodies and headers, answers by path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  at: number;
}

/**
 * Paths: `/ok` 200, `/created` 201, `/fail` 500, `/redirect` 302 to /ok, `/hang` never answers,
 * `/flaky` 503 on the first try of each delivery id and 200 after.
 * Any other path answers 404. Every request is recorded before it is answered.
 */
export async function startReceiver(): Promise<{ url: string; received: Received[]; on(path: string): Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = null;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        /* keep null */
      }
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, raw, body, at: Date.now() });
      if (path === '/ok') res.writeHead(200).end('ok');
      else if (path === '/created') res.writeHead(201).end();
      else if (path === '/fail') res.writeHead(500).end('nope');
      else if (path === '/redirect') res.writeHead(302, { location: '/ok' }).end();
      else if (path === '/hang') hanging.add(res);
      else if (path === '/flaky') {
        const id = String(req.headers['x-service-delivery']);
        res.writeHead(received.filter((r) => r.path === '/flaky' && r.headers['x-service-delivery'] === id).length > 1 ? 200 : 503).end();
      }
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path) => received.filter((r) => r.path === path),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
