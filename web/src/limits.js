// The bounds on the limits a caller may set: for each, the largest value at
// which one call still fits in the core's WebAssembly memory, which is
// capped at 96 MiB (CMakeLists.txt; a Cloudflare Worker has 128 MB for the
// JavaScript heap, the WASM memory and the runtime together). Measured, and
// run at these values by tests/js/memory.test.mjs. The defaults of execute's
// limits live in the core (execution_limits, executor.h);
// docs/limits-and-faults.md explains the numbers.

/**
 * Largest value of each of `createAct({ limits })`. A response of 8 MiB
 * (the default, so it can only be lowered) with 100 000 rows peaks near
 * 57 MiB, and writing its registry's state afterwards (13 MB of JSON) near
 * 71 MiB; a 16 MiB response still translates, but can leave a registry
 * whose state no longer fits. Params of 4 MiB peak near 65 MiB; one string
 * of 2 MiB near 49 MiB (a string costs more: it is validated, copied into
 * the request body and read back in the answer).
 */
export const MAX_LIMITS = Object.freeze({
  maxParamsBytes: 4 << 20,
  maxStringBytes: 2 << 20,
  maxResponseBytes: 8 << 20,
  maxRows: 100_000,
});
/** Largest value of `maxRows`. */
export const MAX_ROWS_LIMIT = MAX_LIMITS.maxRows;
/** `loadCore({ maxInputBytes })` default and largest value: a stateless call of 8 MiB peaks near 96 MiB. */
export const DEFAULT_MAX_INPUT_BYTES = 8 << 20;
/** Largest value of `loadCore({ maxInputBytes })`. */
export const MAX_INPUT_BYTES = DEFAULT_MAX_INPUT_BYTES;

/**
 * `{ limits }` as an execution's settings carry them: only the limits that
 * differ from the core's defaults (`core.executionLimits`), which the core
 * takes for any it is not given; `{}` when none does.
 *
 * @example
 * limitsAsSent({ maxRows: 500, maxParamsBytes: 1048576 }, { maxRows: 10000, maxParamsBytes: 1048576 }) // { limits: { maxRows: 500 } }
 */
export function limitsAsSent(limits, defaults) {
  const changed = Object.entries(limits ?? {}).filter(([key, value]) => defaults[key] !== value);
  return changed.length > 0 ? { limits: Object.fromEntries(changed) } : {};
}
