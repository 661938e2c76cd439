// Structured JSON logs (pino) with secrets redacted by path.
import { pino, type Logger } from 'pino';

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

export function createLogger(level: string, name = 'order-orchestration'): Logger {
  return pino({ name, level, redact: { paths: REDACT, censor: '[redacted]' } });
}
