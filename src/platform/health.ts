// Named health checks for /health/deep; each returns true when healthy and must not hang.
export type HealthCheck = () => Promise<boolean>;

export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  /** Runs every check with a timeout; a throw or a timeout is `fail`. */
  async run(timeoutMs = 2_000): Promise<{ ok: boolean; checks: Record<string, 'ok' | 'fail'> }> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        const ok = await Promise.race([check().catch(() => false), timeout]);
        clearTimeout(timer);
        return [name, ok ? 'ok' : 'fail'] as const;
      }),
    );
    const checks = Object.fromEntries(entries);
    return { ok: entries.every(([, s]) => s === 'ok'), checks };
  }
}
