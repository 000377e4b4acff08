// The edge worker's /mcp route (Streamable HTTP) in workerd and Deno from npm,
// driven by @modelcontextprotocol/sdk's own Client and
// StreamableHTTPClientTransport, in front of the local stack with its two
// seeded users. Isolation is checked by reading the database back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mcpClient } from './support/mcp-client.mjs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { signJwt } from '../../db/jwt.mjs';
import { loadCore } from '../../web/src/index.node.js';
import { startStack } from '../../db/local-stack.mjs';
import { startDeno, startWorkerd } from '../../scripts/serve-worker.mjs';
import { rest } from './support/stack.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ACCEPT = 'application/json, text/event-stream';

let stack;
const workers = {};
const ada = () => stack.users[0];
const ben = () => stack.users[1];

before(async () => {
  stack = await startStack();
  const env = { SUPABASE_URL: stack.supabaseUrl, SUPABASE_ANON_KEY: stack.anonKey, SUPABASE_JWT_SECRET: stack.jwtSecret };
  [workers.workerd, workers.tableStore, workers.deno] = await Promise.all([
    startWorkerd({ env }),
    startWorkerd({ env: { ...env, ALFRED_MCP_STORE: 'supabase' } }),
    startDeno({ env }),
  ]);
});

after(async () => {
  await Promise.all(Object.values(workers).map((worker) => worker.stop()));
  await stack?.stop();
});

/**
 * A connected SDK client for `token` (and an existing `sessionId`, which
 * skips initialize). `elicit(params)`: the client declares elicitation and
 * answers each `elicitation/create` with it (kept in `client.asked`).
 */
async function connect(t, worker, token, { sessionId, elicit } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(`${worker.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } }, sessionId });
  const client = mcpClient({ name: 'alfred-act-test', version: '1.0.0' }, elicit ? { capabilities: { elicitation: {} } } : {});
  client.asked = [];
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      client.asked.push(request.params);
      return elicit(request.params);
    });
  }
  await client.connect(transport);
  t.after(() => client.close());
  return { client, transport };
}

const ACCEPT_WRITE = () => ({ action: 'accept', content: { confirm: true } });

async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.content.length, 1, JSON.stringify(result));
  // No result shown to the model may hold a UUID.
  assert.doesNotMatch(result.content[0].text, UUID);
  return { isError: result.isError, body: JSON.parse(result.content[0].text) };
}

/** One raw JSON-RPC POST to /mcp: `{ status, headers, body }`. */
async function post(worker, message, { token = ada().token, sessionId, headers = {} } = {}) {
  const response = await fetch(`${worker.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
      ...headers,
    },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('in workerd', () => {
  const worker = () => workers.workerd;

  test('tools/list and db_schema over Streamable HTTP', async (t) => {
    const { client, transport } = await connect(t, worker(), ada().token);
    assert.match(transport.sessionId, /^[A-Za-z0-9_-]{43}$/);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate', 'db_schema'],
    );
    const core = await loadCore();
    assert.deepEqual(
      tools.slice(0, 5).map(({ description, inputSchema }) => [description, inputSchema]),
      JSON.parse(JSON.stringify(core.toolDefinitions().map(({ description, parameters }) => [description, parameters]))),
    );
    const schema = await client.callTool({ name: 'db_schema', arguments: {} });
    assert.match(schema.content[0].text, /### recipes \(refs recipe_N\)\n/);
    const { contents } = await client.readResource({ uri: 'alfred-act://schema' });
    assert.equal(contents[0].text, schema.content[0].text);
    assert.equal(client.getInstructions().includes('refs'), true);
  });

  test('two users at once: reads, writes by ref and refusals stay within each user, as the database shows', async (t) => {
    const [{ client: adaClient }, { client: benClient }] = await Promise.all([connect(t, worker(), ada().token, { elicit: ACCEPT_WRITE }), connect(t, worker(), ben().token)]);
    const [adas, bens] = await Promise.all([
      call(adaClient, 'db_read', { table: 'recipes', columns: ['name'], order_by: 'name' }),
      call(benClient, 'db_read', { table: 'recipes', columns: ['name'], order_by: 'name' }),
    ]);
    const [adaTruth, benTruth] = await Promise.all([
      rest(stack, ada().token, 'GET', '/recipes?select=name&order=name.asc'),
      rest(stack, ben().token, 'GET', '/recipes?select=name&order=name.asc'),
    ]);
    assert.deepEqual(adas.body.rows.map((row) => row.name), adaTruth.body.map((row) => row.name));
    assert.deepEqual(bens.body.rows.map((row) => row.name), benTruth.body.map((row) => row.name));
    assert.notDeepEqual(adaTruth.body, benTruth.body);

    // Ada writes through her session, linking by ref.
    const recipe = await call(adaClient, 'db_create', { table: 'recipes', data: { name: 'Worker Dal', instructions: ['Simmer.'], servings: 2 } });
    assert.equal(recipe.isError, false, JSON.stringify(recipe.body));
    const plan = await call(adaClient, 'db_create', { table: 'meal_plans', data: { date: '2026-03-02', meal_type: 'dinner', recipe_id: recipe.body.rows[0].id, servings: 2 } });
    assert.equal(plan.isError, false, JSON.stringify(plan.body));
    const moved = await call(adaClient, 'db_update', { table: 'meal_plans', filters: [{ field: 'id', op: '=', value: plan.body.rows[0].id }], data: { meal_type: 'lunch' } });
    assert.deepEqual(moved.body.rows.map((row) => [row.id, row.meal_type, row.recipe_id]), [[plan.body.rows[0].id, 'lunch', recipe.body.rows[0].id]]);
    const stored = await rest(stack, ada().token, 'GET', '/meal_plans?select=meal_type,user_id,recipes(name)&date=eq.2026-03-02');
    assert.deepEqual(stored.body, [{ meal_type: 'lunch', user_id: ada().id, recipes: { name: 'Worker Dal' } }]);
    // The update was confirmed on the call's own event stream (a 2025 session), showing the row.
    assert.deepEqual(adaClient.asked.map((asked) => asked.message), [`Update 1 row of meal_plans: ${plan.body.rows[0].id} "2026-03-02"?`]);

    // Ben's session has never seen Ada's refs: the same names are an error before any request.
    const attempt = await call(benClient, 'db_delete', { table: 'meal_plans', filters: [{ field: 'id', op: '=', value: plan.body.rows[0].id }] });
    assert.equal(attempt.isError, true);
    assert.equal(attempt.body.error.path, 'filters[0].value');
    assert.ok(attempt.body.error.hint);
    // Ben's own write lands as Ben, and Ada cannot see it.
    const bens2 = await call(benClient, 'db_create', { table: 'shopping_list', data: { name: 'worker saffron', quantity: 1 } });
    assert.equal(bens2.isError, false, JSON.stringify(bens2.body));
    const benRow = await rest(stack, ben().token, 'GET', '/shopping_list?select=user_id&name=eq.worker%20saffron');
    assert.deepEqual(benRow.body, [{ user_id: ben().id }]);
    const adaView = await rest(stack, ada().token, 'GET', '/shopping_list?select=id&name=eq.worker%20saffron');
    assert.deepEqual(adaView.body, []);
    const stillThere = await rest(stack, ada().token, 'GET', '/meal_plans?select=meal_type&date=eq.2026-03-02');
    assert.deepEqual(stillThere.body, [{ meal_type: 'lunch' }]);
  });

  test('an invalid call is an isError result with code, path and hint', async (t) => {
    const { client } = await connect(t, worker(), ada().token);
    const { isError, body } = await call(client, 'db_read', { table: 'inventory', filters: [{ field: 'colour', op: '=', value: 'red' }] });
    assert.equal(isError, true);
    assert.equal(body.error.path, 'filters[0].field');
    assert.equal(typeof body.error.code, 'string');
    assert.match(body.error.hint, /location/);
  });

  test('a forged, missing or service token is refused with 401 before any session exists', async () => {
    const forged = signJwt({ sub: ada().id, role: 'authenticated', aud: 'authenticated', exp: Math.floor(Date.now() / 1000) + 600 }, 'x'.repeat(40));
    const cases = [
      [forged, 'invalid_signature'],
      [null, 'missing_token'],
      [stack.serviceKey, 'service_key_refused'],
      [stack.anonKey, 'not_a_user_token'],
    ];
    for (const [token, code] of cases) {
      const { status, headers, body } = await post(worker(), initialize, { token });
      assert.equal(status, 401, code);
      assert.equal(body.error.code, code);
      assert.equal(headers.get('mcp-session-id'), null);
      const metadata = `resource_metadata="${worker().url}/.well-known/oauth-protected-resource/mcp"`;
      assert.equal(headers.get('www-authenticate'), token ? `Bearer ${metadata}, error="invalid_token", error_description="${code}"` : `Bearer ${metadata}`);
    }
    // The SDK client gets the 401 as an error, and no session.
    const transport = new StreamableHTTPClientTransport(new URL(`${worker().url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${forged}` } } });
    const client = mcpClient({ name: 'forger', version: '1.0.0' });
    await assert.rejects(client.connect(transport), (error) => error.code === 401);
    assert.equal(transport.sessionId, undefined);
  });

  test("user A's session id presented by user B is not found (404), and A's session goes on", async (t) => {
    const { client: adaClient, transport } = await connect(t, worker(), ada().token);
    const adaSession = transport.sessionId;
    const { body } = await call(adaClient, 'db_read', { table: 'inventory', columns: ['name'], order_by: 'name', limit: 1 });
    const ref = body.rows[0].id;

    const raw = await post(worker(), listTools, { token: ben().token, sessionId: adaSession });
    assert.equal(raw.status, 404);
    assert.equal(raw.body.error.code, -32001);
    assert.equal(raw.body.error.data.code, 'session_not_found');
    // Through the SDK, resuming Ada's session as Ben fails the same way.
    const { client: benClient } = await connect(t, worker(), ben().token, { sessionId: adaSession });
    await assert.rejects(benClient.callTool({ name: 'db_read', arguments: { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] } }), (error) => error.code === 404);
    const benDelete = await fetch(`${worker().url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${ben().token}`, 'mcp-session-id': adaSession } });
    assert.equal(benDelete.status, 404);

    const again = await call(adaClient, 'db_read', { table: 'inventory', columns: ['name'], filters: [{ field: 'id', op: '=', value: ref }] });
    assert.deepEqual(again.body.rows, body.rows, "Ada's refs still resolve in her session");
  });

  test('the transport rules: session id required, unknown session 404, GET 405, DELETE ends the session, versions checked', async () => {
    const noSession = await post(worker(), listTools);
    assert.equal(noSession.status, 400);
    assert.equal(noSession.body.error.data.code, 'missing_session_id');
    const unknown = await post(worker(), listTools, { sessionId: 'not-a-session-0000000000' });
    assert.equal(unknown.status, 404);
    const get = await fetch(`${worker().url}/mcp`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${ada().token}` } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST, DELETE, OPTIONS');

    const opened = await post(worker(), initialize);
    assert.equal(opened.status, 200);
    assert.equal(opened.body.result.protocolVersion, '2025-06-18');
    assert.deepEqual(opened.body.result.serverInfo, { name: 'alfred-act', title: 'alfred-act: kitchen domain', version: '0.1.0' });
    assert.match(opened.body.result.instructions, /^This server serves the kitchen domain \(tables: recipes, recipe_ingredients, ingredients, inventory, shopping_list, meal_plans, tasks, preferences, cooking_log\)/);
    assert.match(opened.body.result.instructions, /refs \(recipe_1, ri_1\)/);
    const sessionId = opened.headers.get('mcp-session-id');
    assert.equal(opened.headers.get('access-control-expose-headers'), 'mcp-session-id, www-authenticate');
    const initialized = await post(worker(), { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId });
    assert.equal(initialized.status, 202);
    assert.equal(initialized.body, null);
    const badVersion = await post(worker(), listTools, { sessionId, headers: { 'mcp-protocol-version': '1999-01-01' } });
    assert.equal(badVersion.status, 400);
    assert.equal(badVersion.body.error.data.code, 'unsupported_protocol_version');
    const unknownMethod = await post(worker(), { jsonrpc: '2.0', id: 7, method: 'sampling/createMessage' }, { sessionId });
    assert.deepEqual(unknownMethod.body, { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found: sampling/createMessage', data: { code: 'method_not_found' } } });
    const batch = await post(worker(), [listTools], { sessionId });
    assert.equal(batch.status, 400);
    assert.equal(batch.body.error.code, -32600);
    const notJson = await post(worker(), '{"jsonrpc":', { sessionId });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error.code, -32700);

    const closed = await fetch(`${worker().url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${ada().token}`, 'mcp-session-id': sessionId } });
    assert.equal(closed.status, 204);
    const after = await post(worker(), listTools, { sessionId });
    assert.equal(after.status, 404);
  });
});

describe('in workerd, sessions in act_sessions (ALFRED_MCP_STORE=supabase)', () => {
  const worker = () => workers.tableStore;

  test("the session is a row of the user's own table, invisible to the other user; DELETE removes it", async (t) => {
    const { client, transport } = await connect(t, worker(), ada().token);
    const sessionId = transport.sessionId;
    const { body } = await call(client, 'db_read', { table: 'tasks', columns: ['title'], order_by: 'title', limit: 1 });
    const ref = body.rows[0].id;
    const again = await call(client, 'db_read', { table: 'tasks', columns: ['title'], filters: [{ field: 'id', op: '=', value: ref }] });
    assert.deepEqual(again.body.rows, body.rows);

    const row = await rest(stack, ada().token, 'GET', `/act_sessions?select=user_id,state&id=eq.${sessionId}`);
    assert.equal(row.body.length, 1);
    assert.equal(row.body[0].user_id, ada().id);
    assert.equal(row.body[0].state.protocolVersion, '2025-11-25');
    assert.equal(row.body[0].state.registry.format, 'alfred-act/registry');
    const bensView = await rest(stack, ben().token, 'GET', `/act_sessions?select=id&id=eq.${sessionId}`);
    assert.deepEqual(bensView.body, []);
    const stolen = await post(worker(), listTools, { token: ben().token, sessionId });
    assert.equal(stolen.status, 404);

    await transport.terminateSession();
    const gone = await rest(stack, ada().token, 'GET', `/act_sessions?select=id&id=eq.${sessionId}`);
    assert.deepEqual(gone.body, []);
  });
});

describe('in Deno', () => {
  test('the same route: a read by ref, and another user refused the session', async (t) => {
    const { client, transport } = await connect(t, workers.deno, ben().token);
    const { isError, body } = await call(client, 'db_read', { table: 'inventory', columns: ['name'], order_by: 'name' });
    assert.equal(isError, false);
    const truth = await rest(stack, ben().token, 'GET', '/inventory?select=name&order=name.asc');
    assert.deepEqual(body.rows.map((row) => row.name), truth.body.map((row) => row.name));
    const stolen = await post(workers.deno, listTools, { token: ada().token, sessionId: transport.sessionId });
    assert.equal(stolen.status, 404);
  });
});
