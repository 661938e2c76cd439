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

  /**
   * A client on an operator API token minted with the workspace password: the way a production
   * caller authenticates (the workspace password is break-glass, and each use of it is one counted
   * guess under the address's lock), so the bench measures the path real traffic takes.
   */
  static async withApiToken(baseUrl: string, workspacePassword: string, maxSockets = 64): Promise<BenchClient> {
    const bootstrap = new BenchClient(baseUrl, workspacePassword, 1);
    const name = `bench-${process.pid}-${Date.now()}`;
    const res = await bootstrap.request<{ secret: string }>('POST', '/api/v1/api-tokens', { name, role: 'operator', expiresIn: 'never' });
    bootstrap.agent.destroy();
    if (res.status !== 201) throw new UnexpectedStatus('POST', '/api/v1/api-tokens', res.status, res.body);
    return new BenchClient(baseUrl, res.body.secret, maxSockets);
  }

  get baseUrl(): string {
    return this.url.origin;
  }

  /**
   * Sends a request and parses the JSON answer (any status). A request that meets a reset on a
   * reused keep-alive socket is sent once more on a new one: the server closed that idle socket
   * (its keep-alive timeout) as the request went out, before reading it, so it never ran.
   */
  async request<T = any>(method: string, path: string, body?: unknown): Promise<JsonResponse<T>> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    try {
      return await this.send<T>(method, path, payload);
    } catch (err) {
      if (!(err as { reusedSocket?: boolean }).reusedSocket) throw err;
      return this.send<T>(method, path, payload);
    }
  }

  private send<T>(method: string, path: string, payload: Buffer | undefined): Promise<JsonResponse<T>> {
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
      req.on('error', (err: NodeJS.ErrnoException) => {
        // The keep-alive race: a reset or hang-up on a socket that had served a request before.
        const race = req.reusedSocket && (err.code === 'ECONNRESET' || err.message === 'socket hang up');
        reject(race ? Object.assign(err, { reusedSocket: true }) : err);
      });
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
