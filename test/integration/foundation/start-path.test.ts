// The real start path as a child process: npm start on embedded PostgreSQL, SIGKILL, restart, data kept
// (issue "Foundation": runtime-contract sections 1-3 and 6).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killGroup, startChild, type ChildService } from '../../support/child-service.js';

const dirs: string[] = [];
const children: ChildService[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'oo-start-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const c of children) killGroup(c, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  for (const c of children) killGroup(c, 'SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const embeddedEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
  PORT: '0',
  DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  REDIS_URL: undefined,
  WORKSPACE_FILE: undefined,
  WORKSPACE_PASSWORD: undefined,
  LOG_LEVEL: 'info',
  ...extra,
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start on a fresh data directory', () => {
  it('serves /health and /health/deep, survives SIGKILL (orphan postmaster) and keeps its data (contract 1, 6)', async () => {
    const dataDir = tempDir();
    const first = startChild(embeddedEnv(dataDir, { TEST_CLOCK: '1' }));
    children.push(first);
    const url = await first.ready;
    // Demo mode: a generated workspace password, kept in DATA_DIR with mode 0600 and printed once.
    const pwFile = path.join(dataDir, 'workspace-password');
    expect(existsSync(pwFile)).toBe(true);
    const password = readFileSync(pwFile, 'utf8').trim();
    expect(first.output()).toContain(password);
    expect((await import('node:fs')).statSync(pwFile).mode & 0o777).toBe(0o600);

    expect(await (await fetch(`${url}/health`)).json()).toEqual({ ok: true, service: 'order-orchestration' });
    const deep = await fetch(`${url}/health/deep`);
    expect(deep.status).toBe(200);
    expect((await deep.json()).checks.database).toBe('ok');

    // A row written before the kill: the test clock offset is kept in PostgreSQL.
    const day = 86_400_000;
    const moved = await fetch(`${url}/api/v1/test/clock`, {
      method: 'POST',
      headers: { authorization: `Bearer ${password}`, 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 3 * day }),
    });
    expect(moved.status).toBe(200);
    const { now: movedTo } = await moved.json();
    expect(movedTo).toBeGreaterThan(Date.now() + 3 * day - 60_000);

    // SIGKILL the service's node process only: its embedded postmaster is left running as an orphan.
    const pid = first.servicePid();
    expect(pid).toBeTruthy();
    process.kill(pid!, 'SIGKILL');
    await first.exited;
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    expect(existsSync(pidFile)).toBe(true);
    const orphan = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    expect(isAlive(orphan)).toBe(true);

    const second = startChild(embeddedEnv(dataDir, { TEST_CLOCK: '1' }));
    children.push(second);
    const url2 = await second.ready;
    expect(isAlive(orphan)).toBe(false);
    const again = await fetch(`${url2}/api/v1/test/clock`, {
      method: 'POST',
      headers: { authorization: `Bearer ${password}`, 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 0 }),
    });
    expect(again.status).toBe(200);
    expect((await again.json()).now).toBeGreaterThanOrEqual(movedTo);
    // The kept password is reused, not regenerated.
    expect(readFileSync(pwFile, 'utf8').trim()).toBe(password);

    // Graceful stop: SIGTERM exits 0 and stops the embedded server with it.
    const newPostmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    process.kill(second.servicePid()!, 'SIGTERM');
    expect(await second.exited).toBe(0);
    expect(isAlive(newPostmaster)).toBe(false);
  }, 120_000);

  it('a bad workspace file stops the start with one line naming the field (contract 2-3)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'workspace.json');
    const ws = JSON.parse(readFileSync(new URL('../../../src/config/demo-workspace.json', import.meta.url), 'utf8'));
    ws.sellers[0].commission = 1.5;
    ws.exchangeRates.usd = 1;
    writeFileSync(file, JSON.stringify(ws));
    const child = startChild(embeddedEnv(dir, { WORKSPACE_FILE: file }));
    children.push(child);
    const code = await child.exited;
    expect(code).not.toBe(0);
    const errorLines = child.output().split('\n').filter((l) => l.startsWith('error:'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain('sellers.0.commission');
    expect(errorLines[0]).toContain('exchangeRates');
  }, 60_000);

  it('an invalid environment variable stops the start naming the variable (contract 2)', async () => {
    const child = startChild(embeddedEnv(tempDir(), { PORT: 'eighty' }));
    children.push(child);
    expect(await child.exited).not.toBe(0);
    expect(child.output()).toMatch(/error: invalid environment: PORT/);
  }, 60_000);
});
