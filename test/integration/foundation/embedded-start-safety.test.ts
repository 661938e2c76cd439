// Security review L4 on real processes and directories: start-up signals only its own orphan postmaster
// and never loosens the permissions of DATA_DIR's parents.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, stopOrphanPostmaster } from '../../../src/db/embedded-postgres.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'oo-l4-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A harmless stand-in for a PostgreSQL server: a sleeping node process whose argv[0] is `postgres`,
 * running in `dataDir` with `-D dataDir`, as a postmaster does. Resolves once /proc shows it so.
 */
async function fakePostmaster(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', '-D', dataDir], { argv0: 'postgres', cwd: dataDir, stdio: 'ignore' });
  children.push(child);
  for (let i = 0; i < 100; i++) {
    const cmdline = (() => {
      try {
        return readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    })();
    if (cmdline.startsWith('postgres\0')) return child;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('fake postmaster did not start');
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));

describe('orphan recovery signals only our own postmaster (L4)', () => {
  it('a pid file naming a PostgreSQL of another data directory (a reused pid) leaves it running and fails with a clear message', async () => {
    const dataDir = tempDir();
    const pgDir = path.join(dataDir, 'pg');
    mkdirSync(pgDir);
    const otherDir = tempDir();
    const other = await fakePostmaster(otherDir);
    // The pid file claims our directory (as it would after a reboot), but the process runs elsewhere.
    writeFileSync(path.join(pgDir, 'postmaster.pid'), `${other.pid}\n${pgDir}\n1732400000\n5432\n\n127.0.0.1\n`);

    await expect(stopOrphanPostmaster(pgDir, () => undefined)).rejects.toThrow(
      new RegExp(`names pid ${other.pid}, a PostgreSQL server of another data directory .*left alone`),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(isAlive(other.pid!)).toBe(true);
    expect(existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(true); // evidence kept for the operator
  });

  it('our own orphan (pid file and process both on our data directory) is still stopped and its pid file removed', async () => {
    const dataDir = tempDir();
    const pgDir = path.join(dataDir, 'pg');
    mkdirSync(pgDir);
    const orphan = await fakePostmaster(pgDir);
    writeFileSync(path.join(pgDir, 'postmaster.pid'), `${orphan.pid}\n${pgDir}\n1732400000\n5432\n\n127.0.0.1\n`);

    await stopOrphanPostmaster(pgDir, () => undefined);
    await exited(orphan);
    expect(orphan.signalCode).toBe('SIGINT');
    expect(existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);
  });

  it('a pid file whose pid is gone is stale: removed, nothing signalled', async () => {
    const pgDir = path.join(tempDir(), 'pg');
    mkdirSync(pgDir);
    writeFileSync(path.join(pgDir, 'postmaster.pid'), `2147483646\n${pgDir}\n`);
    await stopOrphanPostmaster(pgDir, () => undefined);
    expect(existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);
  });
});

describe('start-up and the permissions of DATA_DIR parents (L4, decided in docs/security.md)', () => {
  it.skipIf(process.getuid?.() !== 0)(
    "as root, another user's mode-0700 parent the server user cannot enter fails the start naming it, and stays 0700",
    async () => {
      const parent = tempDir();
      chmodSync(parent, 0o700);
      chownSync(parent, 65534, 65534); // nobody's directory: not the service's to change
      const dataDir = path.join(parent, 'app', 'data');
      let started: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
      const attempt = startEmbeddedPostgres({ dataDir, settings: { fsync: 'off' } }).then((s) => {
        started = s; // the old code loosened the parent and started: stop that server, then fail below
        return s;
      });
      try {
        await expect(attempt).rejects.toThrow(new RegExp(`cannot enter ${parent} \\(mode 0700, owner uid 65534\\).*another user.*DATA_DIR.*DATABASE_URL`));
      } finally {
        await (started as { stop(): Promise<void> } | null)?.stop();
      }
      expect(statSync(parent).mode & 0o777).toBe(0o700);
    },
    60_000,
  );

  it.skipIf(process.getuid?.() !== 0)(
    "as root, its own mode-0700 parent (a mktemp directory, /root) gets the search bit for others only, and the change is a warning naming it",
    async () => {
      const parent = tempDir();
      chmodSync(parent, 0o700);
      const dataDir = path.join(parent, 'app', 'data');
      const warnings: string[] = [];
      const db = await startEmbeddedPostgres({ dataDir, settings: { fsync: 'off' }, warn: (m) => warnings.push(m) });
      await db.stop();
      expect(statSync(parent).mode & 0o777).toBe(0o701);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`${parent} (owned by root)`);
      expect(warnings[0]).toContain('700 -> 701');
    },
    60_000,
  );
});
