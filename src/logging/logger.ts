// Structured JSON logs (pino) with secrets redacted by path.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Paths that may carry credentials; their values never reach a log line. */
const REDACT = [
  'password',
  'token',
  'secret',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** A pino logger to stdout, or to `destination` (tests read the lines a service wrote). */
export function createLogger(level: string, name = 'order-orchestration', destination?: DestinationStream): Logger {
  const options = { name, level, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
