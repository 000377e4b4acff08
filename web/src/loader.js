// The part of loadCore() shared by every runtime entry. Where the .wasm comes
// from, first match wins:
//   options.wasmModule  a compiled WebAssembly.Module (unchanged contract);
//   options.wasm        what importing `alfred-act/alfred_core.wasm` gives
//                       under the caller's bundler: a compiled module
//                       (Workers, Deno) or the URL it emitted (esbuild's
//                       `file` loader, webpack's asset/resource, Vite's ?url);
//   otherwise           the entry's own way of getting the shipped file.
// Compiled modules are cached (one per URL, one for the shipped file), never
// instances, so every loadCore() call gets fresh WASM memory.
import { instantiateCore } from './core/index.js';
import { warmUpWhenIdle } from './core/warm-up.js';
import { defaultDomain } from './default-domain.js';
import { AlfredError } from './errors.js';
import { codes } from '../dist/error-codes.mjs';

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/** The error of every way loading the .wasm from a URL can fail. */
export function wasmFetchFailed(url, message) {
  return new AlfredError({
    code: codes.wasm_fetch_failed,
    path: 'wasm',
    message: `fetching ${url} ${message}`,
    hint:
      'serve alfred_core.wasm where the bundle can reach it, or pass loadCore({ wasm }) with the URL your bundler ' +
      'emitted for alfred-act/alfred_core.wasm (docs/bundlers.md), or a compiled WebAssembly.Module',
  });
}

/**
 * Fetches and compiles a .wasm URL: streaming when the server says
 * application/wasm, from the bytes otherwise. A 404, or a dev server's HTML
 * fallback page with status 200, is a `wasm_fetch_failed` AlfredError.
 */
export async function fetchWasm(url, fetchImpl = globalThis.fetch) {
  let response;
  try {
    response = await fetchImpl(url);
  } catch (cause) {
    throw wasmFetchFailed(url, `failed: ${cause?.message ?? cause}`);
  }
  if (!response.ok) throw wasmFetchFailed(url, `failed with HTTP ${response.status}`);
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  // compileStreaming insists on application/wasm; many static servers send
  // something else, so those responses are compiled from the full bytes.
  if (type === 'application/wasm') return WebAssembly.compileStreaming(response);
  return compileBytes(new Uint8Array(await response.arrayBuffer()), url, type);
}

/** Compiles bytes that should be alfred_core.wasm; anything else is `wasm_fetch_failed`. */
export function compileBytes(bytes, url, type = '') {
  if (!WASM_MAGIC.every((byte, index) => bytes[index] === byte)) {
    throw wasmFetchFailed(url, `gave ${type || 'a body'} that is not WebAssembly (a dev server's fallback page?)`);
  }
  return WebAssembly.compile(bytes);
}

function wasmOption(wasm) {
  if (wasm instanceof WebAssembly.Module) return { module: wasm };
  if (typeof wasm === 'string' || wasm instanceof URL) return { url: String(wasm) };
  throw new AlfredError({
    code: codes.invalid_option,
    path: 'wasm',
    message: 'wasm must be a WebAssembly.Module, a URL or a URL string',
    hint: "import wasm from 'alfred-act/alfred_core.wasm' and pass loadCore({ wasm }) (docs/bundlers.md)",
  });
}

/**
 * `compileShipped()` compiles the package's own .wasm; `compileUrl(url)`
 * compiles one at a URL (default: fetch, resolved against the page).
 * `warmUpOnLoad`: whether loadCore schedules the core's warm-up
 * (core/warm-up.js) before it resolves; an entry that passes false
 * schedules it itself, or not at all.
 */
export function createLoadCore(compileShipped, compileUrl = (url) => fetchWasm(new URL(url, globalThis.location?.href)), { warmUpOnLoad = true } = {}) {
  let shipped;
  const byUrl = new Map();
  // A failed load must not poison the cache: the next call tries again.
  const cached = (promise, forget) =>
    promise.catch((cause) => {
      forget();
      throw cause;
    });
  const load = async (options) => {
    const domain = options?.domain ?? defaultDomain;
    const injected = options?.wasmModule;
    if (injected !== undefined && injected !== null) return instantiateCore(injected, { ...options, domain });
    if (options?.wasm !== undefined && options?.wasm !== null) {
      const { module, url } = wasmOption(options.wasm);
      if (module) return instantiateCore(module, { ...options, domain });
      if (!byUrl.has(url)) byUrl.set(url, cached(compileUrl(url), () => byUrl.delete(url)));
      return instantiateCore(await byUrl.get(url), { ...options, domain });
    }
    shipped ??= cached(compileShipped(), () => {
      shipped = undefined;
    });
    return instantiateCore(await shipped, { ...options, domain });
  };
  // The warm-up is scheduled once the core is handed over (an entry that
  // does more before it resolves schedules it itself).
  return async function loadCore(options = {}) {
    const core = await load(options);
    if (warmUpOnLoad) warmUpWhenIdle(core);
    return core;
  };
}
