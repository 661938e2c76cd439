// METRICS_PORT: a second, bare HTTP listener that answers only GET /metrics, for a scraper on a private network.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceMetrics } from './service-metrics.js';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on `host:port` without authentication (the operator keeps the port off public networks:
 * docs/operations.md "Metrics"). Anything but `GET /metrics` is 404; a failing exposition is 503.
 */
export async function startMetricsServer(metrics: ServiceMetrics, host: string, port: number): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.exposition().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
      () => res.writeHead(503, { 'content-type': 'text/plain' }).end('Metrics unavailable\n'),
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
