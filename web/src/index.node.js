// Node entry: compiles the shipped .wasm from disk once per process.
import { readFile } from 'node:fs/promises';
import { createLoadCore } from './loader.js';

export { AlfredError, Core, Registry, kitchen } from './core.js';

/**
 * Loads the alfred-act core. `options.wasmModule` may be a precompiled
 * `WebAssembly.Module`; otherwise the package's `alfred_core.wasm` is compiled
 * (once per process) and instantiated.
 *
 * @example
 * import { loadCore, kitchen } from 'alfred-act'
 * const core = await loadCore()
 */
export const loadCore = createLoadCore(async () =>
  WebAssembly.compile(await readFile(new URL('../dist/alfred_core.wasm', import.meta.url))),
);
