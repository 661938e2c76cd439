// W3C trace context into outbound request headers (`traceparent`, `tracestate`), when tracing is on.
import { context, propagation } from '@opentelemetry/api';
import { spansEnabled } from './spans.js';

/** Adds the active span's `traceparent` (and `tracestate`) to `headers`; leaves them untouched with tracing off. */
export function injectTraceContext(headers: Record<string, string>): void {
  if (!spansEnabled()) return;
  propagation.inject(context.active(), headers);
}
