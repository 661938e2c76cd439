// Moves the controllable clock forward, firing due work in due order on the way (contract section 6).
import type { Db } from '../db/db.js';
import type { OffsetClock } from './clock.js';
import type { DueWorkSource } from './due-work.js';
import { saveClockOffset } from './test-clock-store.js';

export class TestClockController {
  private readonly sources: DueWorkSource[] = [];
  private running: Promise<number> = Promise.resolve(0);

  constructor(private readonly clock: OffsetClock, private readonly db: Db) {}

  addSource(source: DueWorkSource): void {
    this.sources.push(source);
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
    for (let guard = 0; guard < 1_000_000; guard++) {
      const candidates = await Promise.all(this.sources.map((s) => s.nextDue(target)));
      let next: (typeof candidates)[number] = null;
      for (const c of candidates) if (c && (!next || c.at < next.at)) next = c;
      if (!next) break;
      this.clock.advanceTo(next.at);
      await saveClockOffset(this.db, this.clock.offset, this.clock.now());
      await next.run();
    }
    const now = this.clock.advanceTo(target);
    await saveClockOffset(this.db, this.clock.offset, now);
    return now;
  }
}
