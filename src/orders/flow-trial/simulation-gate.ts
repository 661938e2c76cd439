// Who may start a simulation now (contract 14): one caller runs at most 2 at a time and starts at most 20 per minute (429).
import { ConcurrencyGate, type Release } from '../../lib/concurrency-gate.js';
import { WindowLimit } from '../../lib/window-limit.js';
import { DomainError } from '../../domain/errors.js';

export interface SimulationGateLimits {
  /** Simulations one caller runs at once. */
  perCaller: number;
  /** Simulations running at once for all callers (the service's share of the thread). */
  total: number;
  /** Simulations one caller starts per window. */
  perWindow: number;
  windowMs: number;
}

export const SIMULATION_GATE: SimulationGateLimits = Object.freeze({ perCaller: 2, total: 8, perWindow: 20, windowMs: 60_000 });

/** Admits a caller's simulation or refuses it at once (never a queue: the caller is told to come back). */
export class SimulationGate {
  private readonly running: ConcurrencyGate;
  private readonly starts: WindowLimit;

  constructor(readonly limits: SimulationGateLimits = SIMULATION_GATE) {
    this.running = new ConcurrencyGate({ perKey: limits.perCaller, total: limits.total, waiting: 0 });
    this.starts = new WindowLimit(limits.perWindow, limits.windowMs);
  }

  /** A slot for `caller` (give it back with the release), or 429 with Retry-After. */
  async admit(caller: string, now: number): Promise<Release> {
    const release = await this.running.enter(caller);
    if (!release)
      throw new DomainError('simulation_throttled', `Too many simulations at once: at most ${this.limits.perCaller} per caller (and ${this.limits.total} in all); try again in a moment`, 'throttled', {
        retryAfterSeconds: 1,
      });
    const refused = this.starts.take(caller, now);
    if (refused) {
      release();
      throw new DomainError(
        'simulation_throttled',
        `Too many simulations: at most ${this.limits.perWindow} per ${this.limits.windowMs / 1000} seconds; try again in ${refused.retryAfterSeconds} s`,
        'throttled',
        { retryAfterSeconds: refused.retryAfterSeconds },
      );
    }
    return release;
  }

  /** Simulations running now (tests read it). */
  get active(): number {
    return this.running.active;
  }
}
