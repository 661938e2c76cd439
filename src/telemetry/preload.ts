// Loaded with `node --import` before the service: with OTEL_EXPORTER_OTLP_ENDPOINT set, installs the ESM hook and starts tracing.
import { register } from 'node:module';

/**
 * ESM modules are instrumented only through a loader hook registered before they are imported
 * (OpenTelemetry `doc/esm-support.md`), hence a preload rather than a call in main.ts. Without the
 * endpoint nothing is registered: no hook, no SDK, and the engine's spans stay plain calls.
 */
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const { startTracing } = await import('./tracing.js');
  startTracing(process.env.SERVICE_NAME || 'order-orchestration');
}
