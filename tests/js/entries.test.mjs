// What each runtime entry reaches, and what each entry exports. workerd
// (without nodejs_compat) and browsers have no node: builtins, and the
// package has no dependencies, so the non-node entries may only reach the
// package's own files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleGraph } from './support/module-graph.mjs';
import { ROOT } from './support/paths.mjs';

const web = pathToFileURL(join(ROOT, 'web/')).href;
const graphOf = async (runtime) => moduleGraph(join(ROOT, `web/src/index.${runtime}.js`));
const outsideThePackage = (graph) => graph.filter(({ specifier }) => !specifier.startsWith(web));
const wasmImports = (graph) => graph.filter(({ specifier }) => specifier.endsWith('.wasm')).map(({ kind }) => kind);

test('browser entry: only package files, and the .wasm is fetched rather than imported', async () => {
  const graph = await graphOf('browser');
  assert.deepEqual(outsideThePackage(graph), []);
  assert.deepEqual(wasmImports(graph), []);
});

test('workerd entry: only package files, the .wasm imported as a wasm module', async () => {
  const graph = await graphOf('workerd');
  assert.deepEqual(outsideThePackage(graph), []);
  assert.deepEqual(wasmImports(graph), ['wasm']);
});

test('deno entry: only package files, the .wasm imported at source phase', async () => {
  const graph = await graphOf('deno');
  assert.deepEqual(outsideThePackage(graph), []);
  // Deno reports a source-phase import as "external": it is not evaluated.
  assert.deepEqual(wasmImports(graph), ['external']);
});

test('node entry: the one place node: is reached (proves the checks above can see it)', async () => {
  assert.deepEqual(outsideThePackage(await graphOf('node')), [{ kind: 'node', specifier: 'node:fs' }]);
});

// Every entry in package.json "exports", each runtime's file, exports exactly
// what its .d.ts ("types") declares: a name added to or dropped from one side
// only fails here. Names are read from the sources (`export * from` followed),
// so the workerd, Deno and worker entries that Node cannot import are checked
// too; for the entries Node can import, the names are also compared with what
// the import really gives.

// Runtime values the declarations give as a type only, with the reason.
const TYPE_ONLY = {
  // Acts are made by createAct / core.createAct, never with `new Act`.
  '.': new Set(['Act']),
};

/** The names a .d.ts exports: `values` (declare const/function/class, export { … }) and `types` (interface, type, export type { … }). */
async function declaredNames(file) {
  const text = await readFile(join(ROOT, file), 'utf8');
  const values = new Set();
  const types = new Set();
  for (const [, kind, name] of text.matchAll(/^export (?:declare )?(const|let|function|class|interface|type) (\w+)/gm)) {
    (kind === 'interface' || kind === 'type' ? types : values).add(name);
  }
  for (const [, typeOnly, list] of text.matchAll(/^export (type )?\{([^}]*)\}/gm)) {
    for (const name of namesOf(list)) (typeOnly ? types : values).add(name);
  }
  return { values, types };
}

const namesOf = (list) => list.split(',').map((part) => part.trim().split(/\s+as\s+/).pop().trim()).filter(Boolean);

/** The names a JS module exports, from its source and the sources it re-exports with `export *`. */
async function exportedNames(file) {
  const text = await readFile(file, 'utf8');
  const names = new Set();
  for (const [, name] of text.matchAll(/^export (?:async )?(?:function\*?|const|let|class) (\w+)/gm)) names.add(name);
  for (const [, list] of text.matchAll(/^export (?:const|let) \{([^}]*)\} =/gm)) for (const name of namesOf(list)) names.add(name);
  for (const [, list] of text.matchAll(/^export \{([^}]*)\}/gm)) for (const name of namesOf(list)) names.add(name);
  for (const [, from] of text.matchAll(/^export \* from '([^']+)'/gm)) {
    for (const name of await exportedNames(fileURLToPath(new URL(from, pathToFileURL(file))))) names.add(name);
  }
  return names;
}

const manifestFile = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
const jsEntries = Object.entries(manifestFile.exports).filter(([, conditions]) => typeof conditions === 'object' && /\.m?js$/.test(conditions.default));

test('package.json: every JavaScript entry is checked below, the root and the subpaths', () => {
  assert.deepEqual(jsEntries.map(([subpath]) => subpath), ['.', './ai', './openai', './loop', './mcp', './worker', './worker/durable', './stack']);
});

for (const [subpath, conditions] of jsEntries) {
  test(`${subpath === '.' ? 'alfred-act' : `alfred-act/${subpath.slice(2)}`}: each runtime's file exports exactly what ${conditions.types} declares`, async () => {
    const { values, types } = await declaredNames(conditions.types);
    const typeOnly = TYPE_ONLY[subpath] ?? new Set();
    for (const name of typeOnly) assert.ok(types.has(name) && !values.has(name), `${name} is listed as type-only but ${conditions.types} does not declare it so`);
    const expected = [...values, ...typeOnly].sort();
    const files = [...new Set(Object.entries(conditions).filter(([condition]) => condition !== 'types').map(([, file]) => file))];
    for (const file of files) {
      const names = [...(await exportedNames(join(ROOT, file)))].sort();
      assert.deepEqual(names, expected, `${file} against ${conditions.types}`);
    }
  });
}

test('the names read from the sources are the ones Node imports, for the entries Node can import', async () => {
  const importable = ['web/src/index.node.js', 'web/src/index.browser.js', 'web/src/loop/index.js', 'web/src/mcp/index.js', 'web/src/adapters/ai.js', 'web/src/adapters/openai.js', 'web/src/worker/index.node.js', 'db/local-stack.mjs'];
  // Node's bundled build (scripts/bundle.mjs), each entry as package.json names it.
  importable.push(...jsEntries.map(([, conditions]) => conditions.node?.slice(2)).filter((file) => file?.startsWith('web/dist/')));
  assert.equal(importable.length, 8 + 6);
  for (const file of importable) {
    const imported = Object.keys(await import(pathToFileURL(join(ROOT, file)).href)).sort();
    assert.deepEqual([...(await exportedNames(join(ROOT, file)))].sort(), imported, file);
  }
});
