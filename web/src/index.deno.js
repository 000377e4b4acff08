// Deno entry: a source-phase import gives the compiled WebAssembly.Module
// without --allow-read (Deno ≥ 2.6).
import source wasm from '../dist/alfred_core.wasm';
import { createLoadCore } from './loader.js';

export { AlfredError, Core, Registry, kitchen } from './core.js';

/**
 * Loads the alfred-act core from the module Deno compiled at import time, or
 * from `options.wasmModule` when given.
 *
 * @example
 * import { loadCore } from 'alfred-act'
 * const core = await loadCore()
 */
export const loadCore = createLoadCore(async () => wasm);
