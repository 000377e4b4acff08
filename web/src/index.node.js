// Node entry: compiles the shipped .wasm from disk once per process.
import { readFile } from 'node:fs/promises';
import { instantiateCore } from './core.js';

export { AlfredError, Core, Registry, kitchen } from './core.js';

let compiled;

/**
 * Loads the alfred-act core. `options.wasmModule` may be a precompiled
 * `WebAssembly.Module`; otherwise the package's `alfred_core.wasm` is compiled
 * (once per process) and instantiated.
 *
 * @example
 * import { loadCore, kitchen } from 'alfred-act'
 * const core = await loadCore()
 */
export async function loadCore(options = {}) {
  if (options.wasmModule) return instantiateCore(options.wasmModule);
  compiled ??= readFile(new URL('../dist/alfred_core.wasm', import.meta.url)).then((bytes) => WebAssembly.compile(bytes));
  return instantiateCore(await compiled);
}
