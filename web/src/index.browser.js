// Browser entry (also the default for web-standard runtimes): fetches the
// .wasm next to this package and compiles it while it downloads.
import { AlfredError } from './errors.js';
import { createLoadCore } from './loader.js';
import { createActFactory } from './act.js';
import { createDomainPull } from './domain-pull.js';

export * from './public.js';

// A literal `new URL(…, import.meta.url)` lets bundlers (Vite, webpack 5) find and copy the asset.
const wasmUrl = new URL('../dist/alfred_core.wasm', import.meta.url);

async function compileShipped() {
  const response = await fetch(wasmUrl);
  if (!response.ok) {
    throw new AlfredError({
      code: 'wasm_fetch_failed',
      path: 'wasmModule',
      message: `fetching ${wasmUrl} failed with HTTP ${response.status}`,
      hint: 'serve alfred_core.wasm next to the package or pass options.wasmModule',
    });
  }
  // compileStreaming insists on application/wasm; many static servers send
  // something else, so those responses are compiled from the full bytes.
  const type = response.headers.get('content-type') ?? '';
  if (type.split(';')[0].trim().toLowerCase() === 'application/wasm') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Loads the alfred-act core: fetches and compiles `alfred_core.wasm` once per
 * page, or uses `options.wasmModule` when given.
 *
 * @example
 * import { loadCore } from 'alfred-act'
 * const core = await loadCore()
 */
export const loadCore = createLoadCore(compileShipped);

/**
 * An executor for one user, usable at once (the core loads on first use).
 *
 * @example
 * const act = createAct({ url, apiKey, accessToken, userId })
 * const { data, error, query, count } = await act.execute('db_read', { table: 'inventory' })
 */
export const createAct = createActFactory(loadCore);

export const { domainFromOpenApi, pullDomain } = createDomainPull(loadCore);
