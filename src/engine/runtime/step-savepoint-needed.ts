// Thrown by a slice that runs steps without savepoints when a step fails: the command reruns with savepoints.

/**
 * A step threw while the slice ran without a SAVEPOINT per step (the fast path: no extra
 * subtransaction, so one transaction id per slice). The transaction may hold the failed step's
 * partial writes, so the whole command is rolled back and run again from the start with a
 * SAVEPOINT around every step, which records the failure exactly as a first run with
 * savepoints would have. Steps only write to PostgreSQL, so the rolled-back attempt leaves
 * nothing behind.
 */
export class StepSavepointNeeded extends Error {
  constructor(
    readonly nodeId: string,
    readonly failure: unknown,
  ) {
    super(`step ${nodeId} failed without a savepoint; rerunning the command with savepoints`);
    this.name = 'StepSavepointNeeded';
  }
}
