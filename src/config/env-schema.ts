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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().transform((v) => v ?? 'info'),
  SECRET_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  TRUST_PROXY: flag,
  PBKDF2_ITERATIONS: positiveInt(600_000),
  OUTBOUND_TIMEOUT_MS: positiveInt(10_000),
  OUTBOUND_ALLOW_LOOPBACK: flag,
});

export type EnvConfig = z.output<typeof envSchema>;
