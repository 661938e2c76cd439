// `npm start` and signals (issue "Operability"): SIGTERM or SIGINT to npm stops the whole tree (service and embedded
// PostgreSQL) and exits 0 after the drain; npm killed outright still leaves nothing running; the port is free after.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killGroup, startChild, type ChildService } from '../support/child-service.js';

const dirs: string[] = [];
const children: ChildService[] = [];
afterAll(() => {
  for (const c of children) killGroup(c, 'SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Processes still alive whose process group is `pgid` or whose command line names `dataDir`. */
function leftovers(pgid: number, dataDir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may contain spaces): state, ppid, pgrp, …
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (Number(fields[2]) === pgid || cmd.includes(dataDir)) found.push(`${entry} ${cmd}`);
    } catch {
      /* the process ended while we read it */
    }
  }
  return found;
}

/** True when nothing listens on 127.0.0.1:port (we can bind it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `npm start` as the README says: embedded PostgreSQL in a fresh DATA_DIR, a free port. */
async function startNpm(): Promise<{ child: ChildService; dataDir: string; port: number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oo-signals-'));
  dirs.push(dataDir);
  const child = startChild(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: undefined, REDIS_URL: undefined, LOG_LEVEL: 'info', WORKSPACE_PASSWORD: 'signals-workspace-password-0123' },
    90_000,
  );
  children.push(child);
  const url = await child.ready;
  expect(child.output()).toMatch(/^runtime: Node\.js v24\.\d+\.\d+/m);
  return { child, dataDir, port: Number(new URL(url).port) };
}

/** Waits (bounded) until `check` holds; the test then asserts on the final state, not on the time it took. */
async function settle(check: () => boolean, limitMs = 20_000): Promise<void> {
  for (let waited = 0; !check() && waited < limitMs; waited += 100) await new Promise((r) => setTimeout(r, 100));
}

describe('npm start and signals', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`${signal} sent to the npm process (not the group) stops the service and its embedded PostgreSQL, exit 0, port free`, async () => {
      const { child, dataDir, port } = await startNpm();
      const npmPid = child.proc.pid!;
      expect(child.servicePid()).not.toBeNull();
      process.kill(npmPid, signal);
      const code = await Promise.race([child.exited, new Promise<string>((r) => setTimeout(() => r('still running'), 30_000))]);
      expect(code).toBe(0);
      await settle(() => leftovers(npmPid, dataDir).length === 0);
      expect(leftovers(npmPid, dataDir)).toEqual([]);
      expect(await portFree(port)).toBe(true);
      expect(child.output()).toContain('shutting down');
    });

  it('npm killed outright (SIGKILL to npm only): the service sees its parent gone, drains and stops PostgreSQL', async () => {
    const { child, dataDir, port } = await startNpm();
    const npmPid = child.proc.pid!;
    process.kill(npmPid, 'SIGKILL');
    await child.exited;
    await settle(() => leftovers(npmPid, dataDir).length === 0);
    expect(leftovers(npmPid, dataDir)).toEqual([]);
    expect(await portFree(port)).toBe(true);
  });
});
