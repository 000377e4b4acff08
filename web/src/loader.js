// The part of loadCore() shared by the browser, workerd and deno entries: an
// injected module wins; otherwise the entry's own way of getting the shipped
// .wasm runs once per process. The compiled module is cached, never the
// instance, so every loadCore() call gets fresh WASM memory.
import { instantiateCore } from './core.js';
import { defaultDomain } from './default-domain.js';

export function createLoadCore(compileShipped) {
  let compiled;
  return async function loadCore(options = {}) {
    const domain = options?.domain ?? defaultDomain;
    const injected = options?.wasmModule;
    if (injected !== undefined && injected !== null) return instantiateCore(injected, { ...options, domain });
    // A failed fetch must not poison the cache: the next call tries again.
    compiled ??= compileShipped().catch((cause) => {
      compiled = undefined;
      throw cause;
    });
    return instantiateCore(await compiled, { ...options, domain });
  };
}
