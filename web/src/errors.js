import { codes } from '../dist/error-codes.mjs';

/**
 * An error from alfred-act with the core's stable shape: `code` to branch on,
 * `path` into the input, `message` to show, `hint` with what is allowed.
 * Functions that return `{ data, error }` never throw it; constructors and
 * loaders (`loadCore`, `createRegistry`) do.
 *
 * @example
 * try { core.createRegistry(savedState) } catch (e) {
 *   if (e instanceof AlfredError && e.code === 'unsupported_state_version') startOver()
 * }
 */
export class AlfredError extends Error {
  /** @param {{code: string, message: string, path?: string, hint?: string}} detail */
  constructor(detail) {
    super(detail.message);
    this.name = 'AlfredError';
    this.code = detail.code;
    this.path = detail.path ?? '';
    this.hint = detail.hint ?? '';
  }

  toJSON() {
    return { code: this.code, message: this.message, path: this.path, hint: this.hint };
  }
}

/**
 * Wraps an unexpected throw from the WASM module as an `{ code, message, path, hint }` value.
 * A C++ exception that reaches JS is an allocation at the boundary that
 * failed (calls inside the core catch their own): `out_of_memory`.
 */
export function internalError(cause) {
  const escaped = typeof WebAssembly.Exception === 'function' && cause instanceof WebAssembly.Exception;
  if (escaped || (cause instanceof RangeError && /allocation failed|out of memory/i.test(cause.message))) {
    return {
      code: codes.out_of_memory,
      message: 'alfred-act core failed: the input needs more memory than the core may use',
      path: '',
      hint: 'use smaller inputs (docs/limits-and-faults.md gives the limits)',
    };
  }
  return {
    code: codes.internal_error,
    message: `alfred-act core failed: ${cause?.message ?? String(cause)}`,
    path: '',
    hint: 'please report this with the input that caused it',
  };
}
