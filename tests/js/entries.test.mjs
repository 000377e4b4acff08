// What each runtime entry reaches. workerd (without nodejs_compat) and
// browsers have no node: builtins, and the package has no dependencies, so
// the non-node entries may only reach the package's own files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
  assert.deepEqual(outsideThePackage(await graphOf('node')), [{ kind: 'node', specifier: 'node:fs/promises' }]);
});
