// One log line per order lifecycle event (started, waiting, completed, declined, failed, rolled back, cancelled).
import type { Logger } from '../logging/logger.js';
import type { SliceObservation } from '../engine/engine-probe.js';

/** Final statuses and the level their line is logged at: an operator alerts on failed and rolled back. */
const ENDINGS: Record<string, 'info' | 'warn'> = {
  completed: 'info',
  declined: 'info',
  cancelled: 'info',
  failed: 'warn',
  rolled_back: 'warn',
};

/**
 * Logs what a committed slice did to its order's lifecycle, with the order id, the flow
 * (`flowId@version`) and how long the order has existed (`durationMs`, service clock). A slice that
 * starts an order and runs it to its end logs both lines. Commands that change no status log nothing
 * here (requests are logged at debug).
 */
export function logOrderLifecycle(logger: Logger, s: SliceObservation): void {
  const base = { orderId: s.orderId, flow: `${s.flowId}@${s.flowVersion}`, durationMs: Math.max(0, s.at - s.createdAt) };
  if (s.command === 'start') logger.info({ ...base, event: 'started' }, 'order started');
  if (s.from === s.to) return;
  const level = ENDINGS[s.to];
  if (level) {
    const event = s.to === 'rolled_back' ? 'rolled back' : s.to;
    logger[level]({ ...base, event: s.to, ...(s.reason ? { reason: s.reason } : {}) }, `order ${event}`);
  } else if (s.to === 'waiting') logger.info({ ...base, event: 'waiting', waitingFor: [...new Set(s.waitKinds)] }, 'order waiting');
}
