// The core's warm-up (web/src/core/warm-up.js): once per compiled module,
// when the runtime is next idle after loadCore, one call of its own that
// sends nothing, reaches no tracer and frees what it made; `warmUp: false`
// and Cloudflare Workers schedule none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { AlfredError, loadCore } from '../../web/src/index.node.js';
import { internalsOf } from '../../web/src/core/internals.js';
import { warmUp } from '../../web/src/core/warm-up.js';

const wasmBytes = await readFile(new URL('../../web/dist/alfred_core.wasm', import.meta.url));
// A module of its own per test: the warm-up is once per compiled module.
const freshModule = () => WebAssembly.compile(wasmBytes);

// The warm-up's timer does not keep a process up: awaiting it alone would
// end the event loop first.
async function keptUp(promise) {
  const hold = setInterval(() => {}, 1000);
  try {
    return await promise;
  } finally {
    clearInterval(hold);
  }
}

function recordingTracer() {
  const spans = [];
  return { spans, startSpan: (name) => (spans.push(name), { isRecording: () => true, setAttribute() {}, setAttributes() {}, addEvent() {}, setStatus() {}, recordException() {}, end() {} }) };
}

test('loadCore warms the module up once, when idle: nothing sent, no span, the core as it was', async () => {
  const realFetch = globalThis.fetch;
  let fetched = 0;
  globalThis.fetch = async (...args) => {
    fetched++;
    return realFetch(...args);
  };
  try {
    const wasmModule = await freshModule();
    const core = await loadCore({ wasmModule });
    const tracer = recordingTracer();
    internalsOf(core).useDefaultTracer(tracer);
    const scheduled = internalsOf(core).warmedUp;
    assert.ok(scheduled instanceof Promise, 'a warm-up is scheduled');
    assert.equal(await keptUp(scheduled), true, 'it ran through');
    assert.equal(fetched, 0, 'no request left');
    assert.deepEqual(tracer.spans, [], 'the default tracer saw nothing');
    // Another instance of the same module: its code is compiled already.
    const again = await loadCore({ wasmModule });
    assert.equal(internalsOf(again).warmedUp, null);
    assert.equal(core.buildRequest('db_read', { table: 'ingredients', limit: 1 }, { baseUrl: 'http://127.0.0.1:3000' }).error, null);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test('the warm-up call runs through on a loaded core, again and again (a failing one would only be slower, unseen)', async () => {
  const core = await loadCore({ wasmModule: await freshModule(), warmUp: false });
  for (let i = 0; i < 3; i++) await warmUp(core);
  assert.equal(core.buildRequest('db_read', { table: 'ingredients', limit: 1 }, { baseUrl: 'http://127.0.0.1:3000' }).error, null);
});

test('warmUp: false schedules none; anything but a boolean is invalid_option', async () => {
  const core = await loadCore({ wasmModule: await freshModule(), warmUp: false });
  assert.equal(internalsOf(core).warmedUp, null);
  for (const warmUpOption of ['yes', 1, null]) {
    await assert.rejects(loadCore({ wasmModule: await freshModule(), warmUp: warmUpOption }), (error) => {
      assert.ok(error instanceof AlfredError);
      assert.equal(error.code, 'invalid_option');
      assert.equal(error.path, 'warmUp');
      return true;
    });
  }
});

test('in Cloudflare Workers no warm-up is scheduled', async () => {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Cloudflare-Workers' }, configurable: true, writable: true });
  try {
    const core = await loadCore({ wasmModule: await freshModule() });
    assert.equal(internalsOf(core).warmedUp, null);
  } finally {
    if (had) Object.defineProperty(globalThis, 'navigator', had);
    else delete globalThis.navigator;
  }
});
