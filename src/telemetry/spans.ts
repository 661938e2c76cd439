// Manual spans for the engine's own units of work (a command on an order, a step): free when tracing is off.
import { SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('order-orchestration');

/** Set once by the tracing bootstrap (OTEL_EXPORTER_OTLP_ENDPOINT): until then `withSpan` only calls `fn`. */
let enabled = false;

/** Turns manual spans on (called by `startTracing`). */
export function enableSpans(): void {
  enabled = true;
}

/** Whether spans are recorded in this process. */
export function spansEnabled(): boolean {
  return enabled;
}

/**
 * Runs `fn` inside an active span named `name` (a child of the current one), ending it when `fn`
 * settles and marking it as an error when `fn` throws. With tracing off it is a plain call: the
 * engine's hot path pays one boolean test.
 */
export function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span | null) => Promise<T>): Promise<T> {
  if (!enabled) return fn(null);
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Names the active span (the HTTP server span of a request) by its route template, e.g.
 * `POST /api/v1/orders`, and records `http.route`; the HTTP instrumentation alone knows only the method.
 */
export function nameActiveSpan(method: string, route: string): void {
  if (!enabled) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
}
