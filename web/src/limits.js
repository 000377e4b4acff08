// The bounds on the limits a caller may set. The WASM memory is capped at
// 96 MiB (CMakeLists.txt) and one call holds its input, its output and a
// parse of it: no limit may let one call need more than that. The defaults
// of execute's limits live in the core (execution_limits, executor.h);
// docs/limits-and-faults.md explains the numbers.

/** Largest value of a byte limit (`maxInputBytes`, `maxResponseBytes`, `maxParamsBytes`, `maxStringBytes`). */
export const MAX_SIZE_LIMIT = 32 << 20;
/** Largest value of `maxRows`. */
export const MAX_ROWS_LIMIT = 100_000;
/** `loadCore({ maxInputBytes })` default: the same as a response in execute. */
export const DEFAULT_MAX_INPUT_BYTES = 8 << 20;
