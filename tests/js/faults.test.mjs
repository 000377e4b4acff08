// Faults around execute(), injected into a real exchange with the real local
// stack (PostgREST 12 on PGlite): a fetch wrapped around the real fetch that
// breaks, delays or replaces answers; a TCP proxy that loses or cuts real
// answers after PostgREST acted on the request; PostgREST stopped mid-run.
// Every case: `{ data, error }` with a typed code and no throw, no write sent
// twice by one execute, the registry unchanged by a write that failed, and
// the database read back directly.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadCore } from '../../web/src/index.node.js';
import { internalsOf, setInternals } from '../../web/src/core/internals.js';
import { createChatModel } from '../../web/src/llm/index.js';
import { runStep } from '../../web/src/loop/index.js';
import { faultProxy } from './support/fault-proxy.mjs';
import { startScriptedModel } from './support/scripted-model.mjs';
import { stepComplete, toolCall } from './support/decisions.mjs';
import { rest, sharedStack } from './support/stack.mjs';
import { freePort } from '../../db/ports.mjs';

// Every test has a time bound: a fault that hangs fails the test instead of stalling the suite.
const BOUNDED = { timeout: 60_000 };

const stack = sharedStack();
const ada = () => stack().users[0];
let core;
before(async () => {
  core = await loadCore();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const WRITES = new Set(['POST', 'PATCH', 'DELETE']);
const bytes = (text) => new TextEncoder().encode(text);
let serial = 0;
const uniqueTitle = (what) => `fault ${what} ${process.pid}-${++serial}`;

/**
 * The real fetch, with `inject(request, send)` deciding each answer: call
 * `send()` for the real one (and change it), return another Response, throw,
 * or never settle. Every request is recorded in `.sent`.
 */
function faultFetch(inject = (request, send) => send()) {
  const sent = [];
  const wrapped = (url, init = {}) => {
    const request = { url: String(url), method: init.method ?? 'GET', body: init.body ?? null, signal: init.signal };
    sent.push(request);
    return inject(request, () => fetch(url, init));
  };
  wrapped.sent = sent;
  return wrapped;
}

// `url` here is a PostgREST root (the stack's, or a fault proxy in front of it).
// The faults are injected on a call's first write request: maxAffected is
// off, so that its first try of the strict preference (which PostgREST 12
// refuses, docs/safety-controls.md) does not take the fault instead.
function actWith(fetch, { url, ...options } = {}) {
  return core.createAct({ restUrl: url ?? stack().url, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, fetch, maxAffected: 0, ...options });
}

// An execute that hangs fails here, well before the test's own limit. This
// is a bound for hangs only: which timer ended a call is checked by its
// error message, and how fast is the benches' business.
const HANG_MS = 20_000;

/**
 * Runs one execute and checks what every fault must leave: a `{ data, error }`
 * result, the expected error code, no write sent twice, no UUID shown, and
 * (for a failed write) the registry as it was.
 */
async function executeChecked(act, fetch, tool, params, { code } = {}) {
  const before = act.registry.toJSON();
  const sentBefore = fetch.sent.length;
  const started = performance.now();
  const result = await act.execute(tool, params);
  const elapsed = performance.now() - started;
  assert.ok(elapsed < HANG_MS, `execute hung for ${Math.round(elapsed)} ms`);
  assert.ok('data' in result && 'error' in result, 'a { data, error } result');
  if (code === null) {
    assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  } else {
    assert.equal(result.error?.code, code, `expected ${code}, got ${JSON.stringify(result.error)}`);
    assert.equal(typeof result.error.message, 'string');
    assert.equal(result.data, null);
  }
  const writes = fetch.sent.slice(sentBefore).filter((request) => WRITES.has(request.method));
  const seen = new Set();
  for (const write of writes) {
    const key = `${write.method} ${write.url} ${write.body}`;
    assert.ok(!seen.has(key), `a write was sent twice: ${key}`);
    seen.add(key);
  }
  assert.doesNotMatch(JSON.stringify([result.data, result.query, result.error?.message ?? '']), UUID, 'no UUID shown');
  if (result.error && tool !== 'db_read') {
    // The refs are as they were; a create of unknown outcome keeps the ids it
    // was sent with (under `uncertain`), so that a retry reuses them.
    const { uncertain, ...after } = act.registry.toJSON();
    const { uncertain: _before, ...was } = before;
    assert.deepEqual(after, was, 'a failed write leaves the refs as they were');
    const sentIds = tool === 'db_create' ? writes.flatMap((write) => [JSON.parse(write.body)].flat().map((row) => row.id)).filter(Boolean) : [];
    if (result.error.code === 'write_outcome_unknown' && sentIds.length > 0) {
      assert.ok(uncertain?.some((entry) => sentIds.every((id) => entry.ids.includes(id))), 'the ids of a create of unknown outcome are kept in the state');
    }
  }
  return { result, writes };
}

async function tasksTitled(title) {
  const { status, body } = await rest(stack(), ada().token, 'GET', `/tasks?select=id,title,completed&title=eq.${encodeURIComponent(title)}`);
  assert.equal(status, 200);
  return body;
}

/** A response whose body is produced lazily, `chunk` bytes at a time, `total` in all; counts what was pulled. */
function lazyBody(total, { chunk = 64 << 10, headers = {}, status = 200 } = {}) {
  let produced = 0;
  const piece = new Uint8Array(chunk).fill(0x20);
  const stream = new ReadableStream({
    pull(controller) {
      if (produced >= total) return controller.close();
      const next = Math.min(chunk, total - produced);
      produced += next;
      controller.enqueue(next === chunk ? piece.slice() : piece.slice(0, next));
    },
  });
  const response = new Response(stream, { status, headers: { 'content-type': 'application/json', ...headers } });
  return { response, pulled: () => produced };
}

// ---- the network --------------------------------------------------------

test('connection refused: nothing was sent, so even a write is network_error (no effect), promptly', BOUNDED, async () => {
  const fetch = faultFetch();
  const act = actWith(fetch, { url: `http://127.0.0.1:${await freePort()}` });
  const read = await executeChecked(act, fetch, 'db_read', { table: 'tasks' }, { code: 'network_error' });
  assert.equal(read.result.error.hint, 'nothing was sent; try again');
  const write = await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title: uniqueTitle('refused') } }, { code: 'network_error' });
  assert.match(write.result.error.message, /^db_create on tasks failed: the database could not be reached \(.*ECONNREFUSED/);
  assert.equal(write.writes.length, 1);
});

test('regression: a fetch that ignores the abort signal and never answers cannot hang execute', BOUNDED, async () => {
  const fetch = faultFetch(() => new Promise(() => {}));
  const act = actWith(fetch, { timeoutMs: 200 });
  const read = await executeChecked(act, fetch, 'db_read', { table: 'tasks' }, { code: 'timeout' });
  assert.equal(read.result.error.message, 'reading tasks failed: no response within 200 ms');
  const write = await executeChecked(act, fetch, 'db_update', { table: 'tasks', filters: [{ field: 'title', op: '=', value: 'x' }], data: { completed: true } }, { code: 'write_outcome_unknown' });
  assert.match(write.result.error.message, /the request was sent but no answer came \(no response within 200 ms\)/);
  assert.ok(fetch.sent.every((request) => request.signal.aborted), 'the request was told to stop');
});

test('regression: a body that stalls after the headers cannot hang execute; a create whose body stalled is read back by id', BOUNDED, async () => {
  const stalled = (status) => new Response(new ReadableStream({ start: (controller) => controller.enqueue(bytes('[{"id":')) }), { status, headers: { 'content-type': 'application/json' } });
  const readFetch = faultFetch(() => stalled(200));
  const read = await executeChecked(actWith(readFetch, { timeoutMs: 200 }), readFetch, 'db_read', { table: 'tasks' }, { code: 'timeout' });
  assert.equal(read.result.error.status, 200);
  assert.equal(read.result.error.message, 'reading tasks failed: the body did not arrive within 200 ms');

  // The insert really happens; only its answer stalls.
  const title = uniqueTitle('stalled body');
  const fetch = faultFetch(async (request, send) => {
    const response = await send();
    return request.method === 'POST' ? stalled(response.status) : response;
  });
  // Long enough for the real insert to answer on a busy machine; the stall then uses it up.
  const act = actWith(fetch, { timeoutMs: 1500 });
  const { result } = await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title } }, { code: null });
  assert.match(result.data.id, /^task_\d+$/);
  assert.equal(result.data.title, title);
  assert.deepEqual(result.query.notes, ["the database's answer (HTTP 201 Created) could not be read; the created rows were read back by id"]);
  assert.deepEqual(fetch.sent.map((request) => request.method), ['POST', 'GET']);
  const rows = await tasksTitled(title);
  assert.equal(rows.length, 1);
  assert.equal(act.registry.toJSON().refs.find((entry) => entry.ref === result.data.id).uuid, rows[0].id);
});

test('regression: a connection reset while reading a write\'s body is write_outcome_unknown with the status kept, not network_error', BOUNDED, async () => {
  const proxy = await faultProxy(stack().url);
  try {
    const fetch = faultFetch();
    const act = actWith(fetch, { url: proxy.url });
    const title = uniqueTitle('reset body');
    await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title } }, { code: null });
    proxy.fault('cut', { bodyBytes: 5 });
    const { result } = await executeChecked(act, fetch, 'db_update', { table: 'tasks', filters: [{ field: 'title', op: '=', value: title }], data: { completed: true } }, { code: 'write_outcome_unknown' });
    assert.equal(result.error.status, 200);
    assert.equal(result.error.message, 'db_update on tasks: the outcome is unknown; the database answered HTTP 200 OK but its answer was cut off');
    assert.match(result.error.hint, /^the change may or may not have been made: read the rows \(db_read\) before trying again/);
    assert.deepEqual(await tasksTitled(title).then((rows) => rows.map((row) => row.completed)), [true], 'the update did happen');
  } finally {
    await proxy.close();
  }
});

test('a create whose answer was lost, retried in a later call by a new act from the saved state, leaves exactly one row', BOUNDED, async () => {
  // What the worker's /act/execute and the MCP server do between calls: the
  // state travels, the act does not.
  const proxy = await faultProxy(stack().url);
  try {
    const fetch = faultFetch();
    const first = actWith(fetch, { url: proxy.url });
    const title = uniqueTitle('lost answer across calls');
    const params = { table: 'tasks', data: { title, category: 'prep' } };
    proxy.fault('drop');
    const lost = await executeChecked(first, fetch, 'db_create', params, { code: 'write_outcome_unknown' });
    const firstId = JSON.parse(lost.writes[0].body).id;
    const state = JSON.parse(JSON.stringify(first.registry.toJSON()));
    assert.deepEqual(state.uncertain.map((entry) => entry.ids), [[firstId]]);

    const later = actWith(fetch, { url: proxy.url, state });
    const retried = await executeChecked(later, fetch, 'db_create', params, { code: null });
    assert.equal(JSON.parse(retried.writes[0].body).id, firstId, 'the retry in the later call sends the same row id');
    const rows = await tasksTitled(title);
    assert.deepEqual(rows.map((row) => row.id), [firstId], 'exactly one row');
    assert.equal(later.registry.toJSON().uncertain, undefined, 'settled: nothing uncertain is kept');
  } finally {
    await proxy.close();
  }
});

test('regression: a create retried after its answer was lost leaves exactly one row (same row ids, duplicate key, read back)', BOUNDED, async () => {
  const proxy = await faultProxy(stack().url);
  try {
    const fetch = faultFetch();
    const act = actWith(fetch, { url: proxy.url });
    const title = uniqueTitle('lost answer');
    const params = { table: 'tasks', data: { title, category: 'prep' } };
    proxy.fault('drop');
    const lost = await executeChecked(act, fetch, 'db_create', params, { code: 'write_outcome_unknown' });
    assert.equal(lost.result.error.status, undefined, 'no status arrived');
    assert.match(lost.result.error.message, /^db_create on tasks: the outcome is unknown; the request was sent but no answer came/);
    assert.equal((await tasksTitled(title)).length, 1, 'PostgREST did insert it');
    const firstId = JSON.parse(lost.writes[0].body).id;
    assert.match(firstId, UUID);

    const retried = await executeChecked(act, fetch, 'db_create', params, { code: null });
    assert.equal(JSON.parse(retried.writes[0].body).id, firstId, 'the retry sends the same row id');
    assert.deepEqual(fetch.sent.slice(-2).map((request) => request.method), ['POST', 'GET']);
    assert.match(retried.result.query.notes[0], /inserted by an earlier attempt whose answer was lost/);
    const rows = await tasksTitled(title);
    assert.equal(rows.length, 1, 'exactly one row');
    assert.equal(rows[0].id, firstId);
    const entry = act.registry.toJSON().refs.find((ref) => ref.ref === retried.result.data.id);
    assert.deepEqual([entry.uuid, entry.action], [firstId, 'created']);

    // A fresh create of the same data afterwards is a new row: ids are reused only after an unknown outcome.
    await executeChecked(act, fetch, 'db_create', params, { code: null });
    assert.equal((await tasksTitled(title)).length, 2);
  } finally {
    await proxy.close();
  }
});

test('a strict tool\'s create, whose data is JSON text, sends row ids too: retried after a lost answer, it leaves exactly one row', BOUNDED, async () => {
  const proxy = await faultProxy(stack().url);
  try {
    const fetch = faultFetch();
    const act = actWith(fetch, { url: proxy.url });
    const title = uniqueTitle('strict lost answer');
    const params = { table: 'tasks', data: JSON.stringify({ title, category: 'prep' }) };
    proxy.fault('drop');
    const lost = await executeChecked(act, fetch, 'db_create', params, { code: 'write_outcome_unknown' });
    const firstId = JSON.parse(lost.writes[0].body).id;
    assert.match(firstId, UUID);
    assert.match(lost.result.error.hint, /a repeated db_create of the same data reuses its row ids/);
    const retried = await executeChecked(act, fetch, 'db_create', params, { code: null });
    assert.equal(JSON.parse(retried.writes[0].body).id, firstId, 'the retry sends the same row id');
    assert.deepEqual((await tasksTitled(title)).map((row) => row.id), [firstId], 'exactly one row');
  } finally {
    await proxy.close();
  }
});

test('the Act loop: a create whose answer was lost is reported as an unknown outcome, and its retry saves one row', BOUNDED, async () => {
  const proxy = await faultProxy(stack().url);
  const title = uniqueTitle('loop retry');
  const create = toolCall('db_create', { table: 'tasks', data: { title } });
  const server = await startScriptedModel([create, create, stepComplete('Saved the task')]);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'scripted', retryDelayMs: 10, maxRetries: 0 });
    const act = actWith(faultFetch(), { url: proxy.url });
    proxy.fault('drop');
    const result = await runStep({ core, act, model, step: { description: 'Add the task', type: 'write' }, context: { userMessage: 'add it' } });
    assert.equal(result.status, 'complete');
    assert.deepEqual(result.queries.map((query) => query.error?.code ?? 'ok'), ['write_outcome_unknown', 'ok']);
    const feedback = server.requests[1].body.messages.at(-1).content;
    assert.match(feedback, /^Tool result for db_create: OUTCOME UNKNOWN\. The change may or may not have been made\./);
    assert.doesNotMatch(feedback, /no effect/);
    assert.equal((await tasksTitled(title)).length, 1, 'one row, not two');
  } finally {
    await server.stop();
    await proxy.close();
  }
});

// ---- what came back -------------------------------------------------------

test('regression: a 5xx HTML page gives a short message; the page is kept, cut, for developers', BOUNDED, async () => {
  const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${'<p>upstream trouble</p>'.repeat(500)}</body></html>`;
  const fetch = faultFetch(() => new Response(page, { status: 502, headers: { 'content-type': 'text/html' } }));
  const act = actWith(fetch);
  const { result } = await executeChecked(act, fetch, 'db_read', { table: 'tasks' }, { code: 'server_error' });
  assert.deepEqual([result.error.message, result.error.status], ['reading tasks failed: HTTP 502 Bad Gateway', 502]);
  assert.ok(result.error.rawBody.startsWith('<!DOCTYPE html>') && result.error.rawBody.length < 1100);
  // The same page for a write: something between us and the database gave up; it may have committed.
  const write = await executeChecked(act, fetch, 'db_delete', { table: 'tasks', filters: [{ field: 'title', op: '=', value: 'none' }] }, { code: 'write_outcome_unknown' });
  assert.equal(write.result.error.status, 502);
  assert.doesNotMatch(write.result.error.message, /</);
});

test('a 502 on a create that never reached the database: unknown outcome, and the retry inserts exactly one row', BOUNDED, async () => {
  let failNext = true;
  const fetch = faultFetch((request, send) => {
    if (request.method === 'POST' && failNext) {
      failNext = false;
      return new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
    }
    return send();
  });
  const act = actWith(fetch);
  const title = uniqueTitle('502 create');
  const params = { table: 'tasks', data: { title } };
  await executeChecked(act, fetch, 'db_create', params, { code: 'write_outcome_unknown' });
  assert.equal((await tasksTitled(title)).length, 0);
  const { result } = await executeChecked(act, fetch, 'db_create', params, { code: null });
  assert.deepEqual(result.query.notes, []);
  assert.equal((await tasksTitled(title)).length, 1);
});

test('4xx answers with and without PostgREST error JSON are typed refusals; a refused write changes nothing', BOUNDED, async () => {
  const cases = [
    [401, { code: 'PGRST301', message: 'JWT expired', details: null, hint: null }, 'unauthorized', 'JWT expired'],
    [401, null, 'unauthorized', 'HTTP 401 Unauthorized'],
    [403, { code: '42501', message: 'permission denied for table tasks', details: null, hint: null }, 'permission_denied', 'permission denied for table tasks'],
    [403, null, 'permission_denied', 'HTTP 403 Forbidden'],
    [404, { code: 'PGRST205', message: "Could not find the table 'public.tasks' in the schema cache", details: null, hint: null }, 'unknown_table', "Could not find the table 'public.tasks' in the schema cache"],
    [404, null, 'not_found', 'HTTP 404 Not Found'],
    [409, { code: '23505', message: 'duplicate key value violates unique constraint "tasks_title_key"', details: 'Key (title)=(x) already exists.', hint: null }, 'duplicate', 'duplicate key value violates unique constraint "tasks_title_key"'],
    [409, null, 'conflict', 'HTTP 409 Conflict'],
    [429, { code: 'PGRST000', message: 'too many requests', details: null, hint: null }, 'rate_limited', 'too many requests'],
    [429, null, 'rate_limited', 'HTTP 429 Too Many Requests'],
  ];
  for (const [status, json, code, message] of cases) {
    const answer = () => (json ? new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } }) : new Response('<html><body>nope</body></html>', { status, headers: { 'content-type': 'text/html' } }));
    const fetch = faultFetch(answer);
    const act = actWith(fetch);
    const read = await executeChecked(act, fetch, 'db_read', { table: 'tasks' }, { code });
    assert.deepEqual([read.result.error.status, read.result.error.message], [status, `reading tasks failed: ${message}`]);
    const title = uniqueTitle(`refused ${status}`);
    const write = await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title } }, { code });
    assert.equal(write.result.error.message, `db_create on tasks failed: ${message}`);
    assert.equal(write.writes.length, 1);
    assert.equal((await tasksTitled(title)).length, 0);
  }
});

test('truncated JSON: a read is an error; a create is settled by reading it back; an update is write_outcome_unknown', BOUNDED, async () => {
  const truncate = async (response) => {
    const text = await response.text();
    return new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), { status: response.status, headers: { 'content-type': 'application/json' } });
  };
  // The read back of a create by its ids is left whole.
  const fetch = faultFetch(async (request, send) => (request.method === 'GET' && request.url.includes('id=in.') ? send() : truncate(await send())));
  const act = actWith(fetch);
  const read = await executeChecked(act, fetch, 'db_read', { table: 'tasks', limit: 5 }, { code: 'invalid_response' });
  assert.deepEqual([read.result.error.status, read.result.error.message], [200, 'reading tasks failed: the database answered HTTP 200 OK but not with rows']);

  const title = uniqueTitle('truncated');
  const created = await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title } }, { code: null });
  assert.equal(created.result.data.title, title);
  const updated = await executeChecked(act, fetch, 'db_update', { table: 'tasks', filters: [{ field: 'id', op: '=', value: created.result.data.id }], data: { completed: true } }, { code: 'write_outcome_unknown' });
  assert.equal(updated.result.error.status, 200);
  assert.equal(updated.result.error.message, 'db_update on tasks: the outcome is unknown; the database answered HTTP 200 OK but its answer has no rows');
  assert.deepEqual((await tasksTitled(title)).map((row) => row.completed), [true]);
});

test('invalid UTF-8 in a body: the rows come through with replacement characters, nothing throws', BOUNDED, async () => {
  const title = uniqueTitle('utf8');
  const setup = faultFetch();
  await executeChecked(actWith(setup), setup, 'db_create', { table: 'tasks', data: { title: `${title} AB` } }, { code: null });
  const fetch = faultFetch(async (request, send) => {
    const body = new Uint8Array(await (await send()).arrayBuffer());
    const text = new TextDecoder().decode(body);
    const at = text.indexOf(' AB');
    const broken = new Uint8Array([...body.subarray(0, at + 1), 0xff, 0xfe, 0xc3, ...body.subarray(at + 3)]);
    return new Response(broken, { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const { result } = await executeChecked(actWith(fetch), fetch, 'db_read', { table: 'tasks', filters: [{ field: 'title', op: 'ilike', value: `${title}*` }] }, { code: null });
  assert.equal(result.data.length, 1);
  assert.equal(result.data[0].title, `${title} \ufffd\ufffd\ufffd`);
});

test('200 with a non-array body: a read is invalid_response; a write is write_outcome_unknown (a create is read back by id)', BOUNDED, async () => {
  const fetch = faultFetch(async (request, send) => {
    const response = await send();
    if (request.method === 'GET' && request.url.includes('id=in.')) return response;
    return new Response('"ok"', { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const act = actWith(fetch);
  const read = await executeChecked(act, fetch, 'db_read', { table: 'tasks' }, { code: 'invalid_response' });
  assert.equal(read.result.error.message, 'the database answered tasks with a string instead of an array of rows');
  assert.equal(read.result.error.status, 200);
  const title = uniqueTitle('non-array');
  const created = await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title } }, { code: null });
  assert.equal(created.result.data.title, title);
  assert.equal((await tasksTitled(title)).length, 1);
  const removed = await executeChecked(act, fetch, 'db_delete', { table: 'tasks', filters: [{ field: 'id', op: '=', value: created.result.data.id }] }, { code: 'write_outcome_unknown' });
  assert.match(removed.result.error.message, /answered HTTP 200 OK but its answer has no rows$/);
  assert.equal((await tasksTitled(title)).length, 0, 'the delete did happen');
});

test('206 with Content-Range: the rows and the total it gives', BOUNDED, async () => {
  const fetch = faultFetch(async (request, send) => {
    const response = await send();
    return new Response(await response.arrayBuffer(), { status: 206, headers: { 'content-type': 'application/json', 'content-range': '0-1/57' } });
  });
  const { result } = await executeChecked(actWith(fetch), fetch, 'db_read', { table: 'tasks', limit: 2, count: 'exact' }, { code: null });
  assert.equal(result.count, 57);
  assert.ok(result.data.length <= 2);
});

test('201 with an empty body: the created row is read back by id; a 204 on an update is write_outcome_unknown', BOUNDED, async () => {
  const fetch = faultFetch(async (request, send) => {
    const response = await send();
    if (request.method === 'POST') return new Response(null, { status: 201 });
    if (request.method === 'PATCH') return new Response(null, { status: 204 });
    return response;
  });
  const act = actWith(fetch);
  const title = uniqueTitle('empty 201');
  const { result } = await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title } }, { code: null });
  assert.equal(result.data.title, title);
  const [row] = await tasksTitled(title);
  assert.equal(act.registry.toJSON().refs.find((entry) => entry.ref === result.data.id).uuid, row.id);
  const update = await executeChecked(act, fetch, 'db_update', { table: 'tasks', filters: [{ field: 'id', op: '=', value: result.data.id }], data: { completed: true } }, { code: 'write_outcome_unknown' });
  assert.equal(update.result.error.status, 204);
});

test('100 MB bodies: refused from Content-Length without reading, or after the limit while streaming; WASM memory does not grow', BOUNDED, async () => {
  const total = 100 << 20;
  const limit = core.executionLimits.maxResponseBytes;
  let last;
  const declared = faultFetch(() => (last = lazyBody(total, { headers: { 'content-length': String(total) } })).response);
  const memoryBefore = internalsOf(core).memoryBytes;
  const act = actWith(declared);
  const read = await executeChecked(act, declared, 'db_read', { table: 'tasks' }, { code: 'response_too_large' });
  assert.equal(read.result.error.message, 'reading tasks failed: the response is larger than the limit (Content-Length 104857600 bytes, over 8 MiB)');
  assert.ok(last.pulled() <= 1 << 20, `pulled ${last.pulled()} bytes`);

  const streamed = faultFetch(() => (last = lazyBody(total)).response);
  const second = await executeChecked(actWith(streamed), streamed, 'db_read', { table: 'tasks' }, { code: 'response_too_large' });
  assert.equal(second.result.error.message, 'reading tasks failed: the response is larger than the limit (more than 8 MiB of body)');
  assert.ok(last.pulled() <= limit + (128 << 10), `pulled ${last.pulled()} bytes`);
  assert.equal(internalsOf(core).memoryBytes, memoryBefore, 'nothing was copied into WASM memory');

  // A create answered with 100 MB: the row was saved; the answer is over the limit.
  const title = uniqueTitle('huge answer');
  const fetch = faultFetch(async (request, send) => {
    const response = await send();
    return request.method === 'POST' ? lazyBody(total, { status: response.status }).response : response;
  });
  const create = await executeChecked(actWith(fetch), fetch, 'db_create', { table: 'tasks', data: { title } }, { code: 'write_outcome_unknown' });
  assert.equal(create.result.error.status, 201);
  assert.match(create.result.error.message, /answered HTTP 201 Created but its answer is over the limit$/);
  assert.equal((await tasksTitled(title)).length, 1);
});

test('a fetch that resolves to something other than a Response is invalid_response (a write: write_outcome_unknown)', BOUNDED, async () => {
  for (const value of [undefined, null, 42, { ok: true }, { status: 200, headers: null }]) {
    const fetch = faultFetch(async () => value);
    const act = actWith(fetch);
    const read = await executeChecked(act, fetch, 'db_read', { table: 'tasks' }, { code: 'invalid_response' });
    assert.doesNotMatch(read.result.error.message, /Cannot read properties/);
    await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title: uniqueTitle('not a response') } }, { code: 'write_outcome_unknown' });
  }
  const throwing = faultFetch(() => {
    throw new TypeError('fetch is broken');
  });
  const thrown = await executeChecked(actWith(throwing), throwing, 'db_read', { table: 'tasks' }, { code: 'network_error' });
  assert.equal(thrown.result.error.message, 'reading tasks failed: fetch is broken');
});

/**
 * The real core, except that the execution handles it starts throw `error()`
 * from `respond` for the first response to a need matching `when(need)`, as
 * the core does when it fails while taking an answer (a C++ exception that
 * escaped: a WebAssembly.Exception). The real execution goes on otherwise.
 * The Act starts executions through the core's plumbing (core/plumbing.js),
 * so the stand-in core gets plumbing of its own that differs in that.
 */
function coreFailingToRespond(when, error) {
  const plumbing = internalsOf(core);
  let armed = true;
  const startExecution = (...args) => {
    const execution = plumbing.startExecution(...args);
    let needs = [];
    return {
      ...execution,
      needs: () => (needs = execution.needs()),
      respond(index, response) {
        if (armed && when(needs[index])) {
          armed = false;
          throw error();
        }
        execution.respond(index, response);
      },
    };
  };
  const bound = (target, key) => {
    const value = Reflect.get(target, key, target);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const failing = new Proxy(core, { get: bound });
  setInternals(failing, new Proxy(plumbing, { get: (target, key) => (key === 'startExecution' ? startExecution : bound(target, key)) }));
  return failing;
}

const escapedException = () => new WebAssembly.Exception(new WebAssembly.Tag({ parameters: [] }), []);

test('regression: a throw from the core while it takes a response is a { data, error } result; after a write was sent it is write_outcome_unknown and the retry inserts one row', BOUNDED, async () => {
  const { Act } = await import('../../web/src/act/index.js');
  const options = { restUrl: stack().url, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id };

  // A read: internal_error (a plain throw) or out_of_memory (an escaped C++ exception), never a rejection.
  for (const [error, code] of [
    [() => new TypeError('respondAt: bad argument'), 'internal_error'],
    [escapedException, 'out_of_memory'],
  ]) {
    const fetch = faultFetch();
    const act = new Act(coreFailingToRespond((need) => need.method === 'GET', error), { ...options, fetch });
    const { result } = await executeChecked(act, fetch, 'db_read', { table: 'tasks', limit: 1 }, { code });
    assert.deepEqual(Object.keys(result), ['data', 'error', 'query', 'count']);
    assert.deepEqual([result.query, result.count], [null, null]);
    if (code === 'internal_error') assert.equal(result.error.message, 'alfred-act core failed: respondAt: bad argument');
    // The act keeps working.
    await executeChecked(act, fetch, 'db_read', { table: 'tasks', limit: 1 }, { code: null });
  }

  // A create: the row is in the database, so the outcome is unknown (status
  // kept), and the act keeps the row ids: the retry is a duplicate key, read
  // back, not a second row.
  const fetch = faultFetch();
  const act = new Act(coreFailingToRespond((need) => need.method === 'POST', escapedException), { ...options, fetch });
  const title = uniqueTitle('core failed on the answer');
  const params = { table: 'tasks', data: { title } };
  const failed = await executeChecked(act, fetch, 'db_create', params, { code: 'write_outcome_unknown' });
  assert.deepEqual(failed.result.error, {
    code: 'write_outcome_unknown',
    path: '',
    message:
      "db_create on tasks: the outcome is unknown; the request was sent and the core failed while taking the database's answer (HTTP 201): out_of_memory: alfred-act core failed: the input needs more memory than the core may use",
    hint: 'the change may or may not have been made: read the rows (db_read) before trying again; a repeated db_create of the same data reuses its row ids, so it cannot insert a second row',
    status: 201,
  });
  // The hint is the core's own for a create of chosen row ids whose answer is unknown (a 201 cut off).
  const cut = faultFetch(async (request, send) => (request.method === 'POST' ? new Response('[{"id":', { status: 201, headers: { 'content-type': 'application/json' } }) : send()));
  const fromCore = await executeChecked(new Act(core, { ...options, fetch: cut }), cut, 'db_create', { table: 'tasks', data: { title: uniqueTitle('cut off') } }, { code: 'write_outcome_unknown' });
  assert.equal(failed.result.error.hint, fromCore.result.error.hint);
  // Without row ids (an update) a repeat is not called safe; a table the
  // user cannot read is not offered to db_read.
  const failingPatch = coreFailingToRespond((need) => need.method === 'PATCH', escapedException);
  const updated = await executeChecked(new Act(failingPatch, { ...options, fetch }), fetch, 'db_update', { table: 'tasks', filters: [{ field: 'title', op: '=', value: title }], data: { completed: false } }, { code: 'write_outcome_unknown' });
  assert.equal(updated.result.error.hint, 'the change may or may not have been made: read the rows (db_read) before trying again');
  // As the core's own for an update whose outcome is unknown (answered 204 with no rows).
  const empty = faultFetch(async (request, send) => (request.method === 'PATCH' ? new Response(null, { status: 204 }) : send()));
  const updatedFromCore = await executeChecked(new Act(core, { ...options, fetch: empty }), empty, 'db_update', { table: 'tasks', filters: [{ field: 'title', op: '=', value: title }], data: { completed: true } }, { code: 'write_outcome_unknown' });
  assert.equal(updated.result.error.hint, updatedFromCore.result.error.hint);
  const { kitchen } = await import('../../web/src/kitchen.js');
  const writeOnly = { ...kitchen, tables: { ...kitchen.tables, tasks: { ...kitchen.tables.tasks, readable: false } } };
  const blind = await executeChecked(new Act(coreFailingToRespond((need) => need.method === 'POST', escapedException), { ...options, domain: writeOnly, fetch }), fetch, 'db_create', { table: 'tasks', data: { title: uniqueTitle('write-only') } }, { code: 'write_outcome_unknown' });
  assert.equal(blind.result.error.hint, 'tasks cannot be read to check: a repeated db_create of the same data reuses its row ids, so it cannot insert a second row');
  // The same text the core writes for that table (a gateway's 502 before the database's answer): the two stay one.
  const gateway = faultFetch(async (request, send) => (request.method === 'POST' ? new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }) : send()));
  const blindFromCore = await executeChecked(new Act(core, { ...options, domain: writeOnly, fetch: gateway }), gateway, 'db_create', { table: 'tasks', data: { title: uniqueTitle('write-only gateway') } }, { code: 'write_outcome_unknown' });
  assert.equal(blind.result.error.hint, blindFromCore.result.error.hint);
  const rows = await tasksTitled(title);
  assert.equal(rows.length, 1, 'PostgREST did insert it');
  assert.equal(rows[0].id, JSON.parse(failed.writes[0].body).id);
  const retried = await executeChecked(act, fetch, 'db_create', params, { code: null });
  assert.equal(JSON.parse(retried.writes[0].body).id, rows[0].id, 'the retry sends the same row id');
  assert.match(retried.result.query.notes[0], /inserted by an earlier attempt whose answer was lost/);
  assert.equal((await tasksTitled(title)).length, 1, 'exactly one row');

  // A write refused before it was sent (connection refused) stays "no effect".
  const refused = faultFetch();
  const offline = new Act(coreFailingToRespond((need) => need.method === 'POST', escapedException), { ...options, restUrl: `http://127.0.0.1:${await freePort()}`, fetch: refused });
  const { result } = await executeChecked(offline, refused, 'db_create', { table: 'tasks', data: { title: uniqueTitle('never sent') } }, { code: 'out_of_memory' });
  assert.equal(result.error.status, undefined);
});

test('regression: bad values are echoed cut to 80 bytes, never whole', BOUNDED, async () => {
  const fetch = faultFetch();
  const act = actWith(fetch);
  const huge = await executeChecked(act, fetch, 'db_read', { table: 'x'.repeat(50 << 20) }, { code: 'params_too_large' });
  assert.ok(huge.result.error.message.length < 200);
  const name = `${'é'.repeat(100)}`;
  const { result } = await executeChecked(act, fetch, 'db_read', { table: name }, { code: 'unknown_table' });
  assert.equal(result.error.message, `'${'é'.repeat(40)}…' is not a table of the kitchen domain`);
  const value = await executeChecked(act, fetch, 'db_read', { table: 'tasks', filters: [{ field: 'category', op: '=', value: 'z'.repeat(100_000) }] }, { code: 'invalid_value' });
  assert.ok(value.result.error.message.length < 300, value.result.error.message);
  const long = await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title: 't'.repeat(300_000) } }, { code: 'value_too_large' });
  assert.deepEqual([long.result.error.path, long.result.error.message], ['data.title', 'a text in the params is over the limit of 256 KiB']);
  assert.equal(fetch.sent.length, 0);
});

// ---- the server goes away -----------------------------------------------

test('PostgREST stopped mid-run: refused reads and writes change nothing; after a restart the same act goes on', BOUNDED, async () => {
  const fetch = faultFetch();
  const act = actWith(fetch);
  const title = uniqueTitle('outage');
  const before = await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title } }, { code: null });
  await stack().stopPostgrest();
  try {
    await executeChecked(act, fetch, 'db_read', { table: 'tasks' }, { code: 'network_error' });
    await executeChecked(act, fetch, 'db_update', { table: 'tasks', filters: [{ field: 'id', op: '=', value: before.result.data.id }], data: { completed: true } }, { code: 'network_error' });
    await executeChecked(act, fetch, 'db_create', { table: 'tasks', data: { title: `${title} 2` } }, { code: 'network_error' });
  } finally {
    await stack().startPostgrest();
  }
  const rows = await tasksTitled(title);
  assert.deepEqual(rows.map((row) => row.completed), [false]);
  assert.equal((await tasksTitled(`${title} 2`)).length, 0);
  const after = await executeChecked(act, fetch, 'db_read', { table: 'tasks', filters: [{ field: 'title', op: '=', value: title }] }, { code: null });
  assert.equal(after.result.data[0].id, before.result.data.id, 'the same ref for the same row');
});

// ---- concurrency ----------------------------------------------------------

test('regression: two concurrent saves of one gen_ artifact: one row, one promotion; the second is refused while the first runs', BOUNDED, async () => {
  const fetch = faultFetch();
  const act = actWith(fetch);
  const name = uniqueTitle('gen recipe');
  const { data: gen } = act.registry.registerGenerated('recipes', { name, instructions: ['Cook.'], servings: 2 });
  const save = { table: 'recipes', data: { id: gen, name, instructions: ['Cook.'], servings: 2 } };
  const [first, second] = await Promise.all([act.execute('db_create', save), act.execute('db_create', save)]);
  assert.equal(first.error, null);
  assert.deepEqual([second.error.code, second.error.path], ['save_in_progress', 'data.id']);
  assert.equal(second.error.message, `${gen} is being saved by another call that has not finished`);
  const { body } = await rest(stack(), ada().token, 'GET', `/recipes?select=id&name=eq.${encodeURIComponent(name)}`);
  assert.equal(body.length, 1);
  assert.equal(fetch.sent.filter((request) => request.method === 'POST').length, 1);

  // After a save that failed, saving again works.
  const name2 = uniqueTitle('gen recipe 2');
  let refuse = true;
  const flaky = faultFetch((request, send) => {
    if (request.method === 'POST' && refuse) {
      refuse = false;
      return new Response(JSON.stringify({ code: '23514', message: 'check', details: null, hint: null }), { status: 400, headers: { 'content-type': 'application/json' } });
    }
    return send();
  });
  const act2 = actWith(flaky);
  const { data: gen2 } = act2.registry.registerGenerated('recipes', { name: name2, instructions: ['Cook.'] });
  const save2 = { table: 'recipes', data: { id: gen2, name: name2, instructions: ['Cook.'] } };
  await executeChecked(act2, flaky, 'db_create', save2, { code: 'check_violation' });
  const saved = await executeChecked(act2, flaky, 'db_create', save2, { code: null });
  assert.equal(saved.result.query.notes.at(-1), `saved ${gen2} as ${saved.result.data.id}`);
});

test('twenty concurrent executes on one act (reads and writes): every ref kept, one ref per row, counters consistent', BOUNDED, async () => {
  const fetch = faultFetch();
  const act = actWith(fetch);
  const prefix = uniqueTitle('concurrent');
  const calls = [];
  for (let i = 0; i < 20; i++) {
    if (i % 2 === 0) calls.push(['db_create', { table: 'tasks', data: { title: `${prefix} ${i}` } }]);
    else if (i % 4 === 1) calls.push(['db_read', { table: 'inventory' }]);
    else calls.push(['db_read', { table: 'tasks', filters: [{ field: 'title', op: 'ilike', value: `${prefix}*` }] }]);
  }
  const results = await Promise.all(calls.map(([tool, params]) => act.execute(tool, params)));
  results.forEach((result, i) => assert.equal(result.error, null, `call ${i}: ${JSON.stringify(result.error)}`));

  const state = act.registry.toJSON();
  const byRef = new Map(state.refs.map((entry) => [entry.ref, entry]));
  assert.equal(byRef.size, state.refs.length, 'no ref twice');
  const uuids = state.refs.filter((entry) => entry.uuid).map((entry) => entry.uuid);
  assert.equal(new Set(uuids).size, uuids.length, 'no row under two refs');
  for (const [type, counter] of Object.entries(state.counters)) {
    const numbers = state.refs.filter((entry) => !entry.ref.startsWith('gen_') && entry.ref.replace(/_\d+$/, '') === type).map((entry) => Number(entry.ref.split('_').at(-1)));
    assert.equal(Math.max(...numbers), counter, `counter of ${type}`);
    assert.equal(new Set(numbers).size, numbers.length);
  }
  // Every ref any result showed is the registry's ref for that row, and the database agrees.
  const { body: rows } = await rest(stack(), ada().token, 'GET', `/tasks?select=id,title&title=like.${encodeURIComponent(`${prefix}*`)}`);
  assert.equal(rows.length, 10);
  const uuidOfTitle = new Map(rows.map((row) => [row.title, row.id]));
  results.forEach((result, i) => {
    for (const row of [result.data].flat()) {
      assert.ok(byRef.has(row.id), `call ${i}: ${row.id} is registered`);
      if (calls[i][1].table === 'tasks') assert.equal(byRef.get(row.id).uuid, uuidOfTitle.get(row.title), `call ${i}: ${row.id} is ${row.title}`);
    }
  });
  const final = await act.execute('db_read', { table: 'tasks', filters: [{ field: 'title', op: 'ilike', value: `${prefix}*` }] });
  for (const row of final.data) assert.equal(byRef.get(row.id).uuid, uuidOfTitle.get(row.title), 'the same ref for the same row');
  assert.equal(act.registry.toJSON().refs.length, state.refs.length, 'reading again registers nothing new');
});
