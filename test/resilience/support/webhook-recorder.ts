// A local webhook receiver that records every delivery attempt and behaves by path: ok, fail, hang or reset.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  /** `x-service-delivery` header. */
  deliveryId: string;
  event: string;
  /** `id` in the JSON body (must equal the header). */
  bodyId: string | null;
  orderId: string | null;
  /** SHA-256 of the raw body: duplicates of one delivery must carry the same bytes. */
  bodyHash: string;
  at: number;
}

export interface WebhookRecorder {
  url: string;
  received: ReceivedDelivery[];
  /** Requests on /hang still held open. */
  hanging(): number;
  /** From now on /hang answers 200 at once (the receiver recovered). */
  release(): void;
  close(): Promise<void>;
}

/**
 * Paths: `/ok` 200; `/fail` 500; `/hang` reads the body and never answers (until `release()`); `/reset` reads the body
 * and destroys the connection without an answer. Every request is recorded before it is answered.
 */
export async function startWebhookRecorder(): Promise<WebhookRecorder> {
  const received: ReceivedDelivery[] = [];
  const held = new Set<http.ServerResponse>();
  const sockets = new Set<Socket>();
  let released = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: { id?: unknown; orderId?: unknown } | null = null;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        /* keep null */
      }
      const p = (req.url ?? '/').split('?')[0];
      received.push({
        path: p,
        deliveryId: String(req.headers['x-service-delivery'] ?? ''),
        event: String(req.headers['x-service-event'] ?? ''),
        bodyId: typeof body?.id === 'string' ? body.id : null,
        orderId: typeof body?.orderId === 'string' ? body.orderId : null,
        bodyHash: createHash('sha256').update(raw).digest('hex'),
        at: Date.now(),
      });
      if (p === '/ok') res.writeHead(200).end('ok');
      else if (p === '/fail') res.writeHead(500).end('receiver failure');
      else if (p === '/hang' && released) res.writeHead(200).end('ok');
      else if (p === '/hang') {
        held.add(res);
        res.on('close', () => held.delete(res));
      } else if (p === '/reset') req.socket.destroy();
      else res.writeHead(404).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    hanging: () => held.size,
    release: () => void (released = true),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
