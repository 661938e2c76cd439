// The real service as a restartable child process (`npm start`): start, SIGKILL, SIGTERM, and an HTTP client that never throws.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killGroup, startChild, type ChildService } from '../../support/child-service.js';

export const OPERATOR_PASSWORD = 'resilience-workspace-password-0123';

/** An answer from the service, or `status: 0` when the request got none (refused, reset, timed out). */
export interface Reply<T = any> {
  status: number;
  body: T;
  text: string;
  ms: number;
  error?: string;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** Abort the request after this many ms (default 30 s). */
  timeoutMs?: number;
  /** Send no bearer. */
  anonymous?: boolean;
}

/** How a crash is simulated: only the node process (its embedded PostgreSQL is orphaned), or the whole process group. */
export type KillMode = 'service' | 'group';

export interface ServiceProcessOptions {
  /** Environment on top of the defaults (PORT=0, a private DATA_DIR, TEST_CLOCK=1, the operator password). */
  env?: Record<string, string | undefined>;
  /** Use this DATA_DIR (kept on close) instead of a fresh temporary one. */
  dataDir?: string;
}

export class ServiceProcess {
  readonly dataDir: string;
  private readonly ownDataDir: boolean;
  /** The environment of the next start (a test may add to it before starting). */
  readonly env: Record<string, string | undefined>;
  private current: ChildService | null = null;
  private baseUrl: string | null = null;
  /** Everything every incarnation printed, for failure reports. */
  private readonly outputs: string[] = [];
  starts = 0;

  constructor(options: ServiceProcessOptions = {}) {
    this.ownDataDir = !options.dataDir;
    this.dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'oo-resilience-'));
    this.env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      TEST_CLOCK: '1',
      WORKSPACE_PASSWORD: OPERATOR_PASSWORD,
      LOG_LEVEL: process.env.RESILIENCE_LOG_LEVEL ?? 'warn',
      PBKDF2_ITERATIONS: '1000',
      ...options.env,
    };
  }

  get url(): string {
    if (!this.baseUrl) throw new Error('the service is not running');
    return this.baseUrl;
  }

  get running(): boolean {
    return this.current !== null;
  }

  /** The pid of the node process running src/main.ts. */
  pid(): number | null {
    return this.current?.servicePid() ?? null;
  }

  /** Starts `npm start` and waits for `listening on <url>`. */
  async start(): Promise<string> {
    if (this.current) throw new Error('already running');
    const child = startChild(this.env, 90_000);
    this.current = child;
    this.starts += 1;
    try {
      this.baseUrl = await child.ready;
    } catch (err) {
      this.outputs.push(child.output());
      this.current = null;
      killGroup(child);
      throw err;
    }
    return this.baseUrl;
  }

  /** SIGKILL: the service only (its embedded PostgreSQL keeps running as an orphan) or the whole group. */
  async kill(mode: KillMode = 'service'): Promise<void> {
    const child = this.current;
    if (!child) return;
    const pid = child.servicePid();
    if (mode === 'group' || pid === null) killGroup(child, 'SIGKILL');
    else process.kill(pid, 'SIGKILL');
    await child.exited;
    this.retire(child);
  }

  /** SIGTERM to the service; resolves with its exit code and how long it took to exit. */
  async terminate(timeoutMs = 15_000): Promise<{ code: number | string; ms: number }> {
    const child = this.current;
    if (!child) throw new Error('not running');
    const pid = child.servicePid();
    const started = Date.now();
    if (pid) process.kill(pid, 'SIGTERM');
    else killGroup(child, 'SIGTERM');
    const code = await Promise.race([child.exited, new Promise<string>((r) => setTimeout(() => r('timeout'), timeoutMs))]);
    const ms = Date.now() - started;
    if (code === 'timeout') killGroup(child, 'SIGKILL');
    await child.exited;
    this.retire(child);
    return { code, ms };
  }

  /** What every incarnation printed so far. */
  output(): string {
    return [...this.outputs, this.current?.output() ?? ''].join('\n----- restart -----\n');
  }

  /** The connection URL of the service's embedded PostgreSQL (read from its pid file and password file). */
  embeddedDatabaseUrl(): string {
    const pidFile = path.join(this.dataDir, 'pg', 'postmaster.pid');
    const port = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
    const password = readFileSync(path.join(this.dataDir, 'pg-password'), 'utf8').trim();
    return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  }

  /** Whether an embedded postmaster (running or stale) holds the data directory. */
  postmasterPidFileExists(): boolean {
    return existsSync(path.join(this.dataDir, 'pg', 'postmaster.pid'));
  }

  /** One request; never throws (no answer is `status: 0`). */
  async call<T = any>(method: string, p: string, body?: unknown, options: CallOptions = {}): Promise<Reply<T>> {
    const started = performance.now();
    const headers: Record<string, string> = { ...options.headers };
    if (!options.anonymous) headers.authorization ??= `Bearer ${OPERATOR_PASSWORD}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    try {
      const res = await fetch(this.url + p, {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: res.status, body: parsed as T, text, ms: performance.now() - started };
    } catch (err) {
      return { status: 0, body: undefined as T, text: '', ms: performance.now() - started, error: (err as Error).message };
    }
  }

  /** Stops the service (SIGTERM, then SIGKILL), any orphan postmaster, and removes a temporary DATA_DIR. */
  async close(): Promise<void> {
    if (this.current) await this.terminate().catch(() => undefined);
    stopOrphan(this.dataDir);
    // RESILIENCE_LOG_DIR keeps what every incarnation printed (set RESILIENCE_LOG_LEVEL=info for more).
    if (process.env.RESILIENCE_LOG_DIR) writeFileSync(path.join(process.env.RESILIENCE_LOG_DIR, `${path.basename(this.dataDir)}.log`), this.output());
    if (this.ownDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  private retire(child: ChildService): void {
    this.outputs.push(child.output());
    if (this.current === child) {
      this.current = null;
      this.baseUrl = null;
    }
  }
}

/** Kills a postmaster left running in `dataDir` (after a SIGKILL of the service alone). */
function stopOrphan(dataDir: string): void {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid > 0) process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
