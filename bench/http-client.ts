// The load generator's HTTP client: JSON over keep-alive sockets with the workspace bearer credential.
import http from 'node:http';

export interface JsonResponse<T = any> {
  status: number;
  body: T;
}

/** An HTTP error answer the bench did not expect. */
export class UnexpectedStatus extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${path} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
}

/**
 * A small client over node:http (cheaper per request than fetch, which matters when the load
 * generator shares two cores with the service and PostgreSQL).
 */
export class BenchClient {
  private readonly agent: http.Agent;
  private readonly url: URL;

  constructor(
    baseUrl: string,
    private readonly token: string,
    maxSockets = 64,
  ) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  get baseUrl(): string {
    return this.url.origin;
  }

  /** Sends a request and parses the JSON answer (any status). */
  request<T = any>(method: string, path: string, body?: unknown): Promise<JsonResponse<T>> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          headers: {
            authorization: `Bearer ${this.token}`,
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              /* not JSON: keep the text */
            }
            resolve({ status: res.statusCode ?? 0, body: parsed as T });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** Like `request`, but anything other than the expected status throws UnexpectedStatus. */
  async expect<T = any>(status: number | number[], method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request<T>(method, path, body);
    const ok = Array.isArray(status) ? status.includes(res.status) : res.status === status;
    if (!ok) throw new UnexpectedStatus(method, path, res.status, res.body);
    return res.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
