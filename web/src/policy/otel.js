// OpenTelemetry without depending on it: @opentelemetry/api is an optional
// peer. The Node entry asks for its global tracer once; where the package is
// not installed the answer is null and acts trace nothing. The specifier is
// a variable so that no bundler tries to resolve it when it is absent.
const OTEL_API = '@opentelemetry/api';

let pending = null;

/**
 * @opentelemetry/api's global tracer for alfred-act (a proxy that follows
 * whatever tracer provider the application registers, a no-op until then),
 * or null when the package is not installed.
 *
 * @example
 * const tracer = await globalTracer() // Tracer | null
 */
export function globalTracer() {
  pending ??= import(/* webpackIgnore: true */ /* @vite-ignore */ OTEL_API).then(
    (api) => api?.trace?.getTracer?.('alfred-act') ?? null,
    () => null,
  );
  return pending;
}
