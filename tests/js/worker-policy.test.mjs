// The worker's write policy as its variables set it (ALFRED_READ_ONLY,
// ALFRED_TABLES, ALFRED_APPROVE, ALFRED_MAX_AFFECTED, ALFRED_STATE_SECRET),
// driven through createHandler in Node against a recording stand-in for
// PostgREST on 127.0.0.1, so "nothing was sent" is observed, not assumed:
// the variables hold on /act/execute (a worker that read them for /mcp only
// would let every write through there), and an expired confirmation of the
// stateless /mcp is never taken as the user's yes.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { signJwt } from '../../db/jwt.mjs';
import { createHandler } from '../../web/src/worker/index.node.js';
import { signState } from '../../web/src/worker/request-state.js';

const SECRET = 'policy-test-jwt-secret-of-32-chars-or-more';
const STATE_SECRET = 'policy-test-state-secret-32-chars-long!';
const USER = '5a1e0000-0000-4000-8000-00000000000a';
const TOKEN = signJwt({ role: 'authenticated', aud: 'authenticated', sub: USER }, SECRET);
const columns = { id: { type: 'uuid', writable: false, nullable: false }, title: { type: 'text', required: true } };
const NOTES = { name: 'notes', tables: { notes: { ref: 'note', label: ['title'], columns }, tasks: { ref: 'task', label: ['title'], columns } } };
const ROW = { id: '0b7e0000-0000-4000-8000-000000000001', title: 'groceries' };

// PostgREST as far as these calls need it: a read finds ROW, a create
// answers the rows it was sent, an update or delete the row it changed.
// Every request is recorded.
let server;
let baseUrl;
const requests = [];
before(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      requests.push({ method: request.method, url: request.url, prefer: request.headers.prefer ?? '' });
      const sent = body ? JSON.parse(body) : null;
      const rows = request.method === 'POST' ? [sent].flat() : [ROW];
      response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-range': `0-${rows.length - 1}/${rows.length}` });
      response.end(JSON.stringify(rows));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((resolve) => server.close(resolve)));

const envWith = (policy = {}) => ({ SUPABASE_URL: baseUrl, SUPABASE_ANON_KEY: 'anon-key', SUPABASE_JWT_SECRET: SECRET, ALFRED_STATE_SECRET: STATE_SECRET, ...policy });

// POSTs `body` to `path` of a worker made with `env`: `{ status, body }`, and
// the requests that reached the stand-in meanwhile.
async function post(env, path, body, headers = {}) {
  const handler = createHandler({ domain: NOTES });
  const first = requests.length;
  const request = new Request(`http://worker.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}`, ...headers },
    body: JSON.stringify(body),
  });
  const response = await handler.fetch(request, env, { waitUntil() {} });
  return { status: response.status, body: await response.json(), sent: requests.slice(first) };
}

const deleteGroceries = { tool: 'db_delete', params: { table: 'notes', filters: [{ field: 'title', op: '=', value: 'groceries' }] } };
const createNote = { tool: 'db_create', params: { table: 'notes', data: { title: 'call the plumber' } } };

test('/act/execute obeys the policy variables: ALFRED_READ_ONLY refuses a delete, ALFRED_APPROVE holds a create, ALFRED_TABLES hides a table; nothing reaches the database', async () => {
  // Without them, the same calls are sent (what the variables then stop).
  const open = await post(envWith(), '/act/execute', deleteGroceries);
  assert.equal(open.body.error, null);
  assert.deepEqual(open.sent.map((sent) => sent.method), ['DELETE']);
  assert.deepEqual((await post(envWith(), '/act/execute', createNote)).sent.map((sent) => sent.method), ['POST']);

  for (const value of ['on', 'true', 'YES', '1']) {
    const readOnly = await post(envWith({ ALFRED_READ_ONLY: value }), '/act/execute', deleteGroceries);
    assert.equal(readOnly.status, 200);
    assert.deepEqual([readOnly.body.error.code, readOnly.body.error.message], ['read_only', 'this assistant may only read: db_delete is refused and nothing was sent'], `ALFRED_READ_ONLY=${value}`);
    assert.deepEqual(readOnly.sent, []);
  }
  const held = await post(envWith({ ALFRED_APPROVE: 'writes' }), '/act/execute', createNote);
  assert.equal(held.body.error.code, 'approval_required');
  assert.deepEqual([held.body.error.preview.tool, held.body.error.preview.count], ['db_create', 1]);
  assert.deepEqual(held.sent, []);
  const hidden = await post(envWith({ ALFRED_TABLES: 'tasks' }), '/act/execute', { tool: 'db_read', params: { table: 'notes' } });
  assert.deepEqual([hidden.status, hidden.body.error.code, hidden.body.error.path], [200, 'unknown_table', 'table']);
  assert.deepEqual(hidden.sent, []);
});

test('ALFRED_MAX_AFFECTED reaches /act/execute: a number caps the delete, 0 is no limit, as for maxAffected', async () => {
  const capOf = async (policy) => (await post(envWith(policy), '/act/execute', deleteGroceries)).sent.map((sent) => /max-affected=(\d+)/.exec(sent.prefer)?.[1] ?? null);
  assert.deepEqual(await capOf({}), ['50']);
  assert.deepEqual(await capOf({ ALFRED_MAX_AFFECTED: '3' }), ['3']);
  assert.deepEqual(await capOf({ ALFRED_MAX_AFFECTED: '0' }), [null]);
});

const VERSION = '2026-07-28';
// One stateless /mcp tools/call from a client that can answer a form.
function callTool(env, params) {
  const headers = { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': params.name };
  const _meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  return post(env, '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...params, _meta } }, headers);
}
const yes = { confirm_write: { action: 'accept', content: { confirm: true } } };
const payloadOf = (state) => JSON.parse(Buffer.from(state.split('.')[0], 'base64url').toString());

test('the stateless /mcp never takes an expired confirmation for a yes: the call is asked again and nothing is sent', async () => {
  const env = envWith({ ALFRED_APPROVE: 'writes' });
  const args = { table: 'notes', data: { title: 'call the plumber' } };
  const asked = await callTool(env, { name: 'db_create', arguments: args });
  assert.equal(asked.body.result.resultType, 'input_required');
  assert.deepEqual(asked.sent, []);
  const payload = payloadOf(asked.body.result.requestState);
  assert.ok(payload.exp > Date.now());

  // The same state, signed with the worker's own key, a second past its time.
  const expired = await signState({ ...payload, exp: Date.now() - 1000 }, STATE_SECRET);
  const late = await callTool(env, { name: 'db_create', arguments: args, requestState: expired, inputResponses: yes });
  assert.equal(late.status, 200);
  assert.equal(late.body.result.resultType, 'input_required', 'asked anew');
  assert.notEqual(late.body.result.requestState, expired);
  assert.ok(payloadOf(late.body.result.requestState).exp > Date.now());
  assert.deepEqual(late.sent, []);

  // The state as it was handed out, answered yes in time: the create runs, once.
  const done = await callTool(env, { name: 'db_create', arguments: args, requestState: asked.body.result.requestState, inputResponses: yes });
  assert.equal(done.body.result.isError, false);
  assert.deepEqual(done.sent.map((sent) => sent.method), ['POST']);
});
