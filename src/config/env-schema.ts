// Environment variables of runtime-contract section 2, parsed with zod.
import { z } from 'zod';

const flag = z
  .enum(['1', '0', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const positiveInt = (fallback: number) =>
  z.coerce.number().int().positive().optional().transform((v) => v ?? fallback);

export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).optional().transform((v) => v ?? 3000),
  HOST: z.string().min(1).optional().transform((v) => v ?? '127.0.0.1'),
  BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  DATA_DIR: z.string().min(1).optional().transform((v) => v ?? './.data'),
  WORKSPACE_FILE: z.string().min(1).optional(),
  WORKSPACE_PASSWORD: z.string().min(1).optional(),
  SERVICE_NAME: z.string().min(1).max(100).optional().transform((v) => v ?? 'order-orchestration'),
  TEST_CLOCK: flag,
  // Every operation's output checked against its documented schema (a mismatch fails the call): tests and development.
  CHECK_OPERATION_OUTPUTS: flag,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().transform((v) => v ?? 'info'),
  SECRET_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  // Unset/0/false: ignore X-Forwarded-For. 1/true: one trusted proxy in front. n: n proxies (the n-th entry from the right).
  TRUST_PROXY: z
    .string()
    .regex(/^(|0|1|true|false|[2-9]|10)$/, 'must be 1 (one trusted proxy), a hop count up to 10, or unset')
    .optional()
    .transform((v) => (v === undefined || v === '' || v === '0' || v === 'false' ? 0 : v === 'true' ? 1 : Number(v))),
  PBKDF2_ITERATIONS: positiveInt(600_000),
  OUTBOUND_TIMEOUT_MS: positiveInt(10_000),
  OUTBOUND_ALLOW_LOOPBACK: flag,
  // Notifications by email (docs/notifications.md): smtp:// or smtps://, credentials in the URL; never logged.
  // The assistant's optional OpenAI-compatible model (docs/assistant.md): off unless both the URL and the model are set.
  ASSISTANT_PROVIDER_URL: z.url().optional(),
  ASSISTANT_MODEL: z.string().min(1).max(200).optional(),
  ASSISTANT_API_KEY: z.string().min(1).optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL').optional(),
  // Sender of notification emails; default orders@<BASE_URL host>.
  MAIL_FROM: z.email().optional(),
  // Connection limits of the HTTP server (docs/security.md).
  MAX_CONNECTIONS: positiveInt(1_000),
  // Open connections per client address: raw TCP without TRUST_PROXY, websockets by the resolved address always.
  MAX_CONNECTIONS_PER_ADDRESS: positiveInt(100),
  REQUEST_TIMEOUT_MS: positiveInt(30_000),
  // PostgreSQL statement_timeout of the service's pool (docs/configuration.md); 0 = none.
  STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(2_147_483_647).optional().transform((v) => v ?? 5_000),
  // Log lines as JSON, pretty (pino-pretty), or auto: pretty on a terminal outside production (docs/operations.md).
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).optional().transform((v) => v ?? 'auto'),
  // Serve /metrics on its own port (unauthenticated, for a private scrape network) besides the bearer-protected one.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  // OpenTelemetry: traces are exported (OTLP over HTTP) only when this is set (docs/operations.md).
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
});

export type EnvConfig = z.output<typeof envSchema>;
