// Cloudflare Workers entry: workerd and wrangler turn a .wasm import into a
// compiled WebAssembly.Module, because Workers refuse to compile from bytes.
import wasm from '../dist/alfred_core.wasm';
import { createLoadCore } from './loader.js';
import { createActFactory } from './act/factory.js';
import { createDomainPull } from './pull/index.js';

export * from './public.js';

/**
 * Loads the alfred-act core from the module the Workers runtime imported, or
 * from `options.wasmModule` when given.
 *
 * @example
 * import { loadCore } from 'alfred-act'
 * const core = await loadCore()
 */
// No warm-up (core/warm-up.js): an isolate starts with its first request
// already waiting, and its CPU time is what the account pays for.
export const loadCore = createLoadCore(async () => wasm, undefined, { warmUpOnLoad: false });

/**
 * An executor for one user, usable at once (the core loads on first use).
 *
 * @example
 * const act = createAct({ url, apiKey, accessToken, userId })
 * const { data, error, query, count } = await act.execute('db_read', { table: 'inventory' })
 */
export const createAct = createActFactory(loadCore);

export const { domainFromOpenApi, pullDomain } = createDomainPull(loadCore);
