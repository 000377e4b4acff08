// Cloudflare Workers entry: workerd and wrangler turn a .wasm import into a
// compiled WebAssembly.Module, because Workers refuse to compile from bytes.
import wasm from '../dist/alfred_core.wasm';
import { createLoadCore } from './loader.js';

export { AlfredError, Core, Registry, kitchen } from './core.js';

/**
 * Loads the alfred-act core from the module the Workers runtime imported, or
 * from `options.wasmModule` when given.
 *
 * @example
 * import { loadCore } from 'alfred-act'
 * const core = await loadCore()
 */
export const loadCore = createLoadCore(async () => wasm);
