// The edge worker's handler (createHandler, run in Node; the runtimes run the
// same code in worker.test.mjs and mcp-*.test.mjs) over the help desk: what
// /act/execute returns for the model holds no UUID and no error.raw (the
// developer's copy only when asked for); /mcp with an allow-list names no
// other table; an approved confirmation of the stateless /mcp is used once
// (a create or a function that changes data sent again is answered as the
// first, never run twice); a ref of a user who never had refs is
// unknown_ref, and refs_expired only once kept refs are gone. The local stack
// on the desk's own SQL (PGlite + PostgREST 12), read back as the service role.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemorySessionStore } from '../../web/src/mcp/store.js';
import { createHandler } from '../../web/src/worker/index.node.js';
import { ADA, BEN, DESK, DESK_SQL, asService, insertAsService } from './fixtures/desk.mjs';
import { sharedSqlStack } from './support/sql-stack.mjs';

const stack = sharedSqlStack({ sql: DESK_SQL, users: [ADA, BEN] });
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const VERSION = '2026-07-28';
const envOf = () => ({ SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, SUPABASE_JWT_SECRET: stack().jwtSecret });

// POSTs `body` to `path` of `handler` as `user`: `{ status, body, text }`.
async function post(handler, path, body, { user = ADA, headers = {} } = {}) {
  const request = new Request(`http://worker.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${stack().tokenOf(user)}`, ...headers },
    body: JSON.stringify(body),
  });
  const response = await handler.fetch(request, envOf(), { waitUntil() {} });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null };
}

const meta = (capabilities = {}) => ({ 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': capabilities });
// One stateless /mcp request, its headers mirroring the body.
function mcp(handler, method, params = {}, { user, capabilities = {} } = {}) {
  const name = params.name ?? params.uri;
  const headers = { 'mcp-protocol-version': VERSION, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
  return post(handler, '/mcp', { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta(capabilities) } }, { user, headers });
}

test('/act/execute returns what a model may read: no UUID in data (a storage path) or in a refusal, no error.raw; raw: true adds the developer\'s copy apart', async () => {
  const handler = createHandler({ domain: DESK });
  const ticket = await post(handler, '/act/execute', { tool: 'db_create', params: { table: 'tickets', data: { title: 'Scanner' } } });
  const path = `${ADA.id}/scan.png`;
  const created = await post(handler, '/act/execute', { tool: 'db_create', params: { table: 'attachments', data: { ticket_id: ticket.body.data.id, path } }, state: ticket.body.state });
  assert.equal(created.status, 200);
  assert.equal(created.body.error, null);
  assert.equal(created.body.data.path, '<id>/scan.png');
  assert.match(created.body.data.id, /^file_\d+$/);
  // The same path again: the database refuses it, quoting the path in its own text.
  const again = await post(handler, '/act/execute', { tool: 'db_create', params: { table: 'attachments', data: { ticket_id: ticket.body.data.id, path } }, state: created.body.state });
  assert.equal(again.body.error.code, 'duplicate');
  assert.equal(again.body.error.raw, undefined);
  for (const answer of [ticket, created, again]) {
    assert.doesNotMatch(JSON.stringify({ ...answer.body, state: null }), UUID);
    assert.equal('raw' in answer.body, false);
  }
  const developer = await post(handler, '/act/execute', { tool: 'db_read', params: { table: 'attachments', filters: [{ field: 'path', op: 'like', value: '%scan.png' }] }, state: created.body.state, raw: true });
  assert.equal(developer.body.data[0].path, '<id>/scan.png');
  assert.equal(developer.body.raw.data[0].path, path);
  // A ticket gone since its ref was read: the foreign key refuses the attachment.
  await fetch(`${stack().restUrl}/tickets?id=eq.${(await asService(stack(), '/tickets?title=eq.Scanner&select=id'))[0].id}`, { method: 'DELETE', headers: { apikey: stack().serviceKey, authorization: `Bearer ${stack().serviceKey}` } });
  const orphan = await post(handler, '/act/execute', { tool: 'db_create', params: { table: 'attachments', data: { ticket_id: ticket.body.data.id, path: `${ADA.id}/late.png` } }, state: created.body.state, raw: true });
  assert.equal(orphan.body.error.code, 'foreign_key_violation');
  assert.equal(orphan.body.error.raw, undefined);
  const { raw, state: _state, ...forModel } = orphan.body;
  assert.doesNotMatch(JSON.stringify(forModel), UUID);
  // The developer's copy, asked for, is the database's own text.
  assert.deepEqual(Object.keys(raw), ['data', 'error']);
  assert.equal(raw.error.status, 409);
  assert.equal(typeof raw.error.details, 'string');
  assert.equal((await post(handler, '/act/execute', { tool: 'db_read', params: { table: 'tickets' }, raw: 'yes' })).status, 400);
});

test('/mcp with an allow-list names no other table: tools/list, the instructions, db_schema, the schema resource, on the stateless and the 2025 revisions', async () => {
  const handler = createHandler({ domain: DESK, tables: ['tickets'] });
  const texts = [];
  texts.push((await mcp(handler, 'tools/list')).text);
  texts.push((await mcp(handler, 'server/discover')).text);
  texts.push((await mcp(handler, 'resources/read', { uri: 'alfred-act://schema' })).text);
  texts.push((await mcp(handler, 'tools/call', { name: 'db_schema', arguments: {} })).text);
  const init = await post(handler, '/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  texts.push(init.text);
  const session = { 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-06-18' };
  texts.push((await post(handler, '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, { headers: session })).text);
  texts.push((await post(handler, '/mcp', { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'alfred-act://schema' } }, { headers: session })).text);
  for (const text of texts) {
    assert.match(text, /tickets/);
    assert.doesNotMatch(text, /comments|attachments|comment_|file_\d|file_N/, text.slice(0, 300));
  }
  const refused = await mcp(handler, 'tools/call', { name: 'db_read', arguments: { table: 'comments' } });
  assert.equal(refused.body.result.structuredContent.error.code, 'unknown_table');
});

test('an approved confirmation of the stateless /mcp is used once: the same approved create, and call of a function that changes data, sent again is answered as the first', async () => {
  const handler = createHandler({ domain: DESK, approve: 'writes' });
  const elicit = { elicitation: {} };
  const yes = { confirm_write: { action: 'accept', content: { confirm: true } } };
  for (const [name, args, title] of [
    ['db_create', { table: 'tickets', data: { title: 'Once only' } }, 'Once only'],
    ['db_call', { function: 'file_ticket', args: { title: 'Filed once' } }, 'Filed once'],
  ]) {
    const asked = await mcp(handler, 'tools/call', { name, arguments: args }, { capabilities: elicit });
    assert.equal(asked.body.result.resultType, 'input_required', asked.text);
    const { requestState } = asked.body.result;
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await mcp(handler, 'tools/call', { name, arguments: args, inputResponses: yes, requestState }, { capabilities: elicit }));
    const [first, ...repeats] = answers.map((answer) => answer.body.result.structuredContent);
    assert.equal(first.ok, true, JSON.stringify(first));
    for (const repeat of repeats) assert.deepEqual(repeat, first, 'answered as the first');
    assert.equal((await asService(stack(), `/tickets?title=eq.${encodeURIComponent(title)}&select=id`)).length, 1, `${name} ran once`);
    // Another user cannot use it (the state is the first user's).
    assert.equal((await mcp(handler, 'tools/call', { name, arguments: args, inputResponses: yes, requestState }, { user: BEN, capabilities: elicit })).status, 400);
  }
});

test('the stateless /mcp: a ref of a user who never had refs here is unknown_ref; once their kept refs are gone, refs_expired', async () => {
  const store = new MemorySessionStore();
  const handler = createHandler({ domain: DESK, sessionStore: () => store });
  const read = { name: 'db_read', arguments: { table: 'tickets', filters: [{ field: 'id', op: '=', value: 'ticket_1' }] } };
  const never = await mcp(handler, 'tools/call', read, { user: BEN });
  assert.equal(never.body.result.structuredContent.error.code, 'unknown_ref');
  const seen = await mcp(handler, 'tools/call', { name: 'db_read', arguments: { table: 'tickets', limit: 1 } });
  const ref = seen.body.result.structuredContent.rows[0].id;
  store.delete('alfred-act-refs:desk', { userId: ADA.id });
  const gone = await mcp(handler, 'tools/call', { name: 'db_read', arguments: { table: 'tickets', filters: [{ field: 'id', op: '=', value: ref }] } });
  const { error } = gone.body.result.structuredContent;
  assert.equal(error.code, 'refs_expired');
  assert.match(error.hint, /^refs from earlier calls expire after a day without a call/);
});

test('the worker\'s answers hold no raw line or paragraph separator: a row\'s U+2028 is an escape in /act/execute and /mcp alike', async () => {
  const handler = createHandler({ domain: DESK });
  await insertAsService(stack(), 'tickets', [{ title: 'one\u2028two\u2029three\u0085four', owner_id: ADA.id }]);
  const filters = [{ field: 'title', op: 'like', value: 'one%' }];
  const executed = await post(handler, '/act/execute', { tool: 'db_read', params: { table: 'tickets', filters } });
  const viaMcp = await mcp(handler, 'tools/call', { name: 'db_read', arguments: { table: 'tickets', filters } });
  for (const answer of [executed, viaMcp]) {
    assert.doesNotMatch(answer.text, /[\u0085\u2028\u2029]/);
    assert.match(answer.text, /one\\u2028two\\u2029three\\u0085four/);
  }
  assert.equal(executed.body.data[0].title, 'one\u2028two\u2029three\u0085four');
});
