// What one run slice will write, collected from decide's write effects: the shape slice-write.ts writes in one statement.
import type { WriteEffect } from '../run/effects.js';
import type { NewTimer } from '../scheduler/timer-store.js';
import type { NewCall } from './order-calls.js';
import type { OutboxEvent } from './outbox.js';
import type { WaitClose } from './slice-write.js';
import type { TimelineEntry } from './timeline.js';
import type { WaitRow } from './waits.js';
import { sameHold, type HoldClose, type HoldRow } from './holds.js';

/**
 * The slice's write set: waits and holds opened and closed, timers scheduled and cancelled, external calls,
 * timeline entries and order events, as decide asked for them (run/effects.ts). It coalesces what
 * one statement cannot say twice: a wait (or hold) opened and closed in the same slice is inserted closed,
 * and a timer scheduled and cancelled in it is not written at all.
 */
export class SliceRecord {
  readonly timeline: TimelineEntry[] = [];
  readonly events: OutboxEvent[] = [];
  /** Timers committed with this slice; handed to the scheduler's index after commit. */
  readonly timers: NewTimer[] = [];
  /** External calls (made after commit, each woken by its `call.perform` timer). */
  readonly calls: NewCall[] = [];
  /** Waits opened in this slice (inserted at commit, closed ones with their final status). */
  readonly newWaits: WaitRow[] = [];
  /** Waits that were open before the slice and were closed in it. */
  readonly closedWaits: WaitClose[] = [];
  readonly cancelledTimers: { id: string; at: number }[] = [];
  /** Holds opened in this slice (inserted at commit, closed ones with their final status). */
  readonly newHolds: HoldRow[] = [];
  /** Holds that were open before the slice and were closed in it. */
  readonly closedHolds: HoldClose[] = [];
  /** Every pending timer of the order is cancelled at this time (the run ended or was cancelled). */
  cancelAllTimersAt: number | null = null;

  apply(effect: WriteEffect): void {
    switch (effect.type) {
      case 'note':
        this.timeline.push(effect.entry);
        return;
      case 'emit':
        this.events.push(effect.event);
        return;
      case 'schedule':
        this.timers.push(effect.timer);
        return;
      case 'call':
        this.calls.push(effect.call);
        this.timers.push(effect.wakeUp);
        return;
      case 'openWait':
        // A copy: closing it in this slice changes the row to insert, not decide's state.
        this.newWaits.push({ ...effect.wait });
        return;
      case 'closeWait': {
        const { wait, status, at, by, note } = effect;
        const fresh = this.newWaits.find((w) => w.nodeId === wait.nodeId && w.run === wait.run && w.generation === wait.generation);
        if (fresh) Object.assign(fresh, { status, closedAt: at, decidedBy: by, note });
        else this.closedWaits.push({ ...wait, status, closedAt: at, decidedBy: by, note });
        return;
      }
      case 'openHold':
        this.newHolds.push({ ...effect.hold });
        return;
      case 'closeHold': {
        const { hold, status, at, by, note } = effect;
        const fresh = this.newHolds.find((h) => sameHold(h, hold));
        if (fresh) Object.assign(fresh, { status, closedAt: at, resolvedBy: by, note });
        else this.closedHolds.push({ ...hold, status, closedAt: at, resolvedBy: by, note });
        return;
      }
      case 'cancelTimer': {
        // One scheduled in this slice is simply not written.
        const i = this.timers.findIndex((t) => t.id === effect.id);
        if (i >= 0) this.timers.splice(i, 1);
        else this.cancelledTimers.push({ id: effect.id, at: effect.at });
        return;
      }
      case 'cancelAllTimers':
        // Not those this slice schedules: the write's snapshot predates them.
        this.cancelAllTimersAt ??= effect.at;
        return;
      case 'end':
        // The order row carries the outcome (RunState.order).
        return;
    }
  }
}
