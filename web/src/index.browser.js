// Browser entry (also the default for web-standard runtimes): fetches the
// .wasm next to this package and compiles it while it downloads.
import { createLoadCore, fetchWasm } from './loader.js';
import { createActFactory } from './act/factory.js';
import { createDomainPull } from './pull/index.js';

export * from './public.js';

// The literal `new URL('…', import.meta.url)` is what Vite and webpack 5 look
// for to emit the asset and rewrite the URL; esbuild leaves it alone, so under
// esbuild pass `wasm` (docs/bundlers.md).
/**
 * Loads the alfred-act core: fetches and compiles `alfred_core.wasm` once per
 * page, or uses `options.wasm` (the module or URL your bundler gives for
 * `alfred-act/alfred_core.wasm`) or `options.wasmModule` when given.
 *
 * @example
 * import { loadCore } from 'alfred-act'
 * const core = await loadCore()
 */
export const loadCore = createLoadCore(() => fetchWasm(new URL('../dist/alfred_core.wasm', import.meta.url)));

/**
 * An executor for one user, usable at once (the core loads on first use).
 *
 * @example
 * const act = createAct({ url, apiKey, accessToken, userId })
 * const { data, error, query, count } = await act.execute('db_read', { table: 'inventory' })
 */
export const createAct = createActFactory(loadCore);

export const { domainFromOpenApi, pullDomain } = createDomainPull(loadCore);
