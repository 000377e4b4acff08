// The names by which JavaScript reaches the WebAssembly module, read from
// the glue em++ writes next to it (build/wasm/alfred_core.mjs) and written
// as web/dist/alfred_core.mjs: the import object's module and field names,
// the memory's and the static constructors' export names, the largest memory
// the module may grow to, and each `alfred_*` export under its minified name.
// The package instantiates the module itself with these (web/src/core/
// instance.js) instead of shipping the glue: its 17 KB (3.7 KB gzipped)
// served environments and options the package never uses
// (docs/benchmarks.md, "The module's own loader, and translation plans made once").
// Run by scripts/build.sh after the wasm build.
//   node scripts/generate-wasm-names.mjs [glue] [out]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// One match of `pattern` in the glue, or a build failure that names what is missing.
function one(glue, pattern, what) {
  const match = pattern.exec(glue);
  if (!match) throw new Error(`generate-wasm-names: the glue has no ${what} (${pattern}); did em++'s output change?`);
  return match;
}

/** `{ importModule, resizeHeap, abort, memory, ctors, maxMemoryBytes, functions }` from the glue's text. */
export function readGlue(glue) {
  const [, importModule] = one(glue, /var info=\{"([\w$]+)":asmLibraryArg\}/, 'import object');
  const [, library] = one(glue, /var asmLibraryArg=\{([^}]*)\}/, 'import list');
  const imports = Object.fromEntries([...library.matchAll(/"([\w$]+)":(_[\w$]+)/g)].map(([, field, name]) => [name, field]));
  const expected = ['_abort', '_emscripten_resize_heap'];
  const names = Object.keys(imports).sort();
  if (names.join() !== expected.join()) throw new Error(`generate-wasm-names: the module imports ${names.join(', ')}; instance.js provides ${expected.join(', ')}`);
  const [, memory] = one(glue, /wasmMemory=Module\["asm"\]\["([\w$]+)"\]/, 'memory export');
  const [, ctors] = one(glue, /addOnInit\(Module\["asm"\]\["([\w$]+)"\]\)/, 'static constructors');
  const [, maxMemoryBytes] = one(glue, /function _emscripten_get_heap_max\(\)\{return (\d+)\}/, 'memory limit');
  const functions = Object.fromEntries([...glue.matchAll(/Module\["(_alfred_\w+)"\]=Module\["asm"\]\["([\w$]+)"\]/g)].map(([, name, field]) => [name, field]));
  if (Object.keys(functions).length === 0) throw new Error('generate-wasm-names: the glue names no alfred_ export');
  return { importModule, resizeHeap: imports._emscripten_resize_heap, abort: imports._abort, memory, ctors, maxMemoryBytes: Number(maxMemoryBytes), functions };
}

/** The text of web/dist/alfred_core.mjs for `names` (readGlue's). */
export function namesModule({ functions, ...module }) {
  return [
    '// Generated from the glue em++ writes by scripts/generate-wasm-names.mjs: the',
    "// names web/src/core/instance.js instantiates alfred_core.wasm with.",
    `export const MODULE = ${JSON.stringify(module)};`,
    '/** Each export the boundary calls (web/src/core/abi.js) → its name in the module. */',
    `export const FUNCTIONS = ${JSON.stringify(functions)};`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [glue = `${root}build/wasm/alfred_core.mjs`, out = `${root}web/dist/alfred_core.mjs`] = process.argv.slice(2);
  writeFileSync(out, namesModule(readGlue(readFileSync(glue, 'utf8'))));
}
