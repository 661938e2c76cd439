// A local webhook receiver for the bench: answers 204 and counts deliveries by their id.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  /** Deliveries received, including repeats of the same id. */
  received(): number;
  /** Distinct delivery ids received. */
  distinct(): number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let received = 0;
  const ids = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received++;
      try {
        ids.add((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id);
      } catch {
        /* counted, not identified */
      }
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    distinct: () => ids.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
