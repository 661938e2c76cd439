// Structured logs (pino) with secrets redacted by path: JSON lines, or pino-pretty on a developer's terminal.
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

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

/** LOG_FORMAT: `json`, `pretty`, or `auto` (pretty when stdout is a terminal and NODE_ENV is not production). */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** Whether `auto` means pretty here: a person is watching (a TTY) and this is not a production process. */
export function prettyWanted(format: LogFormat, isTty = Boolean(process.stdout.isTTY), nodeEnv = process.env.NODE_ENV): boolean {
  if (format !== 'auto') return format === 'pretty';
  return isTty && nodeEnv !== 'production';
}

/**
 * A pino logger to stdout, or to `destination` (tests read the lines a service wrote). Pretty
 * output is formatted in-process (a synchronous stream, no worker thread), after redaction.
 */
export function createLogger(level: string, name = 'order-orchestration', destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const options = { name, level, redact: { paths: REDACT, censor: '[redacted]' } };
  if (destination) return pino(options, destination);
  if (prettyWanted(format)) return pino(options, pretty({ colorize: true, sync: true, ignore: 'pid,hostname,name', translateTime: 'SYS:HH:MM:ss.l' }));
  return pino(options);
}
