// Entry point of `npm start`: load config, start the service, print where it listens, stop on signals.
import { loadConfig, ConfigError } from './config/config.js';
import { createLogger } from './logging/logger.js';
import { startService } from './server/service.js';
import { installProcessGuard } from './process-guard.js';
import { runtimeLine } from './runtime-version.js';
import { watchParent } from './parent-watch.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.env.LOG_LEVEL, config.env.SERVICE_NAME, undefined, config.env.LOG_FORMAT);
  // One line naming the runtime before anything else, so a report or a bug says which Node.js ran.
  const runtime = runtimeLine();
  process.stdout.write(`${runtime.line}\n`);
  if (!runtime.supported) logger.warn({ node: process.version }, 'unsupported Node.js version');
  installProcessGuard(logger);
  const service = await startService(config, logger);
  const { workspacePassword } = service.ctx;
  // Human-facing lines go to stdout next to the JSON logs, so `npm start` tells where to go.
  process.stdout.write(`listening on ${service.url}\n`);
  process.stdout.write(`sign in at ${service.url}/login`);
  if (workspacePassword.generated)
    process.stdout.write(` with an empty email and the workspace password ${workspacePassword.value} (kept in ${workspacePassword.file})\n`);
  else if (workspacePassword.file) process.stdout.write(` (workspace password kept in ${workspacePassword.file})\n`);
  else process.stdout.write('\n');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await service.close();
    // Spans still buffered leave before the exit (tracing is loaded only when it is on: src/telemetry/preload.ts).
    if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await (await import('./telemetry/tracing.js')).stopTracing();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // `npm start` forwards SIGTERM/SIGINT (the script execs node); if npm is killed outright, stop as on SIGTERM.
  watchParent(() => void stop('parent exited'));
}

main().catch((err) => {
  process.stderr.write(`error: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
