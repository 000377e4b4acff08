// OpenTelemetry without depending on it: @opentelemetry/api is an optional
// peer. The Node entry asks for its global tracer once; where the package is
// not installed the answer is null and acts trace nothing. The specifier is
// a variable so that no bundler tries to resolve it when it is absent.
const OTEL_API = '@opentelemetry/api';

// Where @opentelemetry/api (major 1) keeps what was registered globally: a
// tracer provider set with trace.setGlobalTracerProvider (or by an SDK's
// start) is under its `trace` key.
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');

let pending = null;

/**
 * @opentelemetry/api's global tracer for alfred-act, or null when the
 * package is not installed or no tracer provider is registered yet (its
 * spans would go nowhere; the package is then not even loaded, which keeps
 * it out of `loadCore`'s time). Register the provider before `loadCore`, as
 * OpenTelemetry's own set-up asks.
 *
 * @example
 * const tracer = await globalTracer() // Tracer | null
 */
export function globalTracer() {
  if (!globalThis[OTEL_GLOBAL]?.trace) return Promise.resolve(null);
  pending ??= import(/* webpackIgnore: true */ /* @vite-ignore */ OTEL_API).then(
    (api) => api?.trace?.getTracer?.('alfred-act') ?? null,
    () => null,
  );
  return pending;
}
