// Moves the controllable clock forward, firing due work in due order on the way (contract section 6).
import type { Db } from '../db/db.js';
import type { OffsetClock } from '../platform/clock.js';
import type { DueWorkSource } from './due-work.js';
import { saveClockOffset } from './test-clock-store.js';

export class TestClockController {
  private readonly sources: DueWorkSource[] = [];
  private readonly afterAdvance: (() => Promise<void>)[] = [];
  private running: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly clock: OffsetClock,
    private readonly db: Db,
    private readonly onError: (err: unknown, source: string, key: string) => void = () => undefined,
  ) {}

  addSource(source: DueWorkSource): void {
    this.sources.push(source);
  }

  /** Runs after every advance (e.g. the scheduler re-reads what moved into its horizon). */
  onAdvanced(hook: () => Promise<void>): void {
    this.afterAdvance.push(hook);
  }

  /**
   * Advances to `target` (never backward). Repeatedly takes the earliest due item over every
   * source, stands the clock at its due time, runs it, until nothing up to `target` is due.
   * Calls are serialised so two advances never interleave.
   */
  advanceTo(target: number): Promise<number> {
    const run = this.running.then(() => this.doAdvance(target), () => this.doAdvance(target));
    this.running = run.catch(() => 0);
    return run;
  }

  private async doAdvance(target: number): Promise<number> {
    // Items whose run failed are skipped for the rest of this advance (their own retry rules apply later).
    const failed = new Map<DueWorkSource, string[]>(this.sources.map((s) => [s, []]));
    // Kept in PostgreSQL before anything fires, not once per item (a write per fired timer): a
    // restart in the middle of an advance resumes at the target, where what had not fired yet
    // is overdue and fires at start.
    const offsetAtTarget = target - (this.clock.now() - this.clock.offset);
    if (offsetAtTarget > this.clock.offset) await saveClockOffset(this.db, offsetAtTarget, target);
    for (;;) {
      const candidates = await Promise.all(this.sources.map(async (s) => ({ source: s, item: await s.nextDue(target, failed.get(s)!) })));
      let next: (typeof candidates)[number] | null = null;
      for (const c of candidates) if (c.item && (!next || c.item.at < next.item!.at)) next = c;
      if (!next?.item) break;
      this.clock.advanceTo(next.item.at);
      try {
        await next.item.run();
      } catch (err) {
        failed.get(next.source)!.push(next.item.key);
        this.onError(err, next.source.name, next.item.key);
      }
    }
    const now = this.clock.advanceTo(target);
    await saveClockOffset(this.db, this.clock.offset, now);
    for (const hook of this.afterAdvance) await hook();
    return now;
  }
}
