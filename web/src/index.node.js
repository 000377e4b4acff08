// Node entry: compiles the shipped .wasm from disk once per process.
import { readFile } from 'node:fs/promises';
import { createLoadCore } from './loader.js';
import { createActFactory } from './act.js';
import { createDomainPull } from './domain-pull.js';

export * from './public.js';

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

/**
 * An executor for one user, usable at once (the core loads on first use).
 *
 * @example
 * const act = createAct({ url, apiKey, accessToken, userId })
 * const { data, error, query, count } = await act.execute('db_read', { table: 'inventory' })
 */
export const createAct = createActFactory(loadCore);

/**
 * Derives a domain from PostgREST's OpenAPI description and validates it
 * (docs/own-schema.md): `{ data: domain, error, notes }`.
 *
 * @example
 * const { data: domain, error, notes } = await domainFromOpenApi(spec, overrides, { ownerColumn: 'owner_id' })
 *
 * `pullDomain({ url, apiKey, accessToken, ownerColumn, overrides })` fetches the description first.
 */
export const { domainFromOpenApi, pullDomain } = createDomainPull(loadCore);
