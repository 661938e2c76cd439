// Composition root: config -> database -> migrations -> clock -> workspace -> auth -> HTTP.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import type Koa from 'koa';
import type { Config } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded-postgres.js';
import { OffsetClock, systemClock, type Clock } from '../platform/clock.js';
import { loadClockOffset } from '../engine/test-clock-store.js';
import { TestClockController } from '../engine/test-clock-controller.js';
import { applyWorkspace } from '../config/apply-workspace.js';
import { resolveSecretKey } from '../config/secret-key.js';
import { resolveWorkspacePassword } from '../config/workspace-password.js';
import { teamIsEmpty } from '../auth/team-size.js';
import { Authenticator } from '../auth/authenticator.js';
import { HealthRegistry } from '../platform/health.js';
import { createApp } from '../http/create-app.js';
import { attachUpgradeDispatcher } from '../transport/upgrade-dispatcher.js';
import { createLimitedServer } from '../http/connection-limits.js';
import { WebsocketRegistry } from '../transport/websocket-registry.js';
import { systemRoutes } from '../http/routes/system-routes.js';
import { buildOpenApi } from '../http/openapi.js';
import type { HttpRoute } from '../http/route.js';
import { OperationRegistry } from '../application/operation-registry.js';
import { bindOperation } from '../http/rest/rest-binding.js';
import { REST_BINDINGS } from '../http/rest/rest-bindings.js';
import { serviceModules } from './modules.js';
import type { ModuleHooks } from './service-module.js';
import type { ServiceContext, StartOptions } from './service-context.js';

export type { ServiceContext, StartOptions } from './service-context.js';

export interface RunningService {
  ctx: ServiceContext;
  app: Koa;
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

async function openDatabase(config: Config, logger: Logger, settings?: Record<string, string>) {
  if (config.env.DATABASE_URL) return { url: config.env.DATABASE_URL, embedded: null as EmbeddedDatabase | null };
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    settings,
    log: (m) => logger.debug({ component: 'embedded-postgres' }, m),
    warn: (m) => logger.warn({ component: 'embedded-postgres' }, m),
  });
  logger.info({ port: embedded.port, socket: embedded.localUrl !== embedded.url }, 'embedded PostgreSQL started');
  // The service sits next to its embedded server: it connects over the Unix socket when there is one.
  return { url: embedded.localUrl, embedded };
}

export async function startService(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningService> {
  const { url: dbUrl, embedded } = await openDatabase(config, logger, options.embeddedSettings);
  const cleanups: (() => Promise<void>)[] = [];
  if (embedded) cleanups.push(() => embedded.stop());
  try {
    const db = new Db(dbUrl, 20, { statementTimeoutMs: config.env.STATEMENT_TIMEOUT_MS });
    cleanups.unshift(() => db.close());
    await migrate(db, systemClock);

    let clock: Clock = systemClock;
    let testClock: TestClockController | null = null;
    if (config.env.TEST_CLOCK) {
      const offsetClock = new OffsetClock(await loadClockOffset(db));
      clock = offsetClock;
      testClock = new TestClockController(offsetClock, db, (err, source, key) =>
        logger.error({ err, source, key }, 'due work failed while the test clock advanced'),
      );
    }
    await db.tx((client) => applyWorkspace(client, config.workspace, config.workspaceSource, clock.now()));
    const secretKey = await resolveSecretKey(db, config.env.SECRET_KEY, clock.now());
    if (!config.env.SECRET_KEY)
      logger.warn(
        'SECRET_KEY is not set: the key sealing integration and webhook secrets is kept in the database beside them, so a database backup reveals them; set SECRET_KEY in production (docs/security.md)',
      );
    const workspacePassword = await resolveWorkspacePassword(config.env.WORKSPACE_PASSWORD, config.dataDir, await teamIsEmpty(db));

    let redis: Redis | null = null;
    if (config.env.REDIS_URL) {
      redis = new Redis(config.env.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false });
      redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
      const r = redis;
      cleanups.unshift(async () => void (await r.quit().catch(() => r.disconnect())));
    }

    const health = new HealthRegistry();
    health.register('database', async () => (await db.query('SELECT 1 AS ok')).rows[0].ok === 1);
    if (redis) {
      const r = redis;
      health.register('redis', async () => (await r.ping()) === 'PONG');
    }

    // Bearer resolvers and the workspace-password fallback are added by the identity module (src/app/identity-module.ts).
    const auth = new Authenticator();
    // Known once the server listens (PORT=0 picks a port); BASE_URL wins when set.
    let baseUrl = config.env.BASE_URL ?? `http://${config.env.HOST}:${config.env.PORT}`;
    const routes: HttpRoute[] = [];
    const operations = new OperationRegistry({ checkOutputs: config.env.CHECK_OPERATION_OUTPUTS });
    let openApiDoc: Record<string, unknown> | null = null;
    routes.push(
      ...systemRoutes({
        serviceName: config.env.SERVICE_NAME,
        health,
        openApi: () => (openApiDoc ??= buildOpenApi(routes, { title: 'Order Orchestration Service', version: '1.0.0', baseUrl })),
      }),
    );

    const ctx: ServiceContext = {
      config, logger, db, clock, testClock, secretKey, workspacePassword, redis, auth, health, operations, routes,
      baseUrl: () => baseUrl,
      engine: null,
      startOptions: options,
      websockets: new WebsocketRegistry({ perAddress: config.env.MAX_CONNECTIONS_PER_ADDRESS, ...options.websockets }),
    };
    const hooks: ModuleHooks[] = [];
    for (const mod of serviceModules) hooks.push(await mod(ctx));
    // REST is one binding of the registry: every bound operation becomes a route beside the raw ones.
    for (const binding of REST_BINDINGS) {
      const route = bindOperation(operations, binding);
      if (route) routes.push(route);
    }
    const app = createApp({
      logger,
      auth,
      routes,
      proxyHops: config.env.TRUST_PROXY,
      before: hooks.flatMap((h) => h.before ?? []),
      extraRouters: hooks.flatMap((h) => h.routers ?? []),
    });
    const handle = app.callback();
    const server = createLimitedServer((req, res) => void handle(req, res), {
      maxConnections: config.env.MAX_CONNECTIONS,
      // Behind trusted proxies every connection comes from a proxy: the per-address cap is theirs (docs/security.md).
      maxConnectionsPerAddress: config.env.TRUST_PROXY > 0 ? null : config.env.MAX_CONNECTIONS_PER_ADDRESS,
      requestTimeoutMs: config.env.REQUEST_TIMEOUT_MS,
    });
    attachUpgradeDispatcher(server, hooks.flatMap((h) => h.upgrades ?? []), { logger });
    if (options.listen !== false)
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.env.PORT, config.env.HOST, () => resolve());
      });
    const address = server.address() as AddressInfo | null;
    const url = address ? `http://${config.env.HOST}:${address.port}` : baseUrl;
    if (!config.env.BASE_URL) baseUrl = url;
    for (const h of hooks) {
      if (h.start) await h.start();
      if (h.stop) cleanups.unshift(h.stop);
    }

    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        // Keep-alive connections left idle by requests that finish during the drain are closed as they
        // go idle (not kept to the 5 s cut), so a SIGTERM exits as soon as the last request is answered.
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      for (const cleanup of cleanups) await cleanup().catch((err) => logger.warn({ err }, 'cleanup failed'));
    };
    return { ctx, app, server, url, close };
  } catch (err) {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    throw err;
  }
}
