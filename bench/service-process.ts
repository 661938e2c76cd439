// Starts the real service (`node --import tsx src/main.ts`, what `npm start` runs) as a child process for a bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServiceOptions {
  databaseUrl: string;
  redisUrl?: string | null;
  workspaceFile: string;
  password: string;
  testClock?: boolean;
  /** Extra node flags (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Extra environment (e.g. OUTBOUND_ALLOW_LOOPBACK). */
  env?: Record<string, string>;
  /** A label for error messages ("node A"). */
  label?: string;
}

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Resident set size of the service process, bytes (from /proc). */
  rss(): number;
  /** Everything the process printed (the tail, for error messages). */
  output(): string;
  /** SIGTERM, then SIGKILL after a grace period; resolves when it exited. */
  stop(): Promise<void>;
}

/** Reads VmRSS of a process from /proc, in bytes. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

/** Spawns the service and resolves once it printed `listening on <url>`. */
export async function startService(options: ServiceOptions, timeoutMs = 90_000): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oo-bench-data-'));
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'DATABASE_URL', 'REDIS_URL', 'TEST_CLOCK', 'WORKSPACE_FILE'].includes(k) && !k.startsWith('VITEST')),
  ) as Record<string, string>;
  const env: Record<string, string> = {
    ...inherited,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: options.databaseUrl,
    WORKSPACE_FILE: options.workspaceFile,
    WORKSPACE_PASSWORD: options.password,
    LOG_LEVEL: 'warn',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...(options.testClock ? { TEST_CLOCK: '1' } : {}),
    ...(options.env ?? {}),
  };
  const proc: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/main.ts'], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (c: Buffer) => {
    out += c.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const label = options.label ?? 'service';
  const url = await new Promise<string>((resolve, reject) => {
    const started = Date.now();
    const tick = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(tick);
        resolve(m[1]);
      } else if (proc.exitCode !== null || Date.now() - started > timeoutMs) {
        clearInterval(tick);
        proc.kill('SIGKILL');
        reject(new Error(`${label} did not start: ${out.slice(-2000)}`));
      }
    }, 50);
  });
  const pid = proc.pid!;
  return {
    url,
    pid,
    rss: () => rssOf(pid),
    output: () => out,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const force = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(force);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
