// Runs flow layouts off the thread that serves requests (contract 13 "Drawing cost"): a bounded pool of layout threads, a bounded queue, a time budget per layout.
import { Worker } from 'node:worker_threads';
import type { LayoutRequest, LayoutResult } from './flow-layout.js';

/**
 * How one layout ended: laid out; stopped at its budget (the thread is ended and replaced); refused because
 * the queue was full; or failed (the thread died: out of memory, a bug in the layout).
 */
export type LayoutOutcome =
  | { kind: 'laid-out'; result: LayoutResult }
  | { kind: 'over-budget' }
  | { kind: 'busy' }
  | { kind: 'failed'; message: string };

export interface LayoutPoolOptions {
  /** Layout threads at most (default 1: drawing never takes more than one core from the service). */
  threads?: number;
  /**
   * Time one layout may take on its thread, in ms (default 2000). Measured as wall time from the moment the
   * layout reaches its own dedicated thread: a thread cannot use more CPU than the wall time it runs, so this
   * is the contract's 2 s CPU budget, kept conservatively (a busy machine ends a layout a little early).
   */
  budgetMs?: number;
  /** Layouts waiting for a thread at most (default 8); one more is answered `busy` at once, so waiting work stays bounded. */
  maxQueued?: number;
  /** Heap of one layout thread (default 512 MiB): a layout that needs more ends its thread and counts as failed. */
  maxHeapMb?: number;
}

interface Job {
  request: LayoutRequest;
  resolve(outcome: LayoutOutcome): void;
}

/** One layout thread and the job it is running (its timer starts when the thread has loaded and takes the job). */
interface Slot {
  worker: Worker;
  ready: boolean;
  job: (Job & { id: number; timer: NodeJS.Timeout | null }) | null;
}

const WORKER_URL = new URL('./layout-worker.mjs', import.meta.url);

export class LayoutPool {
  private readonly threads: number;
  private readonly budgetMs: number;
  private readonly maxQueued: number;
  private readonly maxHeapMb: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Layouts handed to a thread so far, and those ended at their budget (tests and metrics read them). */
  started = 0;
  overBudget = 0;

  constructor(options: LayoutPoolOptions = {}) {
    this.threads = Math.max(1, options.threads ?? 1);
    this.budgetMs = options.budgetMs ?? 2000;
    this.maxQueued = options.maxQueued ?? 8;
    this.maxHeapMb = options.maxHeapMb ?? 512;
  }

  /** Lays `request` out on a layout thread; never rejects. */
  run(request: LayoutRequest): Promise<LayoutOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'busy' });
    return new Promise((resolve) => {
      const idle = this.idleSlot();
      if (idle) return this.start(idle, { request, resolve });
      if (this.queue.length >= this.maxQueued) return resolve({ kind: 'busy' });
      this.queue.push({ request, resolve });
    });
  }

  /** Ends every thread; layouts running or waiting are answered `busy`. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve({ kind: 'busy' });
    await Promise.all([...this.slots].map((slot) => this.end(slot, { kind: 'busy' })));
  }

  /** A thread with nothing to do, started when the pool has fewer than its bound (threads start on first use). */
  private idleSlot(): Slot | null {
    for (const slot of this.slots) if (!slot.job) return slot;
    if (this.slots.size >= this.threads) return null;
    const slot: Slot = { worker: this.spawn(), ready: false, job: null };
    this.slots.add(slot);
    slot.worker.on('message', (msg: { ready?: true; id?: number; result?: LayoutResult; error?: string }) => {
      if (msg.ready) {
        slot.ready = true;
        if (slot.job) this.post(slot);
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      if (job.timer) clearTimeout(job.timer);
      slot.job = null;
      slot.worker.unref();
      job.resolve(msg.result ? { kind: 'laid-out', result: msg.result } : { kind: 'failed', message: msg.error ?? 'layout failed' });
      this.next();
    });
    // A thread that dies (out of memory, a crash) fails its job and is replaced on the next use.
    slot.worker.on('error', (err: Error) => void this.end(slot, { kind: 'failed', message: err.message }));
    slot.worker.on('exit', () => {
      if (this.slots.delete(slot) && slot.job) {
        if (slot.job.timer) clearTimeout(slot.job.timer);
        slot.job.resolve({ kind: 'failed', message: 'the layout thread stopped' });
        slot.job = null;
      }
      this.next();
    });
    return slot;
  }

  private spawn(): Worker {
    // No execArgv: the thread loads plain JavaScript and must not run the parent's --import hooks (tsx, telemetry).
    const worker = new Worker(WORKER_URL, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb } });
    worker.unref();
    return worker;
  }

  private start(slot: Slot, job: Job): void {
    this.started++;
    slot.job = { ...job, id: this.nextId++, timer: null };
    // A thread with work keeps the process up; an idle one does not.
    slot.worker.ref();
    if (slot.ready) this.post(slot);
  }

  /** Hands the slot's job to its loaded thread and starts the budget. */
  private post(slot: Slot): void {
    const job = slot.job!;
    // Past its budget the layout is abandoned: the thread is ended (the only way to stop synchronous work) and replaced.
    job.timer = setTimeout(() => {
      this.overBudget++;
      void this.end(slot, { kind: 'over-budget' });
    }, this.budgetMs);
    slot.worker.postMessage({ id: job.id, request: job.request });
  }

  /** Ends a thread, answering its job with `outcome`. */
  private async end(slot: Slot, outcome: LayoutOutcome): Promise<void> {
    if (!this.slots.delete(slot)) return;
    const job = slot.job;
    slot.job = null;
    if (job) {
      if (job.timer) clearTimeout(job.timer);
      job.resolve(outcome);
    }
    await slot.worker.terminate().catch(() => undefined);
    this.next();
  }

  /** Starts the oldest waiting job when a thread is free. */
  private next(): void {
    if (this.closed || this.queue.length === 0) return;
    const slot = this.idleSlot();
    if (slot) this.start(slot, this.queue.shift()!);
  }
}
