// Makes recorded external calls outside any transaction and row lock, then hands each answer to the runtime.
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { CallTransport } from './call-transport.js';
import { callIdOfTimer, leaseCall, retireCallTimer } from './order-calls.js';
import type { ExternalAnswer } from '../node-type.js';

export interface CallExecutorDeps {
  db: Db;
  clock: Clock;
  transport: CallTransport;
  /** Runs the answer's command (OrderRuntime.answerCall). */
  answer(orderId: string, callId: string, answer: ExternalAnswer): Promise<void>;
  /** This process's name in the timer lease (`claimed_by`). */
  holder: string;
}

/**
 * The handler of `call.perform` timers. A recorded call's timer is due when the slice commits;
 * firing it leases the call (the timer's due time moves past the request's timeout, so a crash
 * while the request is out repeats it later, with the same Idempotency-Key), makes the request
 * with no transaction open, and runs the answer as a command on the order. A call already in
 * flight in this process is not made twice: a second fire (the test clock, a sweep) waits for it.
 */
export class CallExecutor {
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(private readonly deps: CallExecutorDeps) {}

  /** Calls out now in this process. */
  get size(): number {
    return this.inflight.size;
  }

  readonly fire = (timerId: string): Promise<void> => {
    const id = callIdOfTimer(timerId);
    const running = this.inflight.get(id);
    if (running) return running;
    const run = this.perform(id).finally(() => this.inflight.delete(id));
    this.inflight.set(id, run);
    return run;
  };

  private async perform(id: string): Promise<void> {
    const { db, clock, transport } = this.deps;
    const call = await leaseCall(db, id, clock.now(), this.deps.holder);
    if (!call) {
      // Answered already, or its run cancelled it, or another process holds the lease: nothing to make here.
      await retireCallTimer(db, id, clock.now());
      return;
    }
    const got = await transport.send(call.request, call.idempotencyKey, clock.now());
    await this.deps.answer(call.orderId, id, { ...got, attempt: call.attempt, idempotencyKey: call.idempotencyKey });
  }
}
