// What the engine reports as it works (slices committed, timers fired, deliveries attempted): in-process events for metrics and logs.
import { EventEmitter } from 'node:events';

/** The command a slice ran. */
export type SliceCommand = 'start' | 'event' | 'approval' | 'cancel' | 'timer' | 'call' | 'hold';

/** One committed command on an order (emitted after COMMIT, only when the command changed the order). */
export interface SliceObservation {
  orderId: string;
  flowId: string;
  flowVersion: number;
  command: SliceCommand;
  /** The order's status before and after the command. */
  from: string;
  to: string;
  /** Why the order ended, when it did (an End node's reason, a cancel's reason). */
  reason: string | null;
  /** When the order was created (epoch ms, on the service clock), for the lifecycle duration. */
  createdAt: number;
  /** Service clock at commit. */
  at: number;
  /** Wall time of the command: lock, slice, write, commit (ms). */
  ms: number;
  /** Statements the committed attempt sent: the lock message, the slice's own and its steps', the write, COMMIT. */
  statements: number;
  /** Attempts the command took (more than one only when a stale prepared statement sent it to a fresh connection). */
  attempts: number;
  /** Wait kinds the order holds open after the command (approval, event, delay). */
  waitKinds: string[];
}

/** A due timer handed to its handler: how late it was and whether this process won it. */
export interface TimerObservation {
  kind: string;
  /** Service clock minus due time when the handler took it (ms, never negative). */
  lateMs: number;
  /** `fired`: handed to its handler; `gone`: already fired or cancelled by another claimer (a claim conflict). */
  outcome: 'fired' | 'gone';
}

/** One webhook delivery attempt recorded. */
export interface DeliveryObservation {
  /** `delivered` (2xx), `retry` (failed, another attempt scheduled), `failed` (last attempt failed). */
  outcome: 'delivered' | 'retry' | 'failed';
  attempt: number;
}

/** The engine's observation events; listeners must be cheap and must not throw (they run on the command's path). */
export type EngineProbeEvents = {
  slice: [SliceObservation];
  timer: [TimerObservation];
  delivery: [DeliveryObservation];
};

/** One per engine; emitting with no listener costs a map lookup. */
export class EngineProbe extends EventEmitter<EngineProbeEvents> {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}
