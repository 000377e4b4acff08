// The module's size budget and where its bytes are. The budget is what the
// tests hold the build to (tests/js/size-budget.test.mjs): a change that
// makes the module's files (MODULE_FILES), each gzipped at level 9, larger
// than this fails. Raise it only with a reason in docs/benchmarks.md.
import { gzipSync } from 'node:zlib';

/** wasm + its JS (the names and the loader), each gzipped at level 9, summed: the most the build may be. */
export const SIZE_BUDGET_BYTES = 218 * 1024;

/**
 * The module as it loads, relative to the repository: the WebAssembly, the
 * names of its imports and exports, and the JS that instantiates it in place
 * of em++'s glue (scripts/generate-wasm-names.mjs).
 */
export const MODULE_FILES = ['web/dist/alfred_core.wasm', 'web/dist/alfred_core.mjs', 'web/src/core/instance.js'];

// The two sections that hold the module's weight; the rest are summed.
const SECTION_NAMES = { 10: 'code', 11: 'data (prompt templates, schemas, messages)' };

function leb128(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(byte & 0x80)) return [value, at];
  }
}

/**
 * The sections of a WebAssembly module with their raw and gzipped sizes,
 * largest first (the small ones summed as "other").
 * @example
 * wasmSections(readFileSync('web/dist/alfred_core.wasm')) // [{ name: 'code', raw: 418600, gzip: 169432 }, …]
 */
export function wasmSections(bytes) {
  const out = new Map();
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at];
    const [size, body] = leb128(bytes, at + 1);
    const name = SECTION_NAMES[id] ?? 'other sections';
    const part = bytes.subarray(body, body + size);
    const seen = out.get(name) ?? { name, raw: 0, gzip: 0 };
    seen.raw += size;
    seen.gzip += gzipSync(part, { level: 9 }).length;
    out.set(name, seen);
    at = body + size;
  }
  return [...out.values()].sort((a, b) => b.raw - a.raw);
}
