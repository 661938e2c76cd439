// The process guard (security review C1): an exception nothing caught is logged and the process keeps running.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('process guard', () => {
  it('an uncaught exception and an unhandled rejection are logged and the service process keeps serving', () => {
    const script = `
      import { installProcessGuard } from './src/process-guard.ts';
      import { createLogger } from './src/logging/logger.ts';
      installProcessGuard(createLogger('info'));
      setTimeout(() => { throw new Error('boom from a listener'); }, 5);
      Promise.reject(new Error('nobody waited for this'));
      setTimeout(() => { process.stdout.write('STILL SERVING\\n'); process.exit(0); }, 150);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(lines.find((l) => l.level === 60)?.err?.message).toBe('boom from a listener');
    expect(lines.find((l) => l.level === 50)?.err?.message).toBe('nobody waited for this');
    expect(run.stdout).toContain('STILL SERVING');
  });
});
