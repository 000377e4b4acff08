// The worker's /mcp for MCP 2026-07-28 clients, in workerd from npm: the SDK
// v2 client (@modelcontextprotocol/client, which speaks the stateless
// revision) and raw requests, against the local stack with its two seeded
// users. No session: refs persist per user in the session store, writes are
// confirmed by multi round-trip requests (MRTR) with a signed requestState,
// and every write or refusal is checked by reading the database back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { startStack } from '../../db/local-stack.mjs';
import { startWorkerd } from '../../scripts/serve-worker.mjs';
import { rest } from './support/stack.mjs';

const VERSION = '2026-07-28';
const ACCEPT = 'application/json, text/event-stream';
const CONFIRM = () => ({ action: 'accept', content: { confirm: true } });

let stack;
const workers = {};
const ada = () => stack.users[0];
const ben = () => stack.users[1];

before(async () => {
  stack = await startStack();
  const env = { SUPABASE_URL: stack.supabaseUrl, SUPABASE_ANON_KEY: stack.anonKey, SUPABASE_JWT_SECRET: stack.jwtSecret };
  [workers.memory, workers.table, workers.unasked, workers.limited] = await Promise.all([
    startWorkerd({ env }),
    startWorkerd({ env: { ...env, ALFRED_MCP_STORE: 'supabase' } }),
    startWorkerd({ env: { ...env, ALFRED_CONFIRM: 'false', ALFRED_MAX_AFFECTED: '2' } }),
    startWorkerd({ env: { ...env, ALFRED_REQUESTS_PER_MINUTE: '3' } }),
  ]);
});

after(async () => {
  await Promise.all(Object.values(workers).map((worker) => worker.stop()));
  await stack?.stop();
});

/**
 * An SDK v2 client pinned to 2026-07-28 for `token`; `elicit(params)` makes
 * it declare elicitation and answer with it (kept in `client.asked`). Every
 * HTTP exchange is kept in `client.exchanges` ({ request headers, status, response headers }).
 */
async function connect(t, worker, token, { elicit } = {}) {
  const exchanges = [];
  const recording = async (url, init) => {
    const response = await fetch(url, init);
    exchanges.push({ headers: new Headers(init?.headers), status: response.status, responseHeaders: response.headers });
    return response;
  };
  const transport = new StreamableHTTPClientTransport(new URL(`${worker.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: recording });
  const client = new Client(
    { name: 'alfred-act-test', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: {} } : {}, versionNegotiation: { mode: { pin: VERSION } }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  client.asked = [];
  client.exchanges = exchanges;
  if (elicit) {
    client.setRequestHandler('elicitation/create', async (request) => {
      client.asked.push(request.params);
      return elicit(request.params);
    });
  }
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/** tools/call → `{ isError, body }`; the text and structuredContent are one result. */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const body = JSON.parse(result.content[0].text);
  assert.deepEqual(result.structuredContent, body);
  return { isError: result.isError, body, meta: result._meta };
}

const meta = (capabilities = {}) => ({ 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': capabilities, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } });

/** One raw 2026-07-28 POST: headers mirror the body unless `headers` override them. */
async function post(worker, message, { token = ada().token, headers = {} } = {}) {
  const name = message.params?.name ?? message.params?.uri;
  const response = await fetch(`${worker.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] ?? VERSION,
      'mcp-method': message.method,
      ...(name ? { 'mcp-name': name } : {}),
      ...headers,
    },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

const shopping = async (token, name) => (await rest(stack, token, 'GET', `/shopping_list?select=name,quantity&name=eq.${encodeURIComponent(name)}`)).body;

describe('an SDK v2 client (2026-07-28) in workerd', () => {
  test('served without a session: discover, tools with annotations and output schemas, refs that resolve in the next request', async (t) => {
    const client = await connect(t, workers.memory, ada().token);
    assert.deepEqual(client.getServerVersion(), { name: 'alfred-act', title: 'alfred-act: kitchen domain', version: '0.1.0' });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => [tool.name, tool.annotations.readOnlyHint, tool.annotations.destructiveHint]), [
      ['db_read', true, false],
      ['db_create', false, false],
      ['db_update', false, true],
      ['db_delete', false, true],
      ['db_aggregate', true, false],
      ['db_schema', true, false],
    ]);
    const { isError, body, meta: resultMeta } = await call(client, 'db_read', { table: 'inventory', columns: ['name'], order_by: 'name', limit: 2 });
    assert.equal(isError, false);
    assert.deepEqual(resultMeta, { 'io.modelcontextprotocol/serverInfo': { name: 'alfred-act', title: 'alfred-act: kitchen domain', version: '0.1.0' } });
    const truth = await rest(stack, ada().token, 'GET', '/inventory?select=name&order=name.asc&limit=2');
    assert.deepEqual(body.rows.map((row) => row.name), truth.body.map((row) => row.name));
    // Each request is on its own: the ref resolves in the next one, and in another client of the same user.
    const again = await call(client, 'db_read', { table: 'inventory', columns: ['name'], filters: [{ field: 'id', op: '=', value: body.rows[0].id }] });
    assert.deepEqual(again.body.rows, [body.rows[0]]);
    const other = await connect(t, workers.memory, ada().token);
    assert.deepEqual((await call(other, 'db_read', { table: 'inventory', columns: ['name'], filters: [{ field: 'id', op: '=', value: body.rows[1].id }] })).body.rows, [body.rows[1]]);
    // No session anywhere: none minted, the version on every request, the method and name mirrored.
    for (const { responseHeaders } of client.exchanges) assert.equal(responseHeaders.get('mcp-session-id'), null);
    for (const { headers } of client.exchanges) assert.equal(headers.get('mcp-protocol-version'), VERSION);
    assert.deepEqual(client.exchanges.map(({ headers }) => [headers.get('mcp-method'), headers.get('mcp-name')]), [
      ['server/discover', null],
      ['tools/list', null],
      ['tools/call', 'db_read'],
      ['tools/call', 'db_read'],
    ]);
  });

  test("one user's refs mean nothing to another: Ben cannot reach Ada's row by her ref", async (t) => {
    const adaClient = await connect(t, workers.memory, ada().token);
    const { body } = await call(adaClient, 'db_read', { table: 'recipes', columns: ['name'], order_by: 'name' });
    const last = body.rows.at(-1);
    const benClient = await connect(t, workers.memory, ben().token);
    const attempt = await call(benClient, 'db_update', { table: 'recipes', filters: [{ field: 'id', op: '=', value: last.id }], data: { name: 'taken over' } });
    assert.equal(attempt.isError, true);
    assert.equal(attempt.body.error.path, 'filters[0].value');
    assert.deepEqual((await rest(stack, ada().token, 'GET', `/recipes?select=name&name=eq.${encodeURIComponent(last.name)}`)).body, [{ name: last.name }]);
  });

  test('a delete is confirmed by a multi round-trip request showing the rows: accepted it runs, declined it does not', async (t) => {
    const answers = [{ action: 'decline' }, CONFIRM()];
    const client = await connect(t, workers.memory, ada().token, { elicit: () => answers.shift() });
    const created = await call(client, 'db_create', { table: 'shopping_list', data: { name: 'mrtr saffron', quantity: 1 } });
    assert.equal(created.isError, false, JSON.stringify(created.body));
    const ref = created.body.rows[0].id;
    const del = { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: ref }] };
    const declined = await call(client, 'db_delete', del);
    assert.equal(declined.body.error.code, 'approval_declined');
    assert.deepEqual(await shopping(ada().token, 'mrtr saffron'), [{ name: 'mrtr saffron', quantity: 1 }]);
    const deleted = await call(client, 'db_delete', del);
    assert.equal(deleted.isError, false, JSON.stringify(deleted.body));
    assert.deepEqual(await shopping(ada().token, 'mrtr saffron'), []);
    assert.deepEqual(client.asked.map((asked) => asked.message), [`Delete 1 row of shopping_list: ${ref} "mrtr saffron"?`, `Delete 1 row of shopping_list: ${ref} "mrtr saffron"?`]);
    // The retry was a new request carrying the answer and the state, not a stream or a session.
    assert.deepEqual(client.exchanges.slice(-4).map(({ headers, status }) => [headers.get('mcp-name'), status]), [
      ['db_delete', 200],
      ['db_delete', 200],
      ['db_delete', 200],
      ['db_delete', 200],
    ]);
  });

  test('fails closed: a client that declared no elicitation gets approval_required and nothing is deleted; ALFRED_CONFIRM=false deletes unasked, within ALFRED_MAX_AFFECTED', async (t) => {
    const plain = await connect(t, workers.memory, ada().token);
    const created = await call(plain, 'db_create', { table: 'shopping_list', data: { name: 'mrtr closed cumin', quantity: 1 } });
    const refused = await call(plain, 'db_delete', { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: created.body.rows[0].id }] });
    assert.equal(refused.body.error.code, 'approval_required');
    assert.deepEqual(await shopping(ada().token, 'mrtr closed cumin'), [{ name: 'mrtr closed cumin', quantity: 1 }]);

    const unasked = await connect(t, workers.unasked, ada().token);
    const wide = await call(unasked, 'db_update', { table: 'inventory', filters: [{ field: 'quantity', op: '>=', value: 0 }], data: { notes: 'all of them' } });
    assert.equal(wide.body.error.code, 'too_many_rows');
    assert.deepEqual((await rest(stack, ada().token, 'GET', '/inventory?select=id&notes=eq.all%20of%20them')).body, []);
    const mine = await call(unasked, 'db_read', { table: 'shopping_list', columns: ['name'], filters: [{ field: 'name', op: '=', value: 'mrtr closed cumin' }] });
    const deleted = await call(unasked, 'db_delete', { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: mine.body.rows[0].id }] });
    assert.equal(deleted.isError, false, JSON.stringify(deleted.body));
    assert.deepEqual(await shopping(ada().token, 'mrtr closed cumin'), []);
  });
});

describe('raw 2026-07-28 requests', () => {
  const callDelete = (ref, extra = {}) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'db_delete', arguments: { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: ref }] }, _meta: meta({ elicitation: {} }), ...extra },
  });

  test('the requestState cannot be forged, replayed by another user or moved to another call; the right one runs', async () => {
    const made = await post(workers.memory, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'db_create', arguments: { table: 'shopping_list', data: [{ name: 'mrtr state one', quantity: 1 }, { name: 'mrtr state two', quantity: 2 }] }, _meta: meta() } });
    const [one, two] = made.body.result.structuredContent.rows.map((row) => row.id);
    const asked = await post(workers.memory, callDelete(one));
    assert.equal(asked.status, 200);
    const { result } = asked.body;
    assert.equal(result.resultType, 'input_required');
    assert.deepEqual(Object.keys(result.inputRequests), ['confirm_write']);
    assert.equal(result.inputRequests.confirm_write.method, 'elicitation/create');
    assert.equal(result.inputRequests.confirm_write.params.message, `Delete 1 row of shopping_list: ${one} "mrtr state one"?`);
    const yes = { inputResponses: { confirm_write: CONFIRM() } };
    const state = result.requestState;
    const [body, signature] = state.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...payload, exp: payload.exp + 3_600_000 })).toString('base64url')}.${signature}`;
    for (const [label, message, token] of [
      ['altered', callDelete(one, { ...yes, requestState: forged }), ada().token],
      ['not a state', callDelete(one, { ...yes, requestState: 'x' }), ada().token],
      ['another call', callDelete(two, { ...yes, requestState: state }), ada().token],
      ['another user', callDelete(one, { ...yes, requestState: state }), ben().token],
    ]) {
      const refused = await post(workers.memory, message, { token });
      assert.equal(refused.status, 400, label);
      assert.equal(refused.body.error.code, -32602, label);
      assert.equal(refused.body.error.data.code, 'invalid_request_state', label);
    }
    assert.deepEqual((await shopping(ada().token, 'mrtr state one')).length, 1, 'nothing was deleted');
    const done = await post(workers.memory, callDelete(one, { ...yes, requestState: state }));
    assert.equal(done.body.result.resultType, 'complete');
    assert.equal(done.body.result.isError, false, JSON.stringify(done.body.result));
    assert.deepEqual(await shopping(ada().token, 'mrtr state one'), []);
    assert.deepEqual((await shopping(ada().token, 'mrtr state two')).length, 1);
  });

  test('the transport rules: _meta required, headers equal to the body, unsupported versions and methods, no sessions, GET and DELETE 405', async () => {
    const list = { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: meta() } };
    const ok = await post(workers.memory, list);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.result.resultType, 'complete');
    assert.deepEqual([ok.body.result.ttlMs, ok.body.result.cacheScope], [300_000, 'public']);
    assert.equal(ok.headers.get('mcp-session-id'), null);
    const ignored = await post(workers.memory, list, { headers: { 'mcp-session-id': 'no-such-session-0000' } });
    assert.equal(ignored.status, 200, 'an Mcp-Session-Id is ignored');

    const noMeta = await post(workers.memory, { jsonrpc: '2.0', id: 6, method: 'tools/list', params: {} });
    assert.deepEqual([noMeta.status, noMeta.body.error.code, noMeta.body.error.data.code], [400, -32602, 'missing_request_meta']);
    const noCapabilities = await post(workers.memory, { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } } });
    assert.deepEqual([noCapabilities.status, noCapabilities.body.error.data.code], [400, 'missing_request_meta']);
    for (const [label, headers] of [
      ['version', { 'mcp-protocol-version': '2025-11-25' }],
      ['method', { 'mcp-method': 'tools/call' }],
      ['no method', { 'mcp-method': '' }],
    ]) {
      const mismatch = await post(workers.memory, list, { headers });
      assert.deepEqual([mismatch.status, mismatch.body.error.code, mismatch.body.error.data.code], [400, -32020, 'header_mismatch'], label);
    }
    const read = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'db_schema', arguments: {}, _meta: meta() } };
    assert.equal((await post(workers.memory, read, { headers: { 'mcp-name': 'db_read' } })).body.error.code, -32020);
    const encoded = await post(workers.memory, read, { headers: { 'mcp-name': `=?base64?${Buffer.from('db_schema').toString('base64')}?=` } });
    assert.equal(encoded.body.result.isError, false, 'a Base64-encoded Mcp-Name is decoded');

    const future = await post(workers.memory, { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
    assert.equal(future.status, 400);
    assert.deepEqual(future.body.error, { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: '2099-01-01', code: 'unsupported_protocol_version' } });
    const unknown = await post(workers.memory, { jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: meta() } });
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, -32601]);

    const discover = await post(workers.memory, { jsonrpc: '2.0', id: 10, method: 'server/discover', params: { _meta: meta() } });
    assert.deepEqual(discover.body.result.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
    assert.match(discover.body.result.instructions, /^This server serves the kitchen domain/);

    const auth = { authorization: `Bearer ${ada().token}` };
    assert.equal((await fetch(`${workers.memory.url}/mcp`, { headers: { ...auth, accept: 'text/event-stream' } })).status, 405);
    const del = await fetch(`${workers.memory.url}/mcp`, { method: 'DELETE', headers: auth });
    assert.equal(del.status, 405);
    assert.equal(del.headers.get('allow'), 'POST, OPTIONS');
  });
});

describe('refs kept in act_sessions (ALFRED_MCP_STORE=supabase)', () => {
  test("a user's refs are one row of their own, invisible to the other; refs that expired are refs_expired, with how to get fresh ones", async (t) => {
    const client = await connect(t, workers.table, ada().token);
    const { body } = await call(client, 'db_read', { table: 'tasks', columns: ['title'], order_by: 'title', limit: 1 });
    const ref = body.rows[0].id;
    assert.deepEqual((await call(client, 'db_read', { table: 'tasks', columns: ['title'], filters: [{ field: 'id', op: '=', value: ref }] })).body.rows, body.rows);
    const row = await rest(stack, ada().token, 'GET', '/act_sessions?select=id,user_id,state&id=eq.alfred-act-refs:kitchen');
    assert.deepEqual(row.body.map((entry) => [entry.user_id, entry.state.registry.format]), [[ada().id, 'alfred-act/registry']]);
    assert.deepEqual((await rest(stack, ben().token, 'GET', '/act_sessions?select=id&id=eq.alfred-act-refs:kitchen')).body, []);

    // The stored refs are gone (expired and cleared): the old ref is refs_expired.
    await rest(stack, ada().token, 'DELETE', '/act_sessions?id=eq.alfred-act-refs:kitchen');
    const expired = await call(client, 'db_read', { table: 'tasks', filters: [{ field: 'id', op: '=', value: ref }] });
    assert.equal(expired.isError, true);
    assert.equal(expired.body.error.code, 'refs_expired');
    assert.equal(expired.body.error.path, 'filters[0].value');
    assert.match(expired.body.error.hint, /^refs from earlier calls expire after a day without a call: read the rows again/);
  });
});

describe('the worker as an OAuth protected resource, and its limits', () => {
  test('RFC 9728 metadata names the project\'s Supabase Auth; a 401 from /mcp points to it', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${workers.memory.url}${path}`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), {
        resource: `${workers.memory.url}/mcp`,
        authorization_servers: [`${stack.supabaseUrl}/auth/v1`],
        bearer_methods_supported: ['header'],
        resource_name: 'alfred-act: kitchen domain',
      });
    }
    const anonymous = await fetch(`${workers.memory.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: '{}' });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('www-authenticate'), `Bearer resource_metadata="${workers.memory.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  test('per-user requests a minute on /mcp and /act/execute: the fourth is a 429 with Retry-After, another user is unaffected', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } };
    for (let i = 0; i < 2; i += 1) assert.equal((await post(workers.limited, list)).status, 200);
    const execute = (token) =>
      fetch(`${workers.limited.url}/act/execute`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ tool: 'db_read', params: { table: 'tasks', limit: 1 } }) });
    assert.equal((await execute(ada().token)).status, 200);
    const refused = await execute(ada().token);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal((await refused.json()).error.code, 'too_many_requests');
    const mcpRefused = await post(workers.limited, list);
    assert.equal(mcpRefused.status, 429);
    assert.equal((await execute(ben().token)).status, 200);
  });
});
