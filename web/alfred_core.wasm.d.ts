// Types of `import wasm from 'alfred-act/alfred_core.wasm'`. What the import
// gives depends on who loads it, and loadCore({ wasm }) takes either:
// - Cloudflare Workers (wrangler's CompiledWasm rule), workerd: a compiled
//   WebAssembly.Module;
// - esbuild with `loader: { '.wasm': 'file' }`, webpack with a
//   `type: 'asset/resource'` rule: the URL of the emitted file.
// See docs/bundlers.md.

declare global {
  namespace WebAssembly {
    interface Module {}
  }
}

/** The compiled core or the URL your bundler emitted for it; pass it to `loadCore({ wasm })`. */
declare const wasm: WebAssembly.Module | string;
export default wasm;
