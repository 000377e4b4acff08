// The edge worker (web/src/worker/handler.js) in the real runtimes from npm —
// workerd with a generated config and Deno with worker/deno.js — in front of
// the local stack (PGlite + PostgREST) and the scripted model (a real
// OpenAI-compatible server on 127.0.0.1). Everything goes over HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signJwt } from '../../db/jwt.mjs';
import { startDeno, startWorkerd } from '../../scripts/serve-worker.mjs';
import { startScriptedModel } from './support/scripted-model.mjs';
import { startStack } from '../../db/local-stack.mjs';
import { rest } from './support/stack.mjs';
import { stepComplete, toolCall, where } from './support/decisions.mjs';
import { post as postJson, turn as sseTurn } from './support/worker-client.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const APP_ORIGIN = 'http://app.example.test';
const MAX_BODY_BYTES = 64 * 1024;

let localStack;
const stack = () => localStack;
// One model server for every worker; each test queues the answers it needs.
const modelAnswers = [];
let model;
const workers = {};

before(async () => {
  localStack = await startStack();
  model = await startScriptedModel(
    Array.from({ length: 500 }, () => () => modelAnswers.shift() ?? { status: 500, body: { error: { message: 'no answer queued' } } }),
  );
  // The Supabase URL: the worker's requests go through /rest/v1 as on a project.
  const { supabaseUrl: url, anonKey, serviceKey, jwtSecret } = stack();
  const env = {
    SUPABASE_URL: url,
    SUPABASE_ANON_KEY: anonKey,
    SUPABASE_JWT_SECRET: jwtSecret,
    OPENAI_BASE_URL: model.baseUrl,
    ALFRED_LLM_MODEL: 'scripted',
    ALLOWED_ORIGINS: `${APP_ORIGIN}, http://other.example.test`,
    MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    // One running turn per user: the turn-cancellation tests see a cancelled turn end when the next is admitted.
    ALFRED_CONCURRENT_TURNS: '1',
  };
  [workers.workerd, workers.deno, workers.noModel, workers.serviceKey] = await Promise.all([
    startWorkerd({ env }),
    startDeno({ env }),
    startDeno({ env: { SUPABASE_URL: url, SUPABASE_ANON_KEY: anonKey, SUPABASE_JWT_SECRET: jwtSecret } }),
    startWorkerd({ env: { ...env, SUPABASE_ANON_KEY: serviceKey } }),
  ]);
});

after(async () => {
  await Promise.all(Object.values(workers).map((worker) => worker.stop()));
  await model?.stop();
  await localStack?.stop();
});

const ada = () => stack().users[0];
const ben = () => stack().users[1];

const post = (worker, path, body, { token = ada().token, headers } = {}) => postJson(worker, path, body, { token, headers });
const execute = (worker, body, options) => post(worker, '/act/execute', body, options);
const turn = (worker, body, { token = ada().token } = {}) => sseTurn(worker, body, { token });

const fridgeRead = { table: 'inventory', filters: [where('location', '=', 'fridge')], order_by: 'name', order_dir: 'asc' };

for (const runtime of ['workerd', 'deno']) {
  describe(`in ${runtime}`, () => {
    const worker = () => workers[runtime];

    test('GET /health says a model is configured', async () => {
      const response = await fetch(`${worker().url}/health`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { ok: true, model: true, domain: 'kitchen' });
    });

    test('/act/execute reads as the caller: refs instead of UUIDs, the query record, the registry state', async () => {
      const { status, body } = await execute(worker(), { tool: 'db_read', params: fridgeRead });
      assert.equal(status, 200);
      assert.equal(body.error, null);
      const truth = await rest(stack(), ada().token, 'GET', '/inventory?select=name&location=eq.fridge&order=name.asc');
      assert.equal(truth.status, 200);
      assert.ok(truth.body.length > 0);
      assert.deepEqual(body.data.map((row) => row.name), truth.body.map((row) => row.name));
      assert.equal(body.count, truth.body.length);
      for (const row of body.data) assert.match(row.id, /^inv_\d+$/);
      assert.doesNotMatch(JSON.stringify(body.data), UUID);
      assert.deepEqual(body.query.effective.filters, [where('location', '=', 'fridge')]);
      assert.equal(body.query.table, 'inventory');
      assert.equal(body.state.format, 'alfred-act/registry');

      // The state goes back in: the same ref names the same row.
      const [first] = body.data;
      const again = await execute(worker(), { tool: 'db_read', params: { table: 'inventory', filters: [where('id', '=', first.id)] }, state: body.state });
      assert.equal(again.status, 200);
      assert.deepEqual(again.body.data.map((row) => [row.id, row.name]), [[first.id, first.name]]);
    });

    test('/act/execute writes as the caller: a create, an update and a delete by ref, each read back from the database', async () => {
      const name = `worker saffron ${runtime} ${process.pid}`;
      const stored = async (token = ada().token) => {
        const truth = await rest(stack(), token, 'GET', `/shopping_list?select=name,quantity,unit,is_purchased,user_id&name=eq.${encodeURIComponent(name)}`);
        assert.equal(truth.status, 200);
        return truth.body;
      };
      const created = await execute(worker(), { tool: 'db_create', params: { table: 'shopping_list', data: { name, quantity: 2, unit: 'g' } } });
      assert.deepEqual([created.status, created.body.error], [200, null]);
      const ref = created.body.data.id;
      assert.match(ref, /^shop_\d+$/);
      assert.deepEqual(await stored(), [{ name, quantity: 2, unit: 'g', is_purchased: false, user_id: ada().id }]);
      assert.deepEqual(await stored(ben().token), [], 'the row is the caller\'s, hidden from another user');

      const updated = await execute(worker(), { tool: 'db_update', params: { table: 'shopping_list', filters: [where('id', '=', ref)], data: { quantity: 5, is_purchased: true } }, state: created.body.state });
      assert.equal(updated.body.error, null, JSON.stringify(updated.body.error));
      assert.deepEqual(updated.body.data.map((row) => [row.id, row.quantity, row.is_purchased]), [[ref, 5, true]]);
      assert.deepEqual(await stored(), [{ name, quantity: 5, unit: 'g', is_purchased: true, user_id: ada().id }]);

      // Another user's call with the same state is refused (the refs are Ada's); with the state's user taken
      // out, the same ref changes nothing: RLS hides the row.
      const refused = await execute(worker(), { tool: 'db_delete', params: { table: 'shopping_list', filters: [where('id', '=', ref)] }, state: updated.body.state }, { token: ben().token });
      assert.deepEqual([refused.status, refused.body.error?.code], [400, 'state_of_another_user']);
      const { user: _ada, ...stolen } = updated.body.state;
      const foreign = await execute(worker(), { tool: 'db_delete', params: { table: 'shopping_list', filters: [where('id', '=', ref)] }, state: stolen }, { token: ben().token });
      assert.equal(foreign.status, 200);
      assert.deepEqual(foreign.body.data ?? [], []);
      assert.equal((await stored()).length, 1);

      const deleted = await execute(worker(), { tool: 'db_delete', params: { table: 'shopping_list', filters: [where('id', '=', ref)] }, state: updated.body.state });
      assert.equal(deleted.body.error, null, JSON.stringify(deleted.body.error));
      assert.deepEqual(deleted.body.data.map((row) => row.id), [ref]);
      assert.deepEqual(await stored(), []);
      assert.doesNotMatch(JSON.stringify([created.body.data, updated.body.data, deleted.body.data]), UUID);
    });

    test('/act/execute applies row-level security: another user sees only their own rows', async () => {
      const { status, body } = await execute(worker(), { tool: 'db_read', params: { table: 'recipes', columns: ['name'], order_by: 'name' } }, { token: ben().token });
      assert.equal(status, 200);
      const truth = await rest(stack(), ben().token, 'GET', '/recipes?select=name&order=name.asc');
      const adas = await rest(stack(), ada().token, 'GET', '/recipes?select=name&order=name.asc');
      assert.deepEqual(body.data.map((row) => row.name), truth.body.map((row) => row.name));
      assert.notDeepEqual(truth.body, adas.body, 'the seed gives the two users different recipes');
    });

    test('/act/execute returns a refused tool call as the tool result, with no request sent', async () => {
      const { status, body } = await execute(worker(), { tool: 'db_read', params: { table: 'inventory', filters: [where('colour', '=', 'red')] } });
      assert.equal(status, 200);
      assert.equal(body.data, null);
      assert.equal(body.error.path, 'filters[0].field');
      assert.match(body.error.hint, /location/);
    });

    test('/act/turn streams the loop as server-sent events through to turn_done', async () => {
      modelAnswers.push(
        { steps: [{ description: 'Read the inventory in the fridge', type: 'read' }] },
        toolCall('db_read', fridgeRead),
        stepComplete('Read the fridge'),
        'Your fridge holds a few things.',
      );
      const { status, headers, events } = await turn(worker(), { message: 'what is in my fridge?' });
      assert.equal(status, 200);
      assert.match(headers.get('content-type'), /^text\/event-stream/);
      assert.deepEqual(
        events.map((event) => event.type),
        ['turn_started', 'plan', 'step_started', 'decision', 'tool_call', 'query', 'result', 'decision', 'step_done', 'reply', 'turn_done'],
      );
      const result = events.find((event) => event.type === 'result');
      assert.equal(result.error, null);
      assert.ok(result.data.every((row) => /^inv_\d+$/.test(row.id)));
      const { result: done } = events.at(-1);
      assert.equal(done.status, 'done');
      assert.equal(done.reply, 'Your fridge holds a few things.');
      assert.equal(done.state.turn, 1);
      assert.deepEqual(done.state.conversation.map((message) => message.role), ['user', 'assistant']);
      assert.equal(modelAnswers.length, 0);
    });

    test('/act/turn sends the assembled prompts only when asked', async () => {
      modelAnswers.push(stepComplete('Nothing to read'), 'Done.');
      const { events } = await turn(worker(), { message: 'hello', plan: [{ description: 'Greet the user', type: 'analyze' }], prompts: true });
      const prompt = events.find((event) => event.type === 'prompt');
      assert.ok(prompt, 'a prompt event');
      assert.match(prompt.user, /Greet the user/);
      assert.equal(events.at(-1).result.status, 'done');
    });

    test('auth: no token, not a JWT, the anon key, a service key and an expired token are 401s (tests/js/worker-auth.test.mjs has every kind)', async () => {
      const { anonKey, serviceKey, jwtSecret } = stack();
      const expired = signJwt({ role: 'authenticated', aud: 'authenticated', sub: ada().id, exp: Math.floor(Date.now() / 1000) - 60 }, jwtSecret);
      const cases = [
        [null, 'missing_token'],
        ['not-a-jwt', 'malformed_token'],
        [anonKey, 'not_a_user_token'],
        [serviceKey, 'service_key_refused'],
        [expired, 'token_expired'],
      ];
      for (const [token, code] of cases) {
        const { status, body } = await execute(worker(), { tool: 'db_read', params: fridgeRead }, { token });
        assert.deepEqual([status, body.error.code], [401, code], code);
      }
      const { status, body } = await turn(worker(), { message: 'hi' }, { token: 'not-a-jwt' });
      assert.deepEqual([status, body.error.code], [401, 'malformed_token']);
    });

    test('auth: a token signed with another secret is refused by the worker itself (401), before PostgREST', async () => {
      const forged = signJwt({ role: 'authenticated', aud: 'authenticated', sub: ada().id }, 'a-secret-that-is-not-the-projects-secret-at-all');
      const { status, body } = await execute(worker(), { tool: 'db_read', params: fridgeRead }, { token: forged });
      assert.deepEqual([status, body.error.code], [401, 'invalid_signature']);
    });

    test('CORS: preflight from a listed origin, 403 for another, the origin on responses', async () => {
      const preflight = await fetch(`${worker().url}/act/turn`, {
        method: 'OPTIONS',
        headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), APP_ORIGIN);
      assert.match(preflight.headers.get('access-control-allow-methods'), /POST/);
      assert.match(preflight.headers.get('access-control-allow-headers'), /authorization/);
      assert.match(preflight.headers.get('vary'), /Origin/);

      const foreign = await fetch(`${worker().url}/act/execute`, { method: 'OPTIONS', headers: { origin: 'http://evil.example.test' } });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.headers.get('access-control-allow-origin'), null);
      assert.equal((await foreign.json()).error.code, 'origin_not_allowed');

      const { headers } = await execute(worker(), { tool: 'db_read', params: fridgeRead }, { headers: { origin: APP_ORIGIN } });
      assert.equal(headers.get('access-control-allow-origin'), APP_ORIGIN);
      const refused = await execute(worker(), { tool: 'db_read', params: fridgeRead }, { token: null, headers: { origin: APP_ORIGIN } });
      assert.equal(refused.headers.get('access-control-allow-origin'), APP_ORIGIN, 'errors are readable by the page too');
    });

    test('validation: 404, 405, 415, 400 and 413 with a code, a message and the path', async () => {
      const notFound = await post(worker(), '/act/nothing', {});
      assert.deepEqual([notFound.status, notFound.body.error.code], [404, 'not_found']);

      const get = await fetch(`${worker().url}/act/execute`, { headers: { authorization: `Bearer ${ada().token}` } });
      assert.deepEqual([get.status, get.headers.get('allow'), (await get.json()).error.code], [405, 'POST, OPTIONS', 'method_not_allowed']);

      const text = await post(worker(), '/act/execute', '{}', { headers: { 'content-type': 'text/plain' } });
      assert.deepEqual([text.status, text.body.error.code], [415, 'unsupported_media_type']);

      const badJson = await post(worker(), '/act/execute', '{"tool": "db_read",');
      assert.deepEqual([badJson.status, badJson.body.error.code], [400, 'invalid_json']);

      const cases = [
        ['/act/execute', [], 'invalid_body', undefined],
        ['/act/execute', { params: {} }, 'invalid_body', 'tool'],
        ['/act/execute', { tool: 42, params: {} }, 'invalid_body', 'tool'],
        ['/act/execute', { tool: 'db_read', params: [] }, 'invalid_body', 'params'],
        ['/act/execute', { tool: 'db_read', params: fridgeRead, state: 'junk' }, 'invalid_body', 'state'],
        ['/act/execute', { tool: 'db_read', params: fridgeRead, state: { format: 'alfred-act.turn-state', version: 99 } }, 'unsupported_state_version', 'state.version'],
        ['/act/turn', {}, 'invalid_body', 'message'],
        ['/act/turn', { message: '  ' }, 'invalid_body', 'message'],
        ['/act/turn', { message: 'hi', plan: [{ description: 'x', type: 'cook' }] }, 'invalid_body', 'plan[0].type'],
        ['/act/turn', { message: 'hi', state: { format: 'something-else' } }, 'invalid_state', 'state'],
      ];
      for (const [path, body, code, errorPath] of cases) {
        const response = await post(worker(), path, body);
        assert.deepEqual([response.status, response.body.error.code, response.body.error.path], [400, code, errorPath], JSON.stringify(body));
        assert.ok(response.body.error.message.length > 0);
      }

      // A tool the model made up is its mistake: a tool result to feed back, as MCP's is, not a bad request.
      const madeUp = await post(worker(), '/act/execute', { tool: 'db_drop', params: { table: 'inventory' } });
      assert.equal(madeUp.status, 200);
      assert.deepEqual([madeUp.body.data, madeUp.body.error.code, madeUp.body.error.path], [null, 'unknown_tool', 'tool']);
      assert.match(madeUp.body.error.hint, /db_read, db_create, db_update, db_delete/);

      const damagedRegistry = await execute(worker(), { tool: 'db_read', params: fridgeRead, state: { format: 'alfred-act/registry', version: 1, counters: 'x' } });
      assert.equal(damagedRegistry.status, 400);
      assert.match(damagedRegistry.body.error.path, /^state/);

      const huge = await execute(worker(), { tool: 'db_read', params: { ...fridgeRead, padding: 'x'.repeat(MAX_BODY_BYTES) } });
      assert.deepEqual([huge.status, huge.body.error.code], [413, 'body_too_large']);
      // A chunked body has no Content-Length: the limit holds while reading.
      const chunked = await fetch(`${worker().url}/act/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ada().token}` },
        body: new Blob(['{"tool":"db_read","params":{},"x":"', 'y'.repeat(MAX_BODY_BYTES), '"}']).stream(),
        duplex: 'half',
      });
      assert.deepEqual([chunked.status, (await chunked.json()).error.code], [413, 'body_too_large']);
    });
  });
}

test('a turn in workerd, the next in Deno with the state it returned: refs from turn 1 drive the write in turn 2', async () => {
  modelAnswers.push(toolCall('db_read', fridgeRead), stepComplete('Read the fridge'), 'You have eggs.');
  const first = await turn(workers.workerd, { message: 'what is in my fridge?', plan: [{ description: 'Read the fridge inventory', type: 'read' }] });
  const { result: firstResult } = first.events.at(-1);
  assert.equal(firstResult.status, 'done');
  const rows = firstResult.steps[0].queries[0].data;
  const egg = rows.find((row) => row.name === 'egg');
  assert.ok(egg, 'the seed has eggs in the fridge');
  const state = JSON.parse(JSON.stringify(firstResult.state)); // exactly what a client would store

  modelAnswers.push(
    toolCall('db_update', { table: 'inventory', filters: [where('id', '=', egg.id)], data: { quantity: 4 } }),
    stepComplete('Eggs set to 4'),
    'Done: 4 eggs left.',
  );
  const second = await turn(workers.deno, { message: 'I used some eggs, 4 left', state, plan: [{ description: 'Set the egg quantity to 4', type: 'write' }] });
  const { result } = second.events.at(-1);
  assert.equal(result.status, 'done', JSON.stringify(result.error));
  assert.equal(result.state.turn, 2);
  assert.deepEqual(result.state.conversation.map((message) => message.content), [
    'what is in my fridge?',
    'You have eggs.',
    'I used some eggs, 4 left',
    'Done: 4 eggs left.',
  ]);
  const [update] = result.steps[0].queries;
  assert.equal(update.error, null);
  assert.deepEqual(update.data.map((row) => [row.id, row.quantity]), [[egg.id, 4]]);

  const truth = await rest(stack(), ada().token, 'GET', '/inventory?select=name,quantity&location=eq.fridge&order=name.asc');
  assert.deepEqual(
    truth.body.map((row) => [row.name, row.quantity]),
    rows.map((row) => [row.name, row.name === 'egg' ? 4 : row.quantity]),
    'only the egg row changed',
  );
});

for (const runtime of ['workerd', 'deno']) {
  test(`${runtime}: a client that hangs up mid-turn cancels the turn (no further model calls); the worker keeps serving`, async () => {
    const worker = workers[runtime];
    const message = `slow ${runtime} ${process.pid}`;
    const ofThisTurn = (request) => request.body?.messages?.some((entry) => typeof entry.content === 'string' && entry.content.includes(message));
    // Had the turn gone on, the model's late answer would have made it read and ask again.
    modelAnswers.push({ delayMs: 5_000, then: toolCall('db_read', fridgeRead) }, stepComplete('late'), 'late');
    const controller = new AbortController();
    const response = await fetch(`${worker.url}/act/turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ada().token}` },
      body: JSON.stringify({ message, plan: [{ description: 'Read the fridge', type: 'read' }] }),
      signal: controller.signal,
    });
    const reader = response.body.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /^event: turn_started/);
    controller.abort();
    // The worker found the hang-up and dropped the model call it was waiting on.
    await model.untilHungUp(ofThisTurn);
    modelAnswers.length = 0;
    // One turn at a time per user here: a turn starts once the cancelled one has ended.
    await untilAdmitted(worker, { message: 'after the hang-up', plan: [{ description: 'Think it over', type: 'analyze' }] }, stepComplete('Thought'), 'ok');
    assert.equal(model.requests.filter(ofThisTurn).length, 1, 'the cancelled turn asked the model once');
    const health = await fetch(`${worker.url}/health`);
    assert.equal(health.status, 200);
    const { status } = await execute(worker, { tool: 'db_read', params: fridgeRead });
    assert.equal(status, 200);
  });
}

/**
 * Runs the turn `body` with `answers` queued once `worker` admits it: a 429
 * too_many_concurrent_turns (another turn of the user still running) is
 * tried again every 100 ms, up to 15 s.
 */
async function untilAdmitted(worker, body, ...answers) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    modelAnswers.length = 0;
    modelAnswers.push(...answers);
    const result = await turn(worker, body);
    if (result.status === 200) {
      assert.equal(result.events.at(-1).result.status, 'done', JSON.stringify(result.events.at(-1)));
      return result;
    }
    assert.deepEqual([result.status, result.body?.error?.code], [429, 'too_many_concurrent_turns']);
    assert.ok(Date.now() < deadline, 'the cancelled turn still held its slot after 15 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('with no model configured, /act/turn is a 503 that says what to set; /act/execute still works', async () => {
  const health = await fetch(`${workers.noModel.url}/health`);
  assert.deepEqual(await health.json(), { ok: true, model: false, domain: 'kitchen' });
  const { status, body } = await turn(workers.noModel, { message: 'hi' });
  assert.equal(status, 503);
  assert.equal(body.error.code, 'model_not_configured');
  assert.match(body.error.hint, /OPENAI_API_KEY/);
  const read = await execute(workers.noModel, { tool: 'db_read', params: fridgeRead });
  assert.equal(read.status, 200);
  assert.equal(read.body.error, null);
});

test('a service-role key configured as SUPABASE_ANON_KEY: the worker refuses every request with a 500 that says why', async () => {
  for (const path of ['/health', '/act/execute']) {
    const response = await fetch(`${workers.serviceKey.url}${path}`, {
      method: path === '/health' ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ada().token}` },
      body: path === '/health' ? undefined : JSON.stringify({ tool: 'db_read', params: fridgeRead }),
    });
    const { error } = await response.json();
    assert.deepEqual([response.status, error.code], [500, 'worker_misconfigured'], path);
    assert.match(error.message, /service-role key/);
  }
});
