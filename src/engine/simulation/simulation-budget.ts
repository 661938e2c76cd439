// A simulation's budget (contract 14): at most 1,000 slices or 2 s of CPU; it yields to other work as it goes.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { DomainError } from '../../domain/errors.js';

export interface SimulationLimits {
  /** Commands applied (start, events, decisions, fired timers, call answers) at most. */
  slices: number;
  /** CPU time of this thread spent on the simulation, in ms, at most. */
  cpuMs: number;
}

export const SIMULATION_LIMITS: SimulationLimits = Object.freeze({ slices: 1_000, cpuMs: 2_000 });

/** How long one stretch of simulation runs before it lets other work (requests, real orders) in, in ms of CPU. */
const STRETCH_MS = 10;

/** CPU time of the current thread in ms (process.threadCpuUsage: user + system). */
export type CpuMeter = () => number;

export const threadCpuMs: CpuMeter = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** A simulation past its budget: 400 saying which (nothing of it survives anyway). */
export class SimulationBudgetError extends DomainError {
  constructor(readonly which: 'slices' | 'cpu', limits: SimulationLimits) {
    super(
      'simulation_budget',
      which === 'slices'
        ? `The simulation passed its budget of ${limits.slices.toLocaleString('en-US')} slices (a flow that keeps running on its timers: shorten the script's advances)`
        : `The simulation passed its budget of ${limits.cpuMs / 1000} s of CPU`,
      'invalid_input',
      { budget: which },
    );
    this.name = 'SimulationBudgetError';
  }
}

/**
 * Counts a simulation's slices and CPU. The run is in memory, so its awaits resolve at once and
 * would hold the thread for the whole run: `checkpoint` ends a stretch every 10 ms of CPU and lets
 * the event loop serve others before the next one. Only the stretches count towards the CPU
 * budget, so time spent on other work in between is not charged to the simulation.
 */
export class SimulationBudget {
  slices = 0;
  /** CPU spent in finished stretches, in ms. */
  private spent = 0;
  private stretchFrom: number;

  constructor(readonly limits: SimulationLimits = SIMULATION_LIMITS, private readonly cpu: CpuMeter = threadCpuMs) {
    this.stretchFrom = cpu();
  }

  /** CPU used so far, the running stretch included, in ms. */
  get cpuMs(): number {
    return this.spent + (this.cpu() - this.stretchFrom);
  }

  /** One more command applied; past the slice budget it throws. */
  slice(): void {
    this.slices += 1;
    if (this.slices > this.limits.slices) throw new SimulationBudgetError('slices', this.limits);
  }

  /** Throws past the CPU budget; after a stretch of 10 ms, yields to the event loop. */
  async checkpoint(): Promise<void> {
    const stretch = this.cpu() - this.stretchFrom;
    if (this.spent + stretch > this.limits.cpuMs) throw new SimulationBudgetError('cpu', this.limits);
    if (stretch < STRETCH_MS) return;
    this.spent += stretch;
    await yieldToLoop();
    this.stretchFrom = this.cpu();
  }
}
