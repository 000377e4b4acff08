// Memory bounds of the stateless core API and of execute: huge strings,
// 10^6 rows and 10^5 levels of nesting through translateRows, buildRequest
// and parseDecision give a clean error or a result (never a crash, a stack
// overflow or a trap), and the WebAssembly memory, which never shrinks, is
// checked before and after: refused inputs never reach it, and memory grown
// for a large input is reused by the next one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadCore } from '../../web/src/index.node.js';
import { internalsOf } from '../../web/src/core/internals.js';

// Every test has a time bound: a runaway allocation fails the test instead of stalling the suite.
const BOUNDED = { timeout: 120_000 };

const USER = '00000000-0000-4000-8000-000000000001';
// A signed-in user's token (user-owned tables need one); PostgREST would check the signature.
const TOKEN = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: USER, role: 'authenticated' })).toString('base64url')}.c2ln`;
const OPTIONS = { userId: USER, accessToken: TOKEN, baseUrl: 'http://127.0.0.1:3000' };
const MiB = 1 << 20;
const execFileAsync = promisify(execFile);

function taskRows(n, { pad = 0, base = 0 } = {}) {
  const parts = [];
  for (let i = 0; i < n; i++) {
    const id = `00000000-0000-4000-8000-${(i + base).toString(16).padStart(12, '0')}`;
    parts.push(`{"id":"${id}","title":"task ${i}${'x'.repeat(pad)}","completed":false,"recipe_id":null}`);
  }
  return `[${parts.join(',')}]`;
}

// The most rows `bytes` of JSON can hold: rows of a bare id, ids from `base`.
function densestRows(bytes, base) {
  const parts = [];
  let size = 2;
  for (let i = 0; ; i++) {
    const row = `{"id":"00000000-0000-4000-8000-${(base + i).toString(16).padStart(12, '0')}"}`;
    if (size + row.length + 1 > bytes) break;
    parts.push(row);
    size += row.length + 1;
  }
  return new TextEncoder().encode(`[${parts.join(',')}]`);
}

/** The core still answers a small call correctly. */
function assertHealthy(core) {
  const { data, error } = core.buildRequest('db_read', { table: 'tasks', limit: 1 }, OPTIONS);
  assert.equal(error, null);
  assert.equal(data.url, `http://127.0.0.1:3000/tasks?select=%2A&user_id=eq.${USER}&limit=1`);
}

test('regression: 50 MB strings are refused before they reach WASM memory', BOUNDED, async () => {
  const core = await loadCore();
  const before = internalsOf(core).memoryBytes;
  const huge = 'x'.repeat(50 * MiB);
  const request = core.buildRequest('db_read', { table: huge }, OPTIONS);
  assert.deepEqual([request.error.code, request.error.path], ['input_too_large', 'params']);
  assert.equal(request.error.message, `the size of the params is over the limit of ${8 * MiB} bytes`);
  const decision = core.parseDecision(huge, { stepType: 'read' });
  assert.deepEqual([decision.error.code, decision.error.path], ['input_too_large', 'text']);
  const rows = core.createRegistry().translateRows('tasks', huge);
  assert.equal(rows.error.code, 'input_too_large');
  const bytes = core.createRegistry().translateRows('tasks', new Uint8Array(50 * MiB));
  assert.equal(bytes.error.message, `the size of the rows is ${50 * MiB} bytes, over the limit of ${8 * MiB} bytes`);
  assert.equal(core.createRegistry().registerGenerated('recipes', { name: huge }).error.code, 'input_too_large');
  assert.throws(() => core.createRegistry(huge), { code: 'input_too_large' });
  assert.equal(internalsOf(core).memoryBytes, before, 'nothing was copied in');
  assertHealthy(core);
});

test('regression: 10^6 rows through translateRows: refused by default and at the largest input; taken or refused cleanly at it', BOUNDED, async () => {
  const rows = taskRows(1_000_000);
  const core = await loadCore();
  const before = internalsOf(core).memoryBytes;
  const registry = core.createRegistry();
  const { error } = registry.translateRows('tasks', rows);
  assert.equal(error.code, 'input_too_large');
  assert.equal(internalsOf(core).memoryBytes, before);

  // 8 MiB, the default, is also the most a caller may allow: 10^6 rows (98
  // MB) stay over it. The densest rows it holds (182 361 bare ids) translate;
  // a second such batch into the same registry needs more memory than the
  // core may use: out_of_memory, nothing of it kept, the core fine afterwards.
  const roomy = await loadCore({ maxInputBytes: 8 * MiB });
  const big = roomy.createRegistry();
  assert.equal(big.translateRows('tasks', rows).error.code, 'input_too_large');
  const first = big.translateRowsText('tasks', densestRows(8 * MiB, 0));
  assert.equal(first.error, null);
  const second = big.translateRowsText('tasks', densestRows(8 * MiB, 1_000_000));
  assert.equal(second.error.code, 'out_of_memory');
  assert.ok(internalsOf(roomy).memoryBytes <= 96 * MiB, `memory ${internalsOf(roomy).memoryBytes}`);
  assertHealthy(roomy);
  // The next ref follows the first batch's: the failed one registered nothing.
  assert.equal(JSON.parse(big.translateRowsText('tasks', densestRows(200, 5_000_000)).data)[0].id, 'task_182362');
});

test('regression: 10^5 levels of nesting are an error, never a stack overflow', BOUNDED, async () => {
  const core = await loadCore();
  const deepText = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const deepObject = `[{"id":"${USER}","title":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]`;
  assert.equal(core.parseDecision(deepText).error.code, 'invalid_decision_json');
  assert.equal(core.parseDecision(`{"action":${'['.repeat(100_000)}`).error.code, 'invalid_decision_json');
  const registry = core.createRegistry();
  assert.equal(registry.translateRows('tasks', deepText).error.code, 'invalid_json');
  const nested = registry.translateRows('tasks', deepObject);
  assert.deepEqual([nested.error.code, nested.error.message], ['invalid_json', 'invalid JSON at byte 364: nested too deeply']);
  let params = {};
  for (let i = 0, at = params; i < 100_000; i++) at = at.a = {};
  const request = core.buildRequest('db_read', { table: 'tasks', filters: params }, OPTIONS);
  assert.equal(request.error.code, 'invalid_params');
  assert.match(request.error.message, /^params cannot be written as JSON/);
  assertHealthy(core);
});

test('memory grown for a large input is reused: the same work again does not grow it', BOUNDED, async () => {
  const core = await loadCore();
  const rows = new TextEncoder().encode(taskRows(10_000, { pad: 700 })); // 7.6 MB, under the 8 MiB limit
  const sizes = [];
  for (let round = 0; round < 4; round++) {
    const registry = core.createRegistry();
    const { data, error } = registry.translateRowsText('tasks', rows);
    assert.equal(error, null);
    assert.ok(data.startsWith('[{"id":"task_1"'));
    registry.delete();
    sizes.push(internalsOf(core).memoryBytes);
  }
  assert.ok(sizes[0] <= 48 * MiB, `grew to ${sizes[0]} bytes`);
  assert.deepEqual(sizes.slice(1), [sizes[0], sizes[0], sizes[0]]);

  // A large buildRequest (a 900-row batch) gives its buffers back too.
  const data = Array.from({ length: 900 }, (_, i) => ({ title: `task ${i} ${'y'.repeat(2000)}` }));
  for (let round = 0; round < 3; round++) assert.equal(core.buildRequest('db_create', { table: 'tasks', data }, OPTIONS).error, null);
  assert.equal(internalsOf(core).memoryBytes, sizes[0]);
  assertHealthy(core);
});

test('regression: acts made per request and dropped without registry.delete() free their memory once collected: 20,000 calls fit', BOUNDED, async () => {
  // Each act's registry (a few KB with 20 refs) used to stay in the core until 96 MiB ran out, at about the 14,000th
  // act: every call then failed with out_of_memory. Run where the collector can be asked (--expose-gc), so that
  // what is checked is the package freeing what was collected, not when the engine chooses to collect.
  const script = `
    import { loadCore } from ${JSON.stringify(new URL('../../web/src/index.node.js', import.meta.url).href)};
    import { internalsOf } from ${JSON.stringify(new URL('../../web/src/core/internals.js', import.meta.url).href)};
    const core = await loadCore({ warmUp: false });
    const rows = Array.from({ length: 20 }, (_, i) => ({ id: '00000000-0000-4000-8000-' + String(i).padStart(12, '0'), user_id: ${JSON.stringify(USER)}, name: 'item ' + i, quantity: i }));
    const body = new TextEncoder().encode(JSON.stringify(rows));
    const fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'content-range': '0-19/*' } });
    for (let i = 0; i < 20000; i++) {
      const act = core.createAct({ url: 'http://127.0.0.1:3000', apiKey: 'anon', accessToken: ${JSON.stringify(TOKEN)}, fetch });
      const text = await act.callToolText('db_read', '{"table":"inventory"}');
      if (!text.startsWith('{"ok":true')) throw new Error('call ' + i + ': ' + text.slice(0, 300));
      if (i % 1000 === 999) { globalThis.gc(); await new Promise((resolve) => setImmediate(resolve)); }
    }
    console.log(internalsOf(core).memoryBytes);`;
  const { stdout } = await execFileAsync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { timeout: 100_000 });
  assert.ok(Number(stdout) <= 32 * MiB, `memory ${stdout.trim()} bytes`);
});

test('execute: the largest response the limits allow fits in 48 MiB of WASM memory, and the next one reuses it', BOUNDED, async () => {
  const core = await loadCore();
  const body = taskRows(10_000, { pad: 700 });
  const sizes = [];
  for (let round = 0; round < 3; round++) {
    const act = core.createAct({ restUrl: 'http://127.0.0.1:3000', userId: USER, accessToken: TOKEN, fetch: async () => new Response(body, { status: 200 }) });
    const { data, error } = await act.execute('db_read', { table: 'tasks' });
    assert.equal(error, null);
    assert.equal(data.length, 10_000);
    act.registry.delete();
    sizes.push(internalsOf(core).memoryBytes);
  }
  assert.ok(sizes[0] <= 48 * MiB, `grew to ${sizes[0]} bytes`);
  assert.deepEqual(sizes.slice(1), [sizes[0], sizes[0]]);
  // One row more than maxRows: refused when the translation reaches it, with nothing registered.
  const over = core.createAct({ restUrl: 'http://127.0.0.1:3000', userId: USER, accessToken: TOKEN, fetch: async () => new Response(taskRows(10_001), { status: 200 }) });
  const { error } = await over.execute('db_read', { table: 'tasks' });
  assert.deepEqual([error.code, error.message], ['response_too_large', 'reading tasks failed: the response is larger than the limit (more than 10000 rows)']);
  assert.deepEqual(over.registry.toJSON().refs, []);
});

test('limits are options: createAct({ limits }) and loadCore({ maxInputBytes }), checked', BOUNDED, async () => {
  const core = await loadCore();
  assert.deepEqual(core.executionLimits, { maxParamsBytes: MiB, maxStringBytes: 256 << 10, maxResponseBytes: 8 * MiB, maxRows: 10_000 });
  assert.equal(core.maxInputBytes, 8 * MiB);
  const act = core.createAct({ restUrl: 'http://127.0.0.1:3000', userId: USER, accessToken: TOKEN, limits: { maxRows: 2, maxParamsBytes: 100 }, fetch: async () => new Response(taskRows(3)) });
  assert.deepEqual(act.limits, { maxParamsBytes: 100, maxStringBytes: 256 << 10, maxResponseBytes: 8 * MiB, maxRows: 2 });
  assert.equal((await act.execute('db_read', { table: 'tasks' })).error.message, 'reading tasks failed: the response is larger than the limit (more than 2 rows)');
  const tooBig = await act.execute('db_read', { table: 'tasks', filters: [{ field: 'title', op: '=', value: 'z'.repeat(200) }] });
  assert.deepEqual([tooBig.error.code, tooBig.error.message], ['params_too_large', 'the size of the params is over the limit of 100 bytes']);
  assert.throws(() => core.createAct({ url: 'http://x', limits: { maxRows: 0 } }), { code: 'invalid_option', path: 'limits.maxRows' });
  assert.throws(() => core.createAct({ url: 'http://x', limits: { maxResponseBytes: 64 * MiB } }), { code: 'invalid_option' });
  assert.throws(() => core.createAct({ url: 'http://x', limits: { maxBananas: 1 } }), { code: 'invalid_option', path: 'limits.maxBananas' });
  assert.throws(() => core.createAct({ url: 'http://x', timeoutMs: 0 }), { code: 'invalid_option', path: 'timeoutMs' });
  await assert.rejects(loadCore({ maxInputBytes: 64 * MiB }), { code: 'invalid_option', path: 'maxInputBytes' });
});

// Every limit at its maximum (web/src/limits.js), each call twice on one
// core and its registry's state written after it, as the worker and the MCP
// sessions do: the maxima once were 32 MiB and 100 000 rows, and a call at
// them was out_of_memory every time.
test('regression: execute at the largest limits fits, twice on one core, and the state is written after each call', BOUNDED, async () => {
  const { MAX_LIMITS } = await import('../../web/src/limits.js');
  assert.deepEqual(MAX_LIMITS, { maxParamsBytes: 4 * MiB, maxStringBytes: 2 * MiB, maxResponseBytes: 8 * MiB, maxRows: 100_000 });
  const core = await loadCore();
  assert.deepEqual(Object.keys(MAX_LIMITS).sort(), Object.keys(core.executionLimits).sort());
  const echo = async (url, init) => new Response(JSON.stringify([JSON.parse(init.body)].flat()), { status: 201 });
  const actWith = (fetch) => core.createAct({ restUrl: 'http://127.0.0.1:3000', userId: USER, accessToken: TOKEN, limits: MAX_LIMITS, fetch });
  // The row count limit and the response limit at once: 100 000 rows in 8 MiB.
  // (Ids from 2^20: the user's own id would be `me`, not a ref.)
  const manyRows = `[${Array.from({ length: 100_000 }, (_, i) => `{"id":"00000000-0000-4000-8000-${(i + 2 ** 20).toString(16).padStart(12, '0')}","title":"t${i}"}`).join(',')}]`;
  assert.ok(manyRows.length <= 8 * MiB, `${manyRows.length}`);
  // The response limit with the longest labels (200 characters): 27 500 rows.
  const longLabels = taskRows(27_500, { pad: 200, base: 2 ** 20 });
  assert.ok(longLabels.length <= 8 * MiB && longLabels.length > 7.5 * MiB, `${longLabels.length}`);
  // The params limit: 1 000 rows (a create's most) in 4 MiB; the string limit: one title of 2 MiB.
  const batch = Array.from({ length: 1_000 }, (_, i) => ({ title: `task ${i} ${'b'.repeat(4_000)}` }));
  assert.ok(JSON.stringify({ table: 'tasks', data: batch }).length <= 4 * MiB);
  const longString = { title: 's'.repeat(2 * MiB - 16) };
  for (let round = 0; round < 2; round++) {
    for (const body of [manyRows, longLabels]) {
      const act = actWith(async () => new Response(body));
      const { data, error } = await act.execute('db_read', { table: 'tasks' });
      assert.equal(error, null, `round ${round}: ${error?.message}`);
      assert.equal(data.length, body === manyRows ? 100_000 : 27_500);
      assert.equal(act.registry.toJSON().refs.length, data.length);
      act.registry.delete();
    }
    for (const data of [batch, longString]) {
      const act = actWith(echo);
      const created = await act.execute('db_create', { table: 'tasks', data });
      assert.equal(created.error, null, `round ${round}: ${created.error?.message}`);
      assert.equal([created.data].flat().length, Array.isArray(data) ? 1_000 : 1);
      assert.ok(act.registry.toJSON().refs.length >= 1);
      act.registry.delete();
    }
    assert.ok(internalsOf(core).memoryBytes <= 96 * MiB, `memory ${internalsOf(core).memoryBytes}`);
  }
  assertHealthy(core);
  // One past each maximum is refused when the act is made.
  for (const [key, most] of Object.entries(MAX_LIMITS)) {
    assert.throws(() => core.createAct({ url: 'http://x', limits: { [key]: most + 1 } }), { code: 'invalid_option', path: `limits.${key}`, message: `limits.${key} must be a whole number from 1 to ${most}` });
  }
});

test('regression: the stateless calls at the largest input (8 MiB) fit', BOUNDED, async () => {
  const core = await loadCore({ maxInputBytes: 8 * MiB });
  const rows = Array.from({ length: 1_000 }, (_, i) => ({ title: `task ${i} ${'y'.repeat(8_000)}` }));
  for (let round = 0; round < 2; round++) {
    const request = core.buildRequest('db_create', { table: 'tasks', data: rows }, OPTIONS);
    assert.equal(request.error, null, request.error?.message);
    const text = JSON.stringify({ action: 'step_complete', summary: 's', data: 'q'.repeat(8 * MiB - 1_000), note_for_next_step: '' });
    const decision = core.parseDecision(text, { stepType: 'analyze' });
    assert.equal(decision.error, null, decision.error?.message);
    assert.ok(internalsOf(core).memoryBytes <= 96 * MiB);
  }
  assertHealthy(core);
  await assert.rejects(loadCore({ maxInputBytes: 8 * MiB + 1 }), { code: 'invalid_option', path: 'maxInputBytes', message: 'maxInputBytes must be a whole number from 1 to 8388608' });
});
