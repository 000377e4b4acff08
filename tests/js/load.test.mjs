// loadCore() of the Node entry (an injected precompiled module, a wrong one,
// separate instances per call) and the compile cache the other entries share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { AlfredError, loadCore } from '../../web/src/index.node.js';
import { createLoadCore } from '../../web/src/loader.js';

const call = ['db_read', { table: 'ingredients', columns: ['name'], limit: 1 }, { baseUrl: 'http://127.0.0.1:3000' }];
const expected = {
  data: {
    method: 'GET',
    url: 'http://127.0.0.1:3000/ingredients?select=id%2Cname&limit=1',
    headers: { Accept: 'application/json' },
    body: null,
  },
  error: null,
};

test('a precompiled WebAssembly.Module is used as given', async () => {
  const wasmModule = await WebAssembly.compile(await readFile(new URL('../../web/dist/alfred_core.wasm', import.meta.url)));
  const core = await loadCore({ wasmModule });
  assert.deepEqual(core.buildRequest(...call), expected);
});

test('wasmModule that is not a module rejects with invalid_option', async () => {
  await assert.rejects(loadCore({ wasmModule: 'x' }), (error) => {
    assert.ok(error instanceof AlfredError);
    assert.deepEqual(error.toJSON(), {
      code: 'invalid_option',
      message: 'wasmModule must be a compiled WebAssembly.Module',
      path: 'wasmModule',
      hint: 'pass the module your bundler imports from alfred-act/alfred_core.wasm',
    });
    return true;
  });
});

test('each loadCore() is its own instance: registries do not cross cores', async () => {
  const [first, second] = await Promise.all([loadCore(), loadCore()]);
  assert.notEqual(first, second);
  const registry = first.createRegistry();
  assert.deepEqual(second.buildRequest(call[0], call[1], { ...call[2], registry }).error, {
    code: 'invalid_option',
    message: 'registry must come from createRegistry() of the same core',
    path: 'registry',
    hint: '',
  });
  assert.deepEqual(first.buildRequest(call[0], call[1], { ...call[2], registry }), expected);
  registry.delete();
});

test('shared loader: compiles once, and a failed compile is retried', async () => {
  const bytes = await readFile(new URL('../../web/dist/alfred_core.wasm', import.meta.url));
  let compiles = 0;
  const load = createLoadCore(async () => {
    compiles += 1;
    if (compiles === 1) throw new Error('network down');
    return WebAssembly.compile(bytes);
  });
  await assert.rejects(load(), /network down/);
  const [first, second] = await Promise.all([load(), load({})]);
  assert.deepEqual(first.buildRequest(...call), expected);
  assert.notEqual(first, second);
  assert.equal(compiles, 2);
  await assert.rejects(load({ wasmModule: bytes }), AlfredError);
  assert.equal(compiles, 2);
});
