// Decides whether the pid in DATA_DIR/pg/postmaster.pid is our own orphaned postmaster, before anything signals it.
import path from 'node:path';

/** How the decision reads processes (`/proc` and signal 0 in production; fakes in tests). */
export interface ProcessReader {
  /** Whether a process with this pid exists (EPERM from signal 0 counts: it exists, someone else's). */
  alive(pid: number): boolean;
  /** Its argv (`/proc/<pid>/cmdline` split on NUL), or null when unreadable. */
  cmdline(pid: number): string[] | null;
  /** Its working directory (`/proc/<pid>/cwd`; a postmaster's is its data directory), or null when unreadable. */
  cwd(pid: number): string | null;
}

/**
 * `none`: no pid file. `stale`: no PostgreSQL runs with that pid (the file outlived its server;
 * removing it is safe). `ours`: the postmaster of this very data directory, left by a killed run:
 * stop it. `foreign`: a PostgreSQL process we cannot prove is ours: leave it alone and refuse.
 */
export type PostmasterVerdict =
  | { kind: 'none' }
  | { kind: 'stale'; pid: number | null }
  | { kind: 'ours'; pid: number }
  | { kind: 'foreign'; pid: number; message: string };

/** Whether argv[0] is a PostgreSQL server process (the postmaster, or a backend's rewritten title). */
function isPostgres(argv: readonly string[]): boolean {
  const first = argv[0] ?? '';
  return path.basename(first) === 'postgres' || first.startsWith('postgres:');
}

/** The absolute `-D dir`, `-Ddir` or `--pgdata=dir` of a postmaster's argv, or null. */
export function dataDirArgument(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = arg === '-D' ? argv[i + 1] : arg.startsWith('--pgdata=') ? arg.slice(9) : arg.startsWith('-D') ? arg.slice(2) : undefined;
    if (value !== undefined) return value && path.isAbsolute(value) ? value : null;
  }
  return null;
}

/**
 * Reads the pid file (line 1: pid, line 2: the data directory the server wrote it for) and the
 * process. Ours only when both the file's data directory AND the process's own (its cwd, else its
 * `-D` argument) are `pgDir`; `samePath` compares canonical paths. After a reboot or in a
 * container a pid is reused, and the review (L4) saw an unrelated PostgreSQL get SIGINT/SIGKILL.
 */
export function judgePostmasterPid(
  pidFileText: string | null,
  pgDir: string,
  proc: ProcessReader,
  samePath: (a: string, b: string) => boolean,
): PostmasterVerdict {
  if (pidFileText === null) return { kind: 'none' };
  const lines = pidFileText.split('\n');
  const pid = Number(lines[0]?.trim());
  if (!Number.isInteger(pid) || pid <= 0) return { kind: 'stale', pid: null };
  if (!proc.alive(pid)) return { kind: 'stale', pid };
  const argv = proc.cmdline(pid);
  const pidFile = path.join(pgDir, 'postmaster.pid');
  const refuse = (what: string): PostmasterVerdict => ({
    kind: 'foreign',
    pid,
    message:
      `${pidFile} names pid ${pid}, ${what}; it was left alone. Stop that server yourself, or, if no server ` +
      `runs on ${pgDir}, delete ${pidFile} and start again (or set DATABASE_URL to use a server of your own)`,
  });
  if (argv === null) return refuse('a process whose command line cannot be read, so it cannot be told apart from a PostgreSQL server of another data directory');
  if (!isPostgres(argv)) return { kind: 'stale', pid }; // the pid now belongs to something that is not PostgreSQL
  const fileDir = lines[1]?.trim() || null;
  const processDir = proc.cwd(pid) ?? dataDirArgument(argv);
  if (processDir === null) return refuse('a PostgreSQL process whose data directory cannot be read');
  if (!samePath(processDir, pgDir)) return refuse(`a PostgreSQL server of another data directory (${processDir})`);
  if (fileDir === null || !samePath(fileDir, pgDir))
    return refuse(`a PostgreSQL server running in this data directory although the pid file was written for ${fileDir ?? 'no directory'}`);
  return { kind: 'ours', pid };
}
