// The MCP layer's parts on their own, in Node: the in-memory session store,
// the user-token reader, the stdio configuration, the tool result shape and
// the worker's ALFRED_MCP_STORE setting, the question a confirmation asks. The transports are tested end to end
// in mcp-stdio.test.mjs and mcp-worker.test.mjs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { anonKey, newJwtSecret, serviceKey, signJwt } from '../../db/jwt.mjs';
import { loadCore, mcpToolResult, MemorySessionStore, readUserToken } from '../../web/src/index.node.js';
import { readMcpConfig } from '../../web/src/mcp/stdio.js';
import { confirmationRequest } from '../../web/src/mcp/approval.js';
import { readConfig } from '../../web/src/worker/config.js';
import { rowsNotice } from '../../web/src/result-limits.js';

const secret = newJwtSecret();
const user = (claims = {}) => signJwt({ sub: '5f0c8e8a-3b7e-4d2a-9c61-0a8f2b4c6d10', role: 'authenticated', exp: 2_000_000_000, ...claims }, secret);

describe('MemorySessionStore', () => {
  test('keyed by user: another user asking for the same session id gets null, and deletes nothing', () => {
    const store = new MemorySessionStore();
    store.put('s1', { userId: 'ada', registry: null }, { userId: 'ada' });
    assert.equal(store.get('s1', { userId: 'ben' }), null);
    store.delete('s1', { userId: 'ben' });
    assert.deepEqual(store.get('s1', { userId: 'ada' }), { userId: 'ada', registry: null });
  });

  test('a copy goes in and comes out: changing the value after put changes nothing stored', () => {
    const store = new MemorySessionStore();
    const state = { userId: 'ada', registry: { format: 'x' } };
    store.put('s', state, { userId: 'ada' });
    state.registry.format = 'changed';
    assert.equal(store.get('s', { userId: 'ada' }).registry.format, 'x');
  });

  test('least recently stored goes first past maxSessions; idle sessions expire', () => {
    let now = 0;
    const store = new MemorySessionStore({ maxSessions: 2, idleMs: 1_000, now: () => now });
    for (const id of ['a', 'b']) store.put(id, { userId: 'u', id }, { userId: 'u' });
    store.put('a', { userId: 'u', id: 'a2' }, { userId: 'u' });
    store.put('c', { userId: 'u', id: 'c' }, { userId: 'u' });
    assert.equal(store.size, 2);
    assert.equal(store.get('b', { userId: 'u' }), null, 'b was the least recently stored');
    assert.equal(store.get('a', { userId: 'u' }).id, 'a2');
    now = 1_001;
    assert.equal(store.get('c', { userId: 'u' }), null);
  });
});

describe('readUserToken', () => {
  test("a user's token: its sub and expiry", () => {
    assert.deepEqual(readUserToken(` ${user()}\n`), { data: { accessToken: user(), userId: '5f0c8e8a-3b7e-4d2a-9c61-0a8f2b4c6d10', expiresAt: 2_000_000_000_000 }, error: null });
  });

  test('refused: service keys, the anon key, no sub, not a JWT, empty', () => {
    const cases = [
      [serviceKey(secret), 'service_key_refused'],
      ['sb_secret_abc', 'service_key_refused'],
      [anonKey(secret), 'not_a_user_token'],
      [user({ sub: undefined }), 'missing_subject'],
      ['sbp_0123456789abcdef', 'malformed_token'],
      ['', 'missing_token'],
    ];
    for (const [token, code] of cases) assert.equal(readUserToken(token).error?.code, code, token);
  });
});

describe('readMcpConfig', () => {
  test("the user's token from --access-token, SUPABASE_ACCESS_TOKEN, or ALFRED_ACCESS_TOKEN as the local stack prints it, in that order", () => {
    assert.deepEqual(readMcpConfig([], { ...env, ALFRED_ACCESS_TOKEN: 'stack-jwt' }).data.token, { accessToken: 'stack-jwt' });
    assert.deepEqual(readMcpConfig([], { ...env, ALFRED_ACCESS_TOKEN: 'stack-jwt', SUPABASE_ACCESS_TOKEN: 'jwt' }).data.token, { accessToken: 'jwt' });
    assert.deepEqual(readMcpConfig(['--access-token', 'flag-jwt'], { ...env, ALFRED_ACCESS_TOKEN: 'stack-jwt' }).data.token, { accessToken: 'flag-jwt' });
    assert.match(readMcpConfig([], { ...env, ALFRED_ACCESS_TOKEN: '' }).error, /access token is required/);
  });
  test('the write policy: flags, or ALFRED_READ_ONLY, ALFRED_TABLES, ALFRED_APPROVE, ALFRED_MAX_AFFECTED, ALFRED_CONFIRM (a flag wins)', () => {
    const user = { ...env, SUPABASE_ACCESS_TOKEN: 'jwt' };
    assert.deepEqual(readMcpConfig(['--read-only', '--tables', 'deals, contacts', '--max-affected', '20', '--no-confirm'], user).data.policy, {
      readOnly: true,
      tables: ['deals', 'contacts'],
      maxAffected: 20,
      confirm: false,
    });
    assert.deepEqual(readMcpConfig([], { ...user, ALFRED_READ_ONLY: '1', ALFRED_TABLES: 'deals', ALFRED_APPROVE: 'writes', ALFRED_MAX_AFFECTED: '5', ALFRED_CONFIRM: 'true' }).data.policy, {
      readOnly: true,
      tables: ['deals'],
      approve: 'writes',
      maxAffected: 5,
      confirm: true,
    });
    assert.deepEqual(readMcpConfig(['--approve', 'none', '--tables', 'tasks'], { ...user, ALFRED_APPROVE: 'writes', ALFRED_TABLES: 'deals' }).data.policy, { approve: 'none', tables: ['tasks'] });
    assert.deepEqual(readMcpConfig([], { ...user, ALFRED_CONFIRM: 'off' }).data.policy, { confirm: false });
  });

  const env = { SUPABASE_URL: 'http://127.0.0.1:3000', SUPABASE_ANON_KEY: anonKey(secret) };

  test('flags win over the environment; one token source', () => {
    const { data } = readMcpConfig(['--url', 'http://127.0.0.1:4000', '--token-file', '/tmp/t'], { ...env, ALFRED_MCP_STORE: 'supabase' });
    assert.deepEqual(data, { url: 'http://127.0.0.1:4000', apiKey: env.SUPABASE_ANON_KEY, token: { file: '/tmp/t' }, store: 'supabase', sessionId: undefined, domain: null, schema: 'compact', policy: {}, embedding: null });
    assert.equal(readMcpConfig(['--schema', 'inline'], { ...env, SUPABASE_ACCESS_TOKEN: 'jwt' }).data.schema, 'inline');
    assert.equal(readMcpConfig([], { ...env, SUPABASE_ACCESS_TOKEN: 'jwt', ALFRED_MCP_SCHEMA: 'inline' }).data.schema, 'inline');
    assert.deepEqual(readMcpConfig([], { ...env, SUPABASE_ACCESS_TOKEN: 'jwt' }).data.token, { accessToken: 'jwt' });
  });

  test('the embedder: --embedding-model, --embedding-url, --embedding-dimensions or their variables (a flag wins); a size without a model is refused', () => {
    const user = { ...env, SUPABASE_ACCESS_TOKEN: 'jwt' };
    assert.deepEqual(readMcpConfig(['--embedding-model', 'gte-small', '--embedding-dimensions', '384'], { ...user, ALFRED_EMBEDDING_MODEL: 'other', ALFRED_EMBEDDING_URL: 'http://127.0.0.1:8080/v1' }).data.embedding, {
      model: 'gte-small', baseUrl: 'http://127.0.0.1:8080/v1', apiKey: undefined, dimensions: 384, given: '--embedding-model',
    });
    assert.deepEqual(readMcpConfig([], { ...user, ALFRED_EMBEDDING_MODEL: 'lexical' }).data.embedding, { model: 'lexical', baseUrl: null, apiKey: undefined, dimensions: 1536, given: 'ALFRED_EMBEDDING_MODEL' });
    assert.deepEqual(readMcpConfig([], { ...user, ALFRED_EMBEDDING_DIMENSIONS: '384' }), {
      data: null,
      error: 'ALFRED_EMBEDDING_DIMENSIONS says where or how to embed, but no embedding model is named (set ALFRED_EMBEDDING_MODEL (or --embedding-model) to the model your rows were embedded with)',
    });
  });

  test('the domain: --domain or ALFRED_DOMAIN, --pull with its options (the flag wins over ALFRED_DOMAIN), or none', () => {
    const user = { ...env, SUPABASE_ACCESS_TOKEN: 'jwt' };
    assert.deepEqual(readMcpConfig(['--domain', 'crm.json'], user).data.domain, { file: 'crm.json' });
    assert.deepEqual(readMcpConfig([], { ...user, ALFRED_DOMAIN: 'env.json' }).data.domain, { file: 'env.json' });
    assert.deepEqual(readMcpConfig(['--domain', 'flag.json'], { ...user, ALFRED_DOMAIN: 'env.json' }).data.domain, { file: 'flag.json' });
    assert.deepEqual(readMcpConfig(['--pull'], { ...user, ALFRED_DOMAIN: 'env.json' }).data.domain, { pull: { key: undefined, dbUrl: undefined, ownerColumn: undefined, overrides: undefined } });
    assert.deepEqual(readMcpConfig(['--pull', '--owner-column', 'owner_id', '--overrides', 'o.json'], { ...user, SUPABASE_SECRET_KEY: 'sb_secret_x' }).data.domain, {
      pull: { key: 'sb_secret_x', dbUrl: undefined, ownerColumn: 'owner_id', overrides: 'o.json' },
    });
    // The database's catalog, as for `alfred-act domain pull`: --db-url, else SUPABASE_DB_URL.
    assert.equal(readMcpConfig(['--pull', '--db-url', 'postgres://flag'], { ...user, SUPABASE_DB_URL: 'postgres://env' }).data.domain.pull.dbUrl, 'postgres://flag');
    assert.equal(readMcpConfig(['--pull'], { ...user, SUPABASE_DB_URL: 'postgres://env' }).data.domain.pull.dbUrl, 'postgres://env');
    assert.equal(readMcpConfig(['--db-url', 'postgres://flag'], user).error, '--db-url goes with --pull (they say how to derive the domain)');
    assert.equal(readMcpConfig(['--pull', '--key', 'sb_secret_flag'], { ...user, SUPABASE_SECRET_KEY: 'sb_secret_env' }).data.domain.pull.key, 'sb_secret_flag');
    // SUPABASE_SECRET_KEY in the environment is only read for --pull.
    assert.deepEqual(readMcpConfig([], { ...user, SUPABASE_SECRET_KEY: 'sb_secret_x' }).data.domain, null);
  });

  test('refused with a message: no token, two tokens, a service key as anon key, a bad store or session, an unknown flag', () => {
    const cases = [
      [[], env, /access token is required/],
      [['--access-token', 'a', '--token-command', 'b'], env, /give one token source, not --access-token and --token-command/],
      [['--access-token', 'a'], { ...env, SUPABASE_ANON_KEY: serviceKey(secret) }, /service-role key/],
      [['--access-token', 'a', '--store', 'redis'], env, /--store must be memory or supabase/],
      [['--access-token', 'a', '--session', 'abcdefghijklmnopq'], env, /needs --store supabase/],
      [['--access-token', 'a', '--store', 'supabase', '--session', 'short'], env, /--session must be 16 to 128 characters/],
      [['--access-token', 'a', '--verbose'], env, /Unknown option '--verbose'/],
      [['--access-token', 'a'], {}, /URL and anon key are required/],
      [['--access-token', 'a', '--domain', 'd.json', '--pull'], env, /give --domain or --pull, not both/],
      [['--access-token', 'a', '--key', 'sb_secret_x'], env, /--key goes with --pull/],
      [['--access-token', 'a', '--owner-column', 'o', '--overrides', 'f'], env, /--owner-column and --overrides go with --pull/],
      [['--access-token', 'a', '--domain', ''], env, /--domain needs a file/],
      [['--access-token', 'a', '--schema', 'full'], env, /--schema must be compact or inline, got full/],
      [['--access-token', 'a', '--approve', 'all'], env, /^--approve must be one of none, deletes, changes, writes, got "all"$/],
      [['--access-token', 'a', '--max-affected=-1'], env, /^--max-affected must be a whole number from 0 to 1000000 \(0: no limit\), got "-1"$/],
      [['--access-token', 'a', '--max-affected', '2.5'], env, /^--max-affected must be a whole number from 0 to 1000000/],
      [['--access-token', 'a', '--tables', ','], env, /^--tables must name tables, separated by commas, got ","$/],
      [['--access-token', 'a'], { ...env, ALFRED_READ_ONLY: 'maybe' }, /^ALFRED_READ_ONLY must be one of true, false, 1, 0, on, off, yes, no \(any case\), got "maybe"$/],
      [['--access-token', 'a', '--no-confirm', '--approve', 'deletes'], env, /--no-confirm runs writes without asking, and --approve deletes asks before some/],
    ];
    for (const [argv, environment, message] of cases) {
      const { data, error } = readMcpConfig(argv, environment);
      assert.equal(data, null, argv.join(' '));
      assert.match(error, message);
    }
  });
});

test('mcpToolResult: the core\'s tool result as JSON text, isError when not ok', async () => {
  const core = await loadCore();
  const error = { code: 'duplicate', message: 'already exists', path: 'data', hint: 'use another name', details: 'Key (name)=(x) already exists', status: 409, dbCode: '23505', raw: { message: 'Key (id)=(0b6a4c1e-8f2d-4e7a-b3c5-9d1e2f3a4b5c)' } };
  const refused = mcpToolResult(core.toolResult('db_create', { data: null, error, query: null, count: null }));
  assert.equal(refused.isError, true);
  // The database's details may quote a row: the error is fenced as rows are.
  const { end: errorFence } = JSON.parse(refused.content[0].text);
  assert.deepEqual(JSON.parse(refused.content[0].text), { ok: false, tool: 'db_create', table: null, notice: rowsNotice(errorFence), error: { code: 'duplicate', path: 'data', message: 'already exists', hint: 'use another name', details: 'Key (name)=(x) already exists' }, end: errorFence });
  assert.deepEqual(refused.structuredContent, JSON.parse(refused.content[0].text));
  const read = mcpToolResult(core.toolResult('db_read', { data: [{ id: 'inv_1', name: 'eggs' }], error: null, query: null, count: 1 }));
  const fence = read.structuredContent.end;
  assert.match(fence, /^[A-Za-z0-9]{10}$/);
  assert.deepEqual(read, {
    content: [{ type: 'text', text: `{"ok":true,"tool":"db_read","table":null,"count":1,"query":null,"notice":${JSON.stringify(rowsNotice(fence))},"rows":[{"id":"inv_1","name":"eggs"}],"end":"${fence}"}` }],
    structuredContent: { ok: true, tool: 'db_read', table: null, count: 1, query: null, notice: rowsNotice(fence), rows: [{ id: 'inv_1', name: 'eggs' }], end: fence },
    isError: false,
  });
});

test('worker config: ALFRED_MCP_STORE is memory by default, supabase when set, anything else misconfigured', () => {
  const base = { SUPABASE_URL: 'http://127.0.0.1:3000', SUPABASE_ANON_KEY: anonKey(secret), SUPABASE_JWT_SECRET: secret };
  assert.equal(readConfig(base).data.mcpStore, 'memory');
  assert.equal(readConfig({ ...base, ALFRED_MCP_STORE: 'supabase' }).data.mcpStore, 'supabase');
  const { error } = readConfig({ ...base, ALFRED_MCP_STORE: 'durable' });
  assert.equal(error.code, 'worker_misconfigured');
  assert.match(error.message, /ALFRED_MCP_STORE must be memory or supabase/);
});

test('isServiceKey: sb_secret_ keys and service_role JWTs (padded too), never a user token or the anon key', async () => {
  const { isServiceKey } = await import('../../web/src/index.node.js');
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const jwt = (claims) => `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
  const service = jwt({ role: 'service_role', iss: 'supabase' });
  assert.equal(isServiceKey(service), true);
  const [header, claims, signature] = service.split('.');
  const padded = `${header}.${claims}${'='.repeat((4 - (claims.length % 4)) % 4 || 1)}.${signature}`;
  assert.equal(isServiceKey(padded), true);
  assert.equal(isServiceKey('sb_secret_abc123'), true);
  assert.equal(isServiceKey(jwt({ role: 'anon' })), false);
  assert.equal(isServiceKey(jwt({ role: 'authenticated', sub: 'c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61' })), false);
  assert.equal(isServiceKey('sb_publishable_abc123'), false);
  assert.equal(isServiceKey('not a jwt'), false);
  assert.equal(isServiceKey(undefined), false);
});

test('confirmationRequest for db_call: text quoted, numbers and lists as the model gave them (a list of refs was quoted twice, escapes and all)', () => {
  const ask = (args, argumentLabels = {}) => confirmationRequest({ tool: 'db_call', function: 'match_items', args, argumentLabels }).message;
  assert.equal(ask({ query: 'light', count: 3, ids: ['file_1', 'file_2'], exact: false, after: null }), 'Run match_items (it changes data) with query = "light", count = 3, ids = ["file_1", "file_2"], exact = false, after = null?');
  assert.equal(ask({ project_id: 'project_2' }, { project_id: 'Apollo' }), 'Run match_items (it changes data) with project_id = "project_2" ("Apollo")?');
  assert.equal(ask({ ids: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }), 'Run match_items (it changes data) with ids = ["a", "b", "c", "d", "e", … 2 more]?');
  assert.equal(ask({ filter: { status: 'done"?' } }), 'Run match_items (it changes data) with filter = "{\\"status\\":\\"done\\\\\\"?\\"}"?', 'an object as its JSON, quoted');
  assert.equal(ask({}), 'Run match_items (it changes data)?');
});
