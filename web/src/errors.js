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

/** Wraps an unexpected throw from the WASM module as an `{ code, message, path, hint }` value. */
export function internalError(cause) {
  return {
    code: 'internal_error',
    message: `alfred-act core failed: ${cause?.message ?? String(cause)}`,
    path: '',
    hint: 'please report this with the input that caused it',
  };
}
