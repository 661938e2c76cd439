// What one run slice will write, collected in memory while it runs: the effects to persist, apart from the driving.
import type { NewTimer } from '../scheduler/timer-store.js';
import type { NewCall } from './order-calls.js';
import type { OutboxEvent } from './outbox.js';
import type { WaitClose } from './slice-write.js';
import type { TimelineEntry } from './timeline.js';
import type { WaitRow } from './waits.js';

const sameWait = (a: { nodeId: string; run: number; generation: number }) => (b: WaitRow) =>
  b.nodeId === a.nodeId && b.run === a.run && b.generation === a.generation;

/**
 * The slice's write set: node records it touched, waits opened and closed, timers scheduled and
 * cancelled, external calls, timeline entries and order events. RunSlice decides and drives; this
 * only keeps what was decided, in the shape slice-write.ts writes in one statement at commit.
 * It also keeps the open waits as order_waits will hold them after the commit.
 */
export class SliceRecord {
  readonly dirtyNodes = new Set<string>();
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
  /** Every pending timer of the order is cancelled at this time (the run ended or was cancelled). */
  cancelAllTimersAt: number | null = null;
  private open: WaitRow[];

  constructor(openWaits: readonly WaitRow[]) {
    this.open = [...openWaits];
  }

  /** Open waits in (since, node id) order, as they stand in this slice. */
  get openWaits(): readonly WaitRow[] {
    return this.open;
  }

  touch(nodeId: string): void {
    this.dirtyNodes.add(nodeId);
  }

  note(entry: TimelineEntry): void {
    this.timeline.push(entry);
  }

  emit(event: OutboxEvent): void {
    this.events.push(event);
  }

  schedule(timer: NewTimer): void {
    this.timers.push(timer);
  }

  call(call: NewCall, wakeUp: NewTimer): void {
    this.calls.push(call);
    this.timers.push(wakeUp);
  }

  openWait(wait: WaitRow): void {
    this.newWaits.push(wait);
    this.open.push(wait);
    this.open.sort((a, b) => a.since - b.since || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
  }

  /** Closes an open wait; one already closed is left alone (the UPDATE … AND status = 'open' would change nothing either). */
  closeWait(wait: WaitRow, status: string, at: number, by: string | null = null, note: string | null = null): void {
    const same = sameWait(wait);
    if (!this.open.some(same)) return;
    this.open = this.open.filter((w) => !same(w));
    const fresh = this.newWaits.find(same);
    if (fresh) Object.assign(fresh, { status, closedAt: at, decidedBy: by, note });
    else this.closedWaits.push({ nodeId: wait.nodeId, run: wait.run, generation: wait.generation, status, closedAt: at, decidedBy: by, note });
  }

  /** Cancels a pending timer; one scheduled in this slice is simply not written. */
  cancelTimer(id: string, at: number): void {
    const i = this.timers.findIndex((t) => t.id === id);
    if (i >= 0) this.timers.splice(i, 1);
    else this.cancelledTimers.push({ id, at });
  }

  /** Closes every open wait and cancels the order's pending timers (not those this slice schedules later: the write's snapshot predates them). */
  closeAll(status: string, at: number): void {
    for (const w of [...this.open]) this.closeWait(w, status, at);
    this.cancelAllTimersAt ??= at;
  }

  /** The touched node ids, forgotten (they are being written). */
  takeDirtyNodes(): string[] {
    const ids = [...this.dirtyNodes];
    this.dirtyNodes.clear();
    return ids;
  }
}
