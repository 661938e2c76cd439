// Latency samples of one kind of request, summarised as count, p50, p99 and max (milliseconds).

/** A percentile summary, in milliseconds rounded to 0.1 ms. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** Collects samples in memory (a bench run takes at most a few hundred thousand). */
export class LatencyRecorder {
  private readonly samples: number[] = [];

  record(ms: number): void {
    this.samples.push(ms);
  }

  /** Times `fn` and records its duration; rethrows what it throws (then nothing is recorded). */
  async time<T>(fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await fn();
    this.record(performance.now() - started);
    return result;
  }

  get count(): number {
    return this.samples.length;
  }

  summary(): LatencySummary {
    return summarise(this.samples);
  }
}

/** Nearest-rank percentiles of a list of samples. */
export function summarise(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) return { count: 0, p50: 0, p99: 0, max: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
  return { count: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted[sorted.length - 1]) };
}
