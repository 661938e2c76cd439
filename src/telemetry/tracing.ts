// OpenTelemetry tracing: OTLP over HTTP, W3C propagation, HTTP server/client and pg spans, plus the engine's own spans.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { enableSpans } from './spans.js';

/**
 * Attributes no server span carries: the query string holds what callers search for (order search `q=`
 * matches emails and customer ids) and OAuth requests' parameters (`state`, `code_challenge`, `redirect_uri`).
 * The path and the route template stay. Given as undefined, the SDK leaves them out of the span.
 */
const INCOMING_DROPPED = { 'url.query': undefined, 'http.target': undefined, 'url.full': undefined, 'http.url': undefined } as const;

/** Requests that are probes, not work: no trace for them (a scraper or a load balancer polls them constantly). */
const UNTRACED_PATHS = new Set(['/health', '/health/deep', '/metrics']);

let provider: TracerProvider | null = null;

/**
 * Starts tracing for this process. The exporter reads the standard variables itself
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`, …; spans go to `<endpoint>/v1/traces`
 * as OTLP/HTTP JSON). Server spans come from the HTTP
 * instrumentation (the Koa instrumentation is unmaintained and misses composed middleware; the
 * route is set on the span by our own middleware), SQL spans from the pg instrumentation (only
 * under a parent span, so pool housekeeping is not traced), commands and steps from `withSpan`.
 */
export function startTracing(serviceName: string): void {
  if (provider) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || serviceName, 'process.runtime.version': process.version }),
    // OTEL_BSP_SCHEDULE_DELAY (ms between exports, default 5000) as the specification names it; this SDK line reads no OTEL_BSP_*.
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), scheduledDelayMillis: Number(process.env.OTEL_BSP_SCHEDULE_DELAY) || 5_000 })],
  });
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]),
        // The hook's attributes are laid over the instrumentation's own: the query-bearing ones become undefined.
        startIncomingSpanHook: () => ({ ...INCOMING_DROPPED }),
      }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  enableSpans();
}

/** Exports the spans still buffered and stops the exporter (called once the service has drained). */
export async function stopTracing(): Promise<void> {
  const p = provider;
  provider = null;
  await p?.shutdown().catch(() => undefined);
}
