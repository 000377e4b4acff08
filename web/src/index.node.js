// Node entry: compiles the shipped .wasm from disk once per process.
import { compileBytes, createLoadCore, fetchWasm, wasmFetchFailed } from './loader.js';
import { createActFactory } from './act/factory.js';
import { createDomainPull } from './pull/index.js';
import { globalTracer } from './policy/otel.js';
import { internalsOf } from './core/internals.js';
import { warmUpWhenIdle } from './core/warm-up.js';

export * from './public.js';

// A file's bytes. Node's fs is taken when the core is first loaded, from
// process.getBuiltinModule where Node has it (20.16 and later), rather than
// imported with the package: importing the package then reaches no builtin.
async function readFile(path) {
  const fs = process.getBuiltinModule?.('fs') ?? (await import('node:fs'));
  return new Promise((resolve, reject) => fs.readFile(path, (error, bytes) => (error ? reject(error) : resolve(bytes))));
}

// Compiles the shipped .wasm from disk, or the one `options.wasm` names.
const loadShipped = createLoadCore(
  async () => WebAssembly.compile(await readFile(new URL('../dist/alfred_core.wasm', import.meta.url))),
  // `wasm` as a URL: file: URLs and paths from disk, http(s) fetched.
  async (url) => {
    // A path, including a Windows one (`C:\…` parses as a URL with scheme `c:`).
    const isUrl = URL.canParse(url) && !/^[a-z]:$/i.test(new URL(url).protocol);
    if (isUrl && new URL(url).protocol !== 'file:') return fetchWasm(new URL(url));
    let bytes;
    try {
      bytes = await readFile(isUrl ? new URL(url) : url);
    } catch (cause) {
      throw wasmFetchFailed(url, `failed: ${cause.message}`);
    }
    return compileBytes(new Uint8Array(bytes), url);
  },
  // Scheduled by loadCore below, once the tracer is set too: a warm-up that
  // ran while the tracer's import read from disk would hold loadCore up.
  { warmUpOnLoad: false },
);

/**
 * Loads the alfred-act core. `options.wasmModule` may be a precompiled
 * `WebAssembly.Module`, `options.wasm` a module, a URL or a file path;
 * otherwise the package's `alfred_core.wasm` is compiled (once per process)
 * and instantiated. When @opentelemetry/api is installed, its acts trace
 * their calls with its global tracer unless given a `tracer`.
 *
 * @example
 * import { loadCore, kitchen } from 'alfred-act'
 * const core = await loadCore()
 */
export async function loadCore(options) {
  const [core, tracer] = await Promise.all([loadShipped(options), globalTracer()]);
  internalsOf(core).useDefaultTracer(tracer);
  warmUpWhenIdle(core);
  return core;
}

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
