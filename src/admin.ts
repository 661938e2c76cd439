// `npm run admin -- add-person --email E --role operator [--name N]`: adds a person from the shell (the first operator).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from './config/config.js';
import { createLogger } from './logging/logger.js';
import { Db } from './db/db.js';
import { migrate } from './db/migrate.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres.js';
import { OffsetClock, systemClock, type Clock } from './platform/clock.js';
import { loadClockOffset } from './engine/test-clock-store.js';
import { resolveSecretKey } from './config/secret-key.js';
import { createIdentityDeps } from './auth/identity-deps.js';
import { addPerson } from './auth/team-service.js';
import { roles, type Role } from './auth/roles.js';
import { DomainError } from './domain/errors.js';

const USAGE = 'usage: npm run admin -- add-person --email <email> --role <viewer|approver|operator> [--name <name>]';

/** The running service's embedded server (postmaster.pid names its port), so the CLI never starts a second one. */
function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  const passwordFile = path.join(dataDir, 'pg-password');
  if (!existsSync(pidFile) || !existsSync(passwordFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  if (!Number.isInteger(port) || port <= 0) return null;
  const password = readFileSync(passwordFile, 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'add-person') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } },
    strict: true,
  });
  const email = values.email?.trim() ?? '';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || !roles.includes(values.role as Role)) {
    process.stderr.write(`error: give a valid --email and a --role of ${roles.join(', ')}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger(config.env.LOG_LEVEL === 'info' ? 'warn' : config.env.LOG_LEVEL);
  let embedded: EmbeddedDatabase | null = null;
  let url = config.env.DATABASE_URL ?? runningEmbeddedUrl(config.dataDir);
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
    url = embedded.url;
  }
  const db = new Db(url, 2);
  try {
    await migrate(db, systemClock);
    // The service's clock: the test clock's stored offset applies when TEST_CLOCK=1.
    const clock: Clock = config.env.TEST_CLOCK ? new OffsetClock(await loadClockOffset(db)) : systemClock;
    const deps = createIdentityDeps({
      db,
      clock,
      logger,
      secretKey: await resolveSecretKey(db, config.env.SECRET_KEY, clock.now()),
      iterations: config.env.PBKDF2_ITERATIONS,
      workspacePassword: config.env.WORKSPACE_PASSWORD ?? null,
    });
    const { person, temporaryPassword } = await addPerson(
      deps,
      { actor: 'admin', actorId: null, actorKind: 'admin' },
      { email, name: values.name ?? null, role: values.role as Role },
      null,
    );
    process.stdout.write(
      `added ${person.email} (${person.role}, id ${person.id})\ntemporary password: ${temporaryPassword}\n` +
        'sign in at /login with it; the Account page then asks for a password of their own\n',
    );
    return 0;
  } finally {
    await db.close();
    if (embedded) await embedded.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    const message = err instanceof ConfigError || err instanceof DomainError ? err.message : err instanceof Error ? err.message : String(err);
    process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  },
);
