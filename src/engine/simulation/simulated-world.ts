// What a simulated run's steps work on: ports over in-memory data, and a savepoint around each body.
import type { SliceOrder, StepPorts } from '../step-store.js';

/**
 * The world a simulation runs its steps against (issue 31): the same ports a real slice hands its
 * steps, implemented over in-memory data (src/commerce/simulated-ports), so nothing a step does
 * reaches the database. `atomically` is the savepoint of the real run host: a body's writes stay
 * when it returns and are taken back when it throws, so a failing step leaves no partial writes.
 */
export interface SimulatedWorld {
  /** The ports over the world, with the simulated order's facts as the run holds them (what a port changes of the order). */
  ports(order: SliceOrder): StepPorts;
  atomically<T>(body: () => Promise<T>): Promise<T>;
}
