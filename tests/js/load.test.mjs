// loadCore() of the Node entry (an injected precompiled module, a wrong one,
// separate instances per call) and the compile cache the other entries share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
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

test('loadCore({ wasm }) takes a module, a file path, a file URL or an http URL (compiled once per URL)', async () => {
  const file = new URL('../../web/dist/alfred_core.wasm', import.meta.url);
  const bytes = await readFile(file);
  const wasmModule = await WebAssembly.compile(bytes);
  for (const wasm of [wasmModule, file, file.href, fileURLToPath(file)]) {
    const core = await loadCore({ wasm });
    assert.deepEqual(core.buildRequest(...call), expected, String(wasm));
  }
  const server = await serveBytes({ '/core.wasm': ['application/octet-stream', bytes], '/fallback.wasm': ['text/html', Buffer.from('<!doctype html><p>app')] });
  try {
    const core = await loadCore({ wasm: `${server.origin}/core.wasm` });
    assert.deepEqual(core.buildRequest(...call), expected);
    await loadCore({ wasm: `${server.origin}/core.wasm` });
    assert.equal(server.hits('/core.wasm'), 1);
    // A dev server's HTML fallback (status 200) and a 404 name the URL; neither poisons the cache.
    await assert.rejects(loadCore({ wasm: `${server.origin}/fallback.wasm` }), {
      name: 'AlfredError',
      code: 'wasm_fetch_failed',
      path: 'wasm',
      message: `fetching ${server.origin}/fallback.wasm gave text/html that is not WebAssembly (a dev server's fallback page?)`,
    });
    await assert.rejects(loadCore({ wasm: `${server.origin}/missing.wasm` }), {
      code: 'wasm_fetch_failed',
      message: `fetching ${server.origin}/missing.wasm failed with HTTP 404`,
    });
    await assert.rejects(loadCore({ wasm: `${server.origin}/missing.wasm` }), { code: 'wasm_fetch_failed' });
    assert.equal(server.hits('/missing.wasm'), 2);
  } finally {
    await server.close();
  }
  await assert.rejects(loadCore({ wasm: 42 }), {
    code: 'invalid_option',
    path: 'wasm',
    message: 'wasm must be a WebAssembly.Module, a URL or a URL string',
  });
  await assert.rejects(loadCore({ wasm: '/nonexistent/alfred_core.wasm' }), {
    code: 'wasm_fetch_failed',
    message: /^fetching \/nonexistent\/alfred_core\.wasm failed: ENOENT/,
  });
});

async function serveBytes(routes) {
  const hits = new Map();
  const server = createServer((request, response) => {
    hits.set(request.url, (hits.get(request.url) ?? 0) + 1);
    const route = routes[request.url];
    if (!route) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': route[0] }).end(route[1]);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    hits: (path) => hits.get(path) ?? 0,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
