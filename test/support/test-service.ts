// An in-process service per test file: its own database clone, its own test clock, a fetch helper.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/logging/logger.js';
import { startService, type RunningService, type StartOptions } from '../../src/server/service.js';
import { saveClockOffset } from '../../src/engine/test-clock-store.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

export const WORKSPACE_PASSWORD = 'test-workspace-password-0123';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  /** Bearer credential; defaults to the workspace password. `null` sends none. */
  token?: string | null;
  headers?: Record<string, string>;
  /** A raw body sent as is (no JSON encoding). */
  raw?: string | Buffer;
}

export interface TestService {
  service: RunningService;
  database: TestDatabase;
  url: string;
  call<T = any>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<ApiResponse<T>>;
  /** Advances the test clock through the API (fires due work on the way). */
  advance(ms: number): Promise<number>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  env?: Record<string, string | undefined>;
  /** Use the Redis from TEST_REDIS_URL when it is set (behaviour suites run on it in CI). */
  redis?: boolean;
  start?: StartOptions;
  /** Run on this database and leave it in place on close (tests that hand it to a child process). */
  database?: TestDatabase;
  /** Collect the service's log records here (at LOG_LEVEL, default `info` when collecting) instead of discarding them. */
  logRecords?: Record<string, unknown>[];
  /** Start the test clock at this instant (epoch ms) instead of the real time: no due work fires on the way. */
  clockAt?: number;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database = options.database ?? (await createTestDatabase());
  // The service loads the stored offset at start (src/engine/test-clock-store.ts): the clock then reads `clockAt`.
  if (options.clockAt !== undefined) await saveClockOffset(database.db, options.clockAt - Date.now(), options.clockAt);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oo-test-data-'));
  const env: Record<string, string | undefined> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    TEST_CLOCK: '1',
    // Every answer of every operation the suite makes is checked against the schema OpenAPI documents.
    CHECK_OPERATION_OUTPUTS: '1',
    WORKSPACE_PASSWORD,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? (options.logRecords ? 'info' : 'silent'),
    PBKDF2_ITERATIONS: '1000',
    OUTBOUND_TIMEOUT_MS: '2000',
    // Tests seed bulk fixtures through the service's own pool (100k orders take seconds on a busy machine).
    STATEMENT_TIMEOUT_MS: '60000',
    // Every test client is 127.0.0.1: suites that open many connections at once must not meet the per-address
    // cap (default 100); its own tests set it low (test/integration/http/websocket-limits.test.ts).
    MAX_CONNECTIONS_PER_ADDRESS: '1000',
    ...(options.redis !== false && process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    ...options.env,
  };
  const config = loadConfig(env as NodeJS.ProcessEnv);
  const records = options.logRecords;
  const destination = records ? { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) } : undefined;
  const service = await startService(config, createLogger(config.env.LOG_LEVEL, undefined, destination), options.start);

  const call = async <T = any>(method: string, p: string, body?: unknown, o: CallOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...o.headers };
    const token = o.token === undefined ? WORKSPACE_PASSWORD : o.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | Buffer | undefined;
    if (o.raw !== undefined) payload = o.raw;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(service.url + p, { method: method.toUpperCase(), headers, body: payload as BodyInit | undefined, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  };

  return {
    service,
    database,
    url: service.url,
    call,
    advance: async (ms) => {
      const res = await call<{ now: number }>('POST', '/api/v1/test/clock', { advanceMs: ms });
      if (res.status !== 200) throw new Error(`clock advance failed: ${res.status} ${res.text}`);
      return res.body.now;
    },
    close: async () => {
      await service.close();
      if (!options.database) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
