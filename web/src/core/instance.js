// An instance of the compiled core: what em++'s glue did, for the one way
// the package uses the module. The module imports two functions (grow the
// memory, abort) and exports its memory, its static constructors and the
// `alfred_*` calls, under the minified names scripts/generate-wasm-names.mjs
// reads from the glue at build time (web/dist/alfred_core.mjs).
import { FUNCTIONS, MODULE } from '../../dist/alfred_core.mjs';

const PAGE = 65536;

/**
 * `{ HEAPU8, _alfred_… }` over a new instance of `wasmModule`: HEAPU8 views
 * the whole memory, a new view once the memory has grown (the old one is
 * detached then).
 */
export function instantiateWasm(wasmModule) {
  let memory;
  let view;
  const core = {
    get HEAPU8() {
      if (view.buffer !== memory.buffer) view = new Uint8Array(memory.buffer);
      return view;
    },
  };
  // The allocator asks for `requested` bytes in all; the memory grows by a
  // fifth more than asked where it can (fewer, larger steps), never past
  // MODULE.maxMemoryBytes. False tells the allocator it failed, and the call
  // that allocated returns out_of_memory.
  const resizeHeap = (requested) => {
    requested >>>= 0;
    const size = memory.buffer.byteLength;
    if (requested > MODULE.maxMemoryBytes) return false;
    for (const margin of [0.2, 0.1, 0.05, 0]) {
      const wanted = Math.min(MODULE.maxMemoryBytes, Math.ceil(Math.max(requested, size * (1 + margin)) / PAGE) * PAGE);
      try {
        memory.grow((wanted - size) / PAGE);
        return true;
      } catch {
        // Too much for the engine now: ask for less.
      }
    }
    return false;
  };
  const abort = (what) => {
    throw new WebAssembly.RuntimeError(`Aborted(${what ?? ''})`);
  };
  const { exports } = new WebAssembly.Instance(wasmModule, { [MODULE.importModule]: { [MODULE.resizeHeap]: resizeHeap, [MODULE.abort]: abort } });
  memory = exports[MODULE.memory];
  view = new Uint8Array(memory.buffer);
  for (const [name, field] of Object.entries(FUNCTIONS)) {
    // A module and names from different builds: refused now, not at the first call.
    if (typeof exports[field] !== 'function') throw new TypeError(`alfred_core.wasm has no export ${field} for ${name}: the .wasm and web/dist/alfred_core.mjs are from different builds`);
    core[name] = exports[field];
  }
  exports[MODULE.ctors]();
  return core;
}
