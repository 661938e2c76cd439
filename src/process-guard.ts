// Process-level last resort: an exception nothing caught is logged and the service keeps serving.
import type { Logger } from './logging/logger.js';

/**
 * Installs `uncaughtException` and `unhandledRejection` handlers that log the error (with its
 * stack, at fatal/error level) instead of letting Node exit. Every request-derived path catches
 * its own errors (the HTTP error boundary, the upgrade dispatcher, the live socket's action
 * queue), so reaching here is a bug; exiting would turn that bug into a denial of service that
 * one client could repeat, while each request's state lives in its own connection and
 * transaction. Decision and trade-off: docs/security.md "Unexpected exceptions".
 */
export function installProcessGuard(logger: Logger): void {
  process.on('uncaughtException', (err, origin) => {
    logger.fatal({ err, origin }, 'uncaught exception; the service keeps serving');
  });
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
}
