// The module's size budget: its files (alfred_core.wasm, the names of its
// imports and exports, the JS that instantiates it), each gzipped at level 9,
// at most SIZE_BUDGET_BYTES (bench/wasm-size.mjs). A change that
// grows the core past it fails here, before a benchmark is read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { gzipSync } from 'node:zlib';

import { MODULE_FILES, SIZE_BUDGET_BYTES, wasmSections } from '../../bench/wasm-size.mjs';

const root = new URL('../../', import.meta.url);
const gzipped = (path) => gzipSync(readFileSync(new URL(path, root)), { level: 9 }).length;

test(`the module's files gzipped fit the budget of ${SIZE_BUDGET_BYTES / 1024} KB`, () => {
  const total = MODULE_FILES.reduce((sum, path) => sum + gzipped(path), 0);
  assert.ok(total <= SIZE_BUDGET_BYTES, `${(total / 1024).toFixed(1)} KB gzipped, over the budget of ${SIZE_BUDGET_BYTES / 1024} KB: make the core smaller elsewhere, or give the reason for a larger budget in docs/benchmarks.md`);
  // The budget is tight: a budget far above the module would let it grow unseen.
  assert.ok(total > SIZE_BUDGET_BYTES * 0.9, `${(total / 1024).toFixed(1)} KB is well under the budget: lower SIZE_BUDGET_BYTES to keep the gain`);
});

test('the section breakdown covers the whole module', () => {
  const bytes = readFileSync(new URL('web/dist/alfred_core.wasm', root));
  const sections = wasmSections(bytes);
  const headers = bytes.length - sections.reduce((sum, section) => sum + section.raw, 0);
  // 8 bytes of magic and version, then one id byte and a short size per section.
  assert.ok(headers >= 8 && headers < 8 + 6 * 16, `${headers} bytes outside the sections`);
  assert.equal(sections[0].name, 'code');
});
