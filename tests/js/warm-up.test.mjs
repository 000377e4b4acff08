// The core's warm-up (web/src/core/warm-up.js): once per compiled module,
// when the runtime is next idle after loadCore resolved, a few calls of its
// own that send nothing and reach no tracer; skipped when the app has
// started a call by then; never with `warmUp: false`, in Cloudflare Workers,
// or in a process that ends first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { AlfredError, loadCore } from '../../web/src/index.node.js';
import { internalsOf } from '../../web/src/core/internals.js';
import { warmUp } from '../../web/src/core/warm-up.js';
import { ROOT } from './support/paths.mjs';

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
  const span = { isRecording: () => true, setAttribute() {}, setAttributes() {}, addEvent() {}, setStatus() {}, recordException() {}, end() {} };
  return { spans, startSpan: (name) => (spans.push(name), span) };
}

const rowsFetch = (rows) => async () => new Response(JSON.stringify(rows), { headers: { 'content-type': 'application/json', 'content-range': `0-${rows.length - 1}/*` } });

test('loadCore schedules the warm-up after it resolves; it runs once per module, sends nothing, records no span', async () => {
  const realFetch = globalThis.fetch;
  let fetched = 0;
  globalThis.fetch = async (...args) => {
    fetched++;
    return realFetch(...args);
  };
  try {
    const wasmModule = await freshModule();
    const core = await loadCore({ wasmModule });
    const status = internalsOf(core).warmUp;
    assert.equal(status.state, 'scheduled', 'not run inside loadCore');
    const tracer = recordingTracer();
    internalsOf(core).useDefaultTracer(tracer);
    assert.equal(await keptUp(status.done), 'done');
    assert.equal(fetched, 0, 'no request left');
    assert.deepEqual(tracer.spans, [], 'the default tracer saw nothing');
    // Another instance of the same module: its code is compiled already.
    const again = await loadCore({ wasmModule });
    assert.equal(internalsOf(again).warmUp.state, 'none');
    assert.equal(internalsOf(again).warmUp.done, null);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test('an app that starts a call before the runtime is idle is not competed with: the warm-up skips itself', async () => {
  const core = await loadCore({ wasmModule: await freshModule() });
  const act = core.createAct({ url: 'http://127.0.0.1:9', apiKey: 'k', accessToken: 'user-token', fetch: rowsFetch([{ id: 1, name: 'salt' }]) });
  const read = act.execute('db_read', { table: 'ingredients', columns: ['name'], limit: 1 });
  assert.equal(await keptUp(internalsOf(core).warmUp.done), 'skipped');
  assert.equal((await read).error, null);
});

test('the warm-up calls run through on a loaded core, again and again (a failing one would only be slower, unseen)', async () => {
  const core = await loadCore({ wasmModule: await freshModule(), warmUp: false });
  assert.equal(internalsOf(core).warmUp.state, 'none');
  for (let i = 0; i < 3; i++) await warmUp(core);
  assert.equal(core.buildRequest('db_read', { table: 'ingredients', limit: 1 }, { baseUrl: 'http://127.0.0.1:3000' }).error, null);
});

test('warmUp takes true, false or nothing (null as left out); anything else is invalid_option', async () => {
  assert.equal(internalsOf(await loadCore({ wasmModule: await freshModule(), warmUp: null })).warmUp.state, 'scheduled');
  for (const warmUpOption of ['yes', 1]) {
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
    assert.equal(internalsOf(core).warmUp.state, 'none');
  } finally {
    if (had) Object.defineProperty(globalThis, 'navigator', had);
    else delete globalThis.navigator;
  }
});

test('a process that only loads the core ends without waiting for the warm-up', () => {
  const code = [
    "import { loadCore } from './web/src/index.node.js';",
    "import { internalsOf } from './web/src/core/internals.js';",
    'const core = await loadCore();',
    "process.on('exit', () => console.log(internalsOf(core).warmUp.state));",
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(out.trim(), 'scheduled');
});
