// The signed-in user's session, the way supabase-js keeps it: the real
// @supabase/supabase-js client against the local stack's Supabase URL
// (PostgREST under /rest/v1). A client gets its session here either from the
// `accessToken` option or from a session the stack signed, kept in the
// client's own auth storage (as a browser's localStorage keeps it); signing
// in with a password through the stack's /auth/v1 is tested in
// stack-apps.test.mjs. Every write is read back from the database. Also: the
// documents whose examples call createClient say what Node 20 needs for it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, test } from 'node:test';
import { createClient as createSupabaseClient } from '@supabase/supabase-js';
import { signJwt } from '../../db/jwt.mjs';
import { createAct as packageCreateAct, loadCore, restUrl } from '../../web/src/index.node.js';
import { recordingFetch } from './support/recording-fetch.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
const grace = () => stack().users[1];
let core;
before(async () => {
  core = await loadCore();
});

// supabase-js's realtime client wants a WebSocket class at construction; Node
// 20 has none without a flag. These tests open no channel, so none is made.
class NoRealtimeSocket {
  constructor() {
    throw new Error('realtime is not used by these tests');
  }
}
const realtime = { transport: globalThis.WebSocket ?? NoRealtimeSocket };
/** The real createClient, with `realtime` set for Node 20. */
const createClient = (url, key, options = {}) => createSupabaseClient(url, key, { ...options, realtime });

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A user token of the stack that expires in `seconds`. */
const shortLivedToken = (user, seconds) =>
  signJwt({ role: 'authenticated', aud: 'authenticated', sub: user.id, email: user.email, exp: nowSeconds() + seconds }, stack().jwtSecret);

/**
 * A supabase-js client whose session lives in its auth storage (a Map, as a
 * browser keeps it in localStorage), so no sign-in is needed to read it.
 * `store(user, token, expiresIn)` replaces the session, as a refresh or a
 * sign-in in another tab does; `signOut()` removes it.
 */
function clientWithStoredSession(session) {
  const items = new Map();
  const storageKey = 'sb-local-auth-token';
  const storage = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
  const store = (user, token, expiresIn) =>
    items.set(
      storageKey,
      JSON.stringify({
        access_token: token,
        refresh_token: `refresh-${user.id}`,
        token_type: 'bearer',
        expires_in: expiresIn,
        expires_at: nowSeconds() + expiresIn,
        user: { id: user.id, aud: 'authenticated', role: 'authenticated', email: user.email, app_metadata: {}, user_metadata: {}, created_at: new Date().toISOString() },
      }),
    );
  if (session) store(session.user, session.token, session.expiresIn ?? 3600);
  const client = createClient(stack().supabaseUrl, stack().anonKey, {
    auth: { storage, storageKey, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
  });
  return { client, store, signOut: () => items.delete(storageKey) };
}

const unique = (name) => `${name} ${Math.random().toString(36).slice(2, 8)}`;

/** Inventory rows named `name`, as `user` sees them in PostgREST. */
async function inventoryNamed(name, user = ada()) {
  const { status, body } = await rest(stack(), user.token, 'GET', `/inventory?select=name,user_id,quantity&name=eq.${encodeURIComponent(name)}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

describe('the documents that call createClient on Node say what Node 20 needs', () => {
  const root = new URL('../../', import.meta.url);
  const documents = ['README.md', 'db/README.md', 'worker/README.md', ...readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const NOTE = /Node 20[^]{0,200}?`realtime: \{ transport: WebSocket \}` from the `ws`\s+package/;

  test('every document whose js or ts example calls createClient gives the realtime: { transport } note', () => {
    const callers = documents.filter((path) => {
      const text = readFileSync(new URL(path, root), 'utf8');
      return [...text.matchAll(/^```(?:js|ts)\n([\s\S]*?)^```$/gm)].some(([, code]) => /\bcreateClient\(/.test(code));
    });
    assert.deepEqual(callers, ['README.md', 'db/README.md', 'docs/sessions.md']);
    for (const path of callers) assert.match(readFileSync(new URL(path, root), 'utf8'), NOTE, path);
    // docs/sessions.md shows it in code, next to its first example.
    const sessions = readFileSync(new URL('docs/sessions.md', root), 'utf8');
    assert.match(sessions, /```js\nimport WebSocket from 'ws';[^\n]*\n\nconst supabase = createClient\(SUPABASE_URL, SUPABASE_ANON_KEY, \{ realtime: \{ transport: WebSocket \} \}\);\n```/);
  });

  test('the note is what supabase-js reads: without a global WebSocket, createClient throws unless realtime.transport is given', (t) => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'WebSocket');
    if (saved) {
      delete globalThis.WebSocket; // Node 22 and later: as on Node 20
      t.after(() => Object.defineProperty(globalThis, 'WebSocket', saved));
    }
    // Recent supabase-js (2.109) refuses at createClient; older releases
    // (2.79, the oldest tests/matrix/ runs) only when realtime connects.
    let refused = null;
    try {
      createSupabaseClient('http://127.0.0.1:9', 'anon-key');
    } catch (cause) {
      refused = cause;
    }
    if (refused) assert.match(String(refused.message), /WebSocket/);
    else t.diagnostic('this supabase-js creates its client without a WebSocket and needs one only when realtime connects');
    const supabase = createSupabaseClient('http://127.0.0.1:9', 'anon-key', { realtime: { transport: NoRealtimeSocket } });
    assert.equal(typeof supabase.from, 'function');
  });
});

describe('createAct({ supabase }): the client brings URL, key and session', () => {
  test('a client created with the accessToken option: its URL gets /rest/v1, its key is the apikey, userId is the token sub', async () => {
    const supabase = createClient(stack().supabaseUrl, stack().anonKey, { accessToken: async () => ada().token });
    const fetch = recordingFetch();
    const act = core.createAct({ supabase, fetch });
    const name = unique('saffron');
    const created = await act.execute('db_create', { table: 'inventory', data: { name, quantity: 2, unit: 'g', location: 'pantry' } });
    assert.equal(created.error, null, JSON.stringify(created.error));
    const [request] = fetch.requests.filter((r) => r.method === 'POST');
    assert.ok(request.url.startsWith(`${stack().supabaseUrl}/rest/v1/inventory?`), request.url);
    assert.equal(request.headers.apikey, stack().anonKey);
    assert.equal(request.headers.authorization, `Bearer ${ada().token}`);
    assert.deepEqual(await inventoryNamed(name), [{ name, user_id: ada().id, quantity: 2 }]);

    const read = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'name', op: '=', value: name }] });
    assert.equal(read.error, null);
    assert.deepEqual(read.data.map((row) => row.name), [name]);
    assert.ok(fetch.requests.at(-1).url.includes(`user_id=eq.${ada().id}`), 'scoped to the token sub');
  });

  test('the same client runs the app\'s own supabase-js queries against the local stack unchanged', async () => {
    const supabase = createClient(stack().supabaseUrl, stack().anonKey, { accessToken: async () => grace().token });
    const { data, error } = await supabase.from('recipes').select('user_id').limit(3);
    assert.equal(error, null);
    assert.ok(data.length > 0);
    assert.ok(data.every((row) => row.user_id === grace().id));
  });

  test('a token that expires mid-session is refreshed through the getter and the next call uses it', async () => {
    // PostgREST accepts a token up to 30 s past its exp (clock skew): this
    // one is 24 s past it, so it works now and is refused 8 s later.
    const expiresAt = nowSeconds() - 24;
    let token = signJwt({ role: 'authenticated', aud: 'authenticated', sub: ada().id, exp: expiresAt }, stack().jwtSecret);
    let calls = 0;
    // What an app's getter does: hand out the session's current token.
    const accessToken = async () => {
      calls += 1;
      return token;
    };
    const supabase = createClient(stack().supabaseUrl, stack().anonKey, { accessToken });
    const fetch = recordingFetch();
    const act = core.createAct({ supabase, fetch });
    calls = 0; // createClient itself asks once, for its realtime client
    const first = unique('before expiry');
    const accepted = await act.execute('db_create', { table: 'inventory', data: { name: first, quantity: 1, unit: 'pc' } });
    assert.equal(accepted.error, null, `the first call must run within PostgREST's skew: ${JSON.stringify(accepted.error)}`);
    const expired = token;
    await sleep(Math.max(0, (expiresAt + 32) * 1000 - Date.now()));
    // Still handing out the expired token: PostgREST refuses it, and the
    // call says so instead of returning nothing.
    const refused = await act.execute('db_create', { table: 'inventory', data: { name: unique('refused'), quantity: 1, unit: 'pc' } });
    assert.equal(refused.error?.code, 'unauthorized', JSON.stringify(refused.error));
    assert.equal(refused.error.status, 401);
    assert.equal(fetch.requests.at(-1).headers.authorization, `Bearer ${expired}`);

    token = shortLivedToken(ada(), 3600); // refreshed
    const second = unique('after refresh');
    const saved = await act.execute('db_create', { table: 'inventory', data: { name: second, quantity: 3, unit: 'pc' } });
    assert.equal(saved.error, null, JSON.stringify(saved.error));
    assert.equal(fetch.requests.at(-1).headers.authorization, `Bearer ${token}`);
    assert.equal(calls, 3, 'the getter is called before every call');
    assert.deepEqual(await inventoryNamed(first), [{ name: first, user_id: ada().id, quantity: 1 }]);
    assert.deepEqual(await inventoryNamed(second), [{ name: second, user_id: ada().id, quantity: 3 }]);
  });

  test('a client signed in through auth storage: auth.getSession() is read before every call, a refreshed session is used', async () => {
    const { client, store, signOut } = clientWithStoredSession({ user: ada(), token: shortLivedToken(ada(), 3600) });
    const fetch = recordingFetch();
    const act = core.createAct({ supabase: client, fetch });
    const first = unique('stored session');
    assert.equal((await act.execute('db_create', { table: 'inventory', data: { name: first, quantity: 4, unit: 'pc' } })).error, null);
    assert.deepEqual(await inventoryNamed(first), [{ name: first, user_id: ada().id, quantity: 4 }]);

    // The session is refreshed (another tab, or the client's own refresh):
    // the next call sends the new token.
    const refreshed = shortLivedToken(ada(), 7200);
    store(ada(), refreshed, 7200);
    const second = unique('refreshed session');
    assert.equal((await act.execute('db_create', { table: 'inventory', data: { name: second, quantity: 5, unit: 'pc' } })).error, null);
    assert.equal(fetch.requests.at(-1).headers.authorization, `Bearer ${refreshed}`);
    assert.deepEqual(await inventoryNamed(second), [{ name: second, user_id: ada().id, quantity: 5 }]);

    // Another user signs in on the same client: the act's refs are Ada's, so
    // its calls are refused before any request (docs/sessions.md, "One user's
    // refs"); an act of her own writes as her.
    store(grace(), grace().token, 3600);
    const third = unique('grace session');
    let before = fetch.requests.length;
    const mixed = await act.execute('db_create', { table: 'inventory', data: { name: third, quantity: 6, unit: 'pc' } });
    assert.deepEqual([mixed.error?.code, fetch.requests.length], ['state_of_another_user', before]);
    const gracesAct = core.createAct({ supabase: client, fetch });
    assert.deepEqual(await gracesAct.checkSession(), { data: { userId: grace().id }, error: null });
    assert.equal((await gracesAct.execute('db_create', { table: 'inventory', data: { name: third, quantity: 6, unit: 'pc' } })).error, null);
    assert.deepEqual(await inventoryNamed(third, grace()), [{ name: third, user_id: grace().id, quantity: 6 }]);
    assert.deepEqual(await inventoryNamed(third, ada()), []);

    // Signed out: an error before any request, never an empty result; her
    // act says its refs are a signed-in user's.
    signOut();
    before = fetch.requests.length;
    const { data, error } = await core.createAct({ supabase: client, fetch }).execute('db_read', { table: 'inventory' });
    assert.equal(data, null);
    assert.equal(error.code, 'not_signed_in');
    assert.equal(error.path, 'accessToken');
    assert.equal((await gracesAct.execute('db_read', { table: 'inventory' })).error.code, 'state_of_another_user');
    assert.equal((await gracesAct.checkSession()).error.code, 'state_of_another_user');
    assert.equal(fetch.requests.length, before);
  });

  test('a supabase-js auth error while reading the session is session_error, with no request sent', async () => {
    // An expired stored session makes supabase-js refresh it through
    // /auth/v1, which refuses a refresh token it never issued: getSession()
    // answers with an error.
    const { client } = clientWithStoredSession({ user: ada(), token: shortLivedToken(ada(), -60), expiresIn: -60 });
    const fetch = recordingFetch();
    const act = core.createAct({ supabase: client, fetch });
    const { data, error } = await act.execute('db_read', { table: 'inventory' });
    assert.equal(data, null);
    assert.equal(error.code, 'session_error', JSON.stringify(error));
    assert.equal(error.path, 'accessToken');
    assert.match(error.message, /^getting the access token failed: /);
    assert.equal(fetch.requests.length, 0);
  });

  test('supabase with url, restUrl, apiKey or accessToken is a conflict, never a silent choice', () => {
    const supabase = createClient(stack().supabaseUrl, stack().anonKey, { accessToken: async () => ada().token });
    for (const [name, value] of [['url', stack().supabaseUrl], ['restUrl', stack().url], ['apiKey', stack().anonKey], ['accessToken', ada().token]]) {
      assert.throws(() => core.createAct({ supabase, [name]: value }), { code: 'invalid_option', path: name, message: `give either supabase or ${name}, not both` });
    }
  });

  test('a fetch that adds its own Authorization (supabase-js\'s) leaves the session token alone; without a token it cannot stand in for one', async () => {
    const sent = recordingFetch();
    // supabase-js's auth-aware fetch wraps the client's global fetch: it
    // adds apikey and Authorization only when a request has none.
    const supabase = createClient(stack().supabaseUrl, stack().anonKey, { accessToken: async () => grace().token, global: { fetch: sent } });
    const authAwareFetch = supabase.fetch; // TypeScript-protected in supabase-js; the fetch its own clients use
    assert.equal(typeof authAwareFetch, 'function');

    const withToken = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, fetch: authAwareFetch });
    const read = await withToken.execute('db_read', { table: 'recipes', limit: 1 });
    assert.equal(read.error, null);
    assert.ok(sent.requests.length >= 1);
    for (const request of sent.requests) assert.equal(request.headers.authorization, `Bearer ${ada().token}`, 'the act\'s token, not the fetch\'s');
    const sentBefore = sent.requests.length;

    const withoutToken = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, fetch: authAwareFetch });
    const refused = await withoutToken.execute('db_read', { table: 'recipes' });
    assert.equal(refused.error.code, 'not_signed_in');
    assert.equal(sent.requests.length, sentBefore, 'nothing sent');
  });
});

describe('accessToken as a function: called per call, never dropped', () => {
  test('regression: a function passed as accessToken was dropped and the call ran as anon, returning data: [] with no error', async () => {
    const fetch = recordingFetch();
    let calls = 0;
    const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: () => (calls++, ada().token), fetch });
    const { data, error } = await act.execute('db_read', { table: 'recipes', columns: ['name'] });
    assert.equal(error, null);
    assert.ok(data.length > 0, 'Ada\'s recipes, not the anon result');
    assert.equal(calls, 1);
    assert.equal(fetch.requests[0].headers.authorization, `Bearer ${ada().token}`);
    assert.ok(fetch.requests[0].url.includes(`user_id=eq.${ada().id}`));
  });

  test('a getter returning a promise, through the package-level createAct', async () => {
    const act = packageCreateAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: async () => grace().token });
    // Asked before the core is loaded, the session waits for it.
    assert.deepEqual(await act.checkSession(), { data: { userId: grace().id }, error: null });
    const { data, error } = await act.execute('db_read', { table: 'recipes', columns: ['name'], limit: 2 });
    assert.equal(error, null);
    assert.equal(data.length, 2);
    (await act.ready).registry.delete();
  });

  test('a getter that throws is session_error; one that returns a number is invalid_option; no request either way', async () => {
    const fetch = recordingFetch();
    const throwing = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: () => { throw new Error('refresh token revoked'); }, fetch });
    assert.deepEqual((await throwing.execute('db_read', { table: 'recipes' })).error, {
      code: 'session_error',
      path: 'accessToken',
      message: 'getting the access token failed: refresh token revoked',
      hint: 'sign in again, or check the accessToken function',
    });
    const numeric = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: async () => 42, fetch });
    const { error } = await numeric.execute('db_read', { table: 'recipes' });
    assert.equal(error.code, 'invalid_option');
    assert.equal(error.message, 'accessToken() must return a string, got a number');
    assert.equal(fetch.requests.length, 0);
  });

  test('userId defaults to the token sub; a userId that is not the token\'s user is invalid_option before any request', async () => {
    const fetch = recordingFetch();
    const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: () => ada().token, userId: grace().id, fetch });
    const { error } = await act.execute('db_read', { table: 'recipes' });
    assert.equal(error.code, 'invalid_option');
    assert.equal(error.path, 'userId');
    assert.equal(error.message, 'userId is not the user the access token belongs to (its sub)');
    assert.equal(fetch.requests.length, 0);
  });
});

describe('not_signed_in: a user-owned table without a user\'s token is an error before any request', () => {
  const cases = () => [
    ['no accessToken', {}],
    ['accessToken null', { accessToken: null }],
    ['the anon key as accessToken', { accessToken: stack().anonKey }],
    ['a token without sub', { accessToken: signJwt({ role: 'authenticated', aud: 'authenticated' }, stack().jwtSecret) }],
    ['a getter returning null', { accessToken: async () => null }],
    ['a getter returning ""', { accessToken: () => '' }],
    ['userId without a token', { userId: ada().id }],
  ];
  for (const tool of ['db_read', 'db_create', 'db_update', 'db_delete']) {
    test(`${tool}: every way of having no signed-in user`, async () => {
      for (const [label, options] of cases()) {
        const fetch = recordingFetch();
        const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, fetch, ...options });
        const params = {
          db_read: { table: 'inventory' },
          db_create: { table: 'inventory', data: { name: 'x', quantity: 1, unit: 'pc' } },
          db_update: { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'eggs' }], data: { quantity: 1 } },
          db_delete: { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'eggs' }] },
        }[tool];
        const { data, error } = await act.execute(tool, params);
        assert.equal(data, null, label);
        assert.equal(error?.code, 'not_signed_in', `${label}: ${JSON.stringify(error)}`);
        assert.equal(error.path, 'accessToken', label);
        assert.equal(fetch.requests.length, 0, `${label}: no request`);
      }
    });
  }

  test('the catalog signed-in users share is refused too: its policy is for them, so a read without a session would be empty', async () => {
    const fetch = recordingFetch();
    const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, fetch });
    const { data, error } = await act.execute('db_read', { table: 'ingredients', columns: ['name'], limit: 3 });
    assert.equal(data, null);
    assert.deepEqual([error?.code, error?.message], ['not_signed_in', "ingredients is for signed-in users only, and no signed-in user's access token was given"]);
    assert.equal(fetch.requests.length, 0);
    // What anon would have read: nothing (the kitchen schema grants the catalog to signed-in users only).
    assert.deepEqual((await rest(stack(), null, 'GET', '/ingredients?select=name&limit=3')).body, []);
  });

  test('a table neither user-owned nor signed_in is not refused: the request goes out and row-level security answers', async () => {
    const fetch = recordingFetch();
    const { kitchen } = await import('../../web/src/index.node.js');
    const domain = { ...kitchen, tables: { ...kitchen.tables, ingredients: { ...kitchen.tables.ingredients, signed_in: false } } };
    const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, fetch, domain });
    const { data, error } = await act.execute('db_read', { table: 'ingredients', columns: ['name'], limit: 3 });
    assert.equal(error, null);
    assert.equal(fetch.requests.length, 1);
    assert.equal(fetch.requests[0].headers.authorization, `Bearer ${stack().anonKey}`, 'the legacy anon key is the bearer, as in supabase-js');
    assert.deepEqual(data, []);
  });

  test('the messages say what is missing', async () => {
    const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().anonKey });
    const { error } = await act.execute('db_read', { table: 'inventory' });
    assert.deepEqual(error, {
      code: 'not_signed_in',
      path: 'accessToken',
      message: 'inventory belongs to users, and the access token is the anon key, not a user\'s token',
      hint: 'pass the signed-in user\'s session: createAct({ supabase }) or accessToken (a string or a function returning one)',
    });
  });
});

describe('invalid_option: no option is ever dropped', () => {
  const base = () => ({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token });
  const bad = () => [
    ['acessToken', ada().token, 'unknown option acessToken'],
    ['baseUrl', stack().url, 'unknown option baseUrl'],
    ['url', 42, 'url must be a string, got a number'],
    ['restUrl', {}, 'restUrl must be a string, got an object'],
    ['apiKey', () => 'key', 'apiKey must be a string, got a function'],
    ['accessToken', 42, 'accessToken must be a string or a function returning one, got a number'],
    ['accessToken', { access_token: 'x' }, 'accessToken must be a string or a function returning one, got an object'],
    ['userId', 7, 'userId must be a string, got a number'],
    ['supabase', 'https://abcd.supabase.co', 'supabase must be a supabase-js client (createClient(url, key)), got a string'],
    ['supabase', {}, 'supabase must be a supabase-js client: supabaseUrl and supabaseKey are missing'],
    ['domain', 'kitchen', 'domain must be a domain configuration object'],
    ['fetch', 'fetch', 'fetch must be a function'],
    ['embedder', {}, 'embedder must have embed(texts)'],
    ['state', 5, 'state must be registry.toJSON() or its JSON text, got a number'],
    ['timeoutMs', '5000', 'timeoutMs must be a number of milliseconds above 0, got 5000'],
    ['timeoutMs', -1, 'timeoutMs must be a number of milliseconds above 0, got -1'],
  ];

  test('core.createAct throws AlfredError with the option as path', () => {
    for (const [name, value, message] of bad()) {
      const options = { ...base(), [name]: value };
      if (name === 'supabase') for (const key of ['url', 'apiKey', 'accessToken']) delete options[key];
      assert.throws(() => core.createAct(options), { name: 'AlfredError', code: 'invalid_option', path: name, message }, `${name}: ${String(value)}`);
    }
  });

  test('the package-level createAct reports it from execute, with no request sent', async () => {
    for (const [name, value, message] of bad().slice(0, 4)) {
      const fetch = recordingFetch();
      const act = packageCreateAct({ ...base(), fetch, [name]: value });
      const { data, error } = await act.execute('db_read', { table: 'recipes' });
      assert.equal(data, null);
      assert.deepEqual([error.code, error.path, error.message], ['invalid_option', name, message]);
      assert.equal(fetch.requests.length, 0);
    }
  });

  test('state and registry together, and options that are not an object', () => {
    const registry = core.createRegistry();
    assert.throws(() => core.createAct({ ...base(), registry, state: registry.toJSON() }), { code: 'invalid_option', path: 'state', message: 'give either state or registry, not both' });
    assert.throws(() => core.createAct('https://abcd.supabase.co'), { code: 'invalid_option', path: '', message: 'options must be an object, got a string' });
    registry.delete();
  });

  test('buildRequest: a token getter cannot be awaited there, so it is invalid_option, not anon', () => {
    const { data, error } = core.buildRequest('db_read', { table: 'recipes' }, { url: 'https://abcd.supabase.co', accessToken: () => ada().token, userId: ada().id });
    assert.equal(data, null);
    assert.deepEqual(error, {
      code: 'invalid_option',
      path: 'accessToken',
      message: 'accessToken must be a string, got a function',
      hint: 'await your token getter first and pass the token, or use createAct, which calls it per request',
    });
    const unknown = core.buildRequest('db_read', { table: 'recipes' }, { url: 'https://abcd.supabase.co', acessToken: 'x', userId: ada().id });
    assert.deepEqual([unknown.error.code, unknown.error.path, unknown.error.message], ['invalid_option', 'acessToken', 'unknown option acessToken']);
  });
});

describe('URLs like supabase-js: url gets /rest/v1, restUrl is the bare root', () => {
  const urlOf = (options) => {
    const { data, error } = core.buildRequest('db_read', { table: 'ingredients', limit: 1 }, { apiKey: 'sb_publishable_x', ...options });
    assert.equal(error, null, JSON.stringify(error));
    return data.url.slice(0, data.url.indexOf('?'));
  };

  test('buildRequest: project URLs, supabase start\'s 127.0.0.1:54321, custom domains, paths and trailing slashes', () => {
    assert.equal(urlOf({ url: 'https://abcd.supabase.co' }), 'https://abcd.supabase.co/rest/v1/ingredients');
    assert.equal(urlOf({ url: 'https://abcd.supabase.co//' }), 'https://abcd.supabase.co/rest/v1/ingredients');
    assert.equal(urlOf({ url: 'http://127.0.0.1:54321' }), 'http://127.0.0.1:54321/rest/v1/ingredients');
    assert.equal(urlOf({ url: 'https://api.example.com/' }), 'https://api.example.com/rest/v1/ingredients');
    assert.equal(urlOf({ url: 'https://example.com/supabase' }), 'https://example.com/supabase/rest/v1/ingredients');
    assert.equal(urlOf({ restUrl: 'http://127.0.0.1:3000/' }), 'http://127.0.0.1:3000/ingredients');
    assert.equal(urlOf({ baseUrl: 'https://abcd.supabase.co/rest/v1' }), 'https://abcd.supabase.co/rest/v1/ingredients');
  });

  test('buildRequest: the URLs that would silently be wrong are invalid_option', () => {
    const errorOf = (options) => core.buildRequest('db_read', { table: 'ingredients' }, options).error;
    assert.deepEqual(errorOf({ baseUrl: 'https://abcd.supabase.co' }), {
      code: 'invalid_option',
      path: 'baseUrl',
      message: 'baseUrl is the PostgREST root, but https://abcd.supabase.co is a Supabase project URL (PostgREST is under /rest/v1)',
      hint: "pass it as url (it gets /rest/v1), or baseUrl: 'https://abcd.supabase.co/rest/v1'",
    });
    assert.equal(errorOf({ url: 'https://abcd.supabase.co/rest/v1' }).message, 'url is the Supabase URL and gets /rest/v1 added; this one already ends in /rest/v1');
    assert.equal(errorOf({ url: 'https://abcd.supabase.co', restUrl: 'http://127.0.0.1:3000' }).message, 'give either url or restUrl, not both');
    assert.equal(errorOf({ url: 'abcd.supabase.co' }).message, 'url must be an http:// or https:// URL');
  });

  test('createAct: url and restUrl reach the same PostgREST; both together are an error', async () => {
    for (const [options, prefix] of [
      [{ url: stack().supabaseUrl }, `${stack().supabaseUrl}/rest/v1/recipes?`],
      [{ url: `${stack().supabaseUrl}/` }, `${stack().supabaseUrl}/rest/v1/recipes?`],
      [{ restUrl: stack().restUrl }, `${stack().restUrl}/recipes?`],
    ]) {
      const fetch = recordingFetch();
      const act = core.createAct({ ...options, apiKey: stack().anonKey, accessToken: ada().token, fetch });
      const { data, error } = await act.execute('db_read', { table: 'recipes', columns: ['name'], limit: 1 });
      assert.equal(error, null, JSON.stringify(error));
      assert.equal(data.length, 1);
      assert.ok(fetch.requests[0].url.startsWith(prefix), fetch.requests[0].url);
    }
    assert.throws(() => core.createAct({ url: stack().supabaseUrl, restUrl: stack().restUrl, accessToken: ada().token }), {
      code: 'invalid_option',
      path: 'restUrl',
      message: 'give either url or restUrl, not both',
    });
    assert.throws(() => core.createAct({ accessToken: ada().token }), { code: 'invalid_option', path: 'url', message: 'url is required' });
    assert.throws(() => core.createAct({ url: `${stack().supabaseUrl}/rest/v1` }), { code: 'invalid_option', path: 'url' });
  });

  test('the bare root given as url now reaches the gateway, which answers 404, an error and never rows', async () => {
    const act = core.createAct({ url: stack().restUrl, apiKey: stack().anonKey, accessToken: ada().token });
    const { data, error } = await act.execute('db_read', { table: 'recipes' });
    assert.equal(data, null);
    assert.equal(error.status, 404);
  });

  test('restUrl(url) is the PostgREST root createClient uses', () => {
    assert.equal(restUrl('https://abcd.supabase.co/'), 'https://abcd.supabase.co/rest/v1');
    assert.equal(restUrl('http://127.0.0.1:54321'), 'http://127.0.0.1:54321/rest/v1');
    assert.throws(() => restUrl('https://abcd.supabase.co/rest/v1'), { code: 'invalid_option' });
    assert.throws(() => restUrl('ftp://x'), { code: 'invalid_option' });
  });

  test('the local stack: /rest/v1 at its Supabase URL, 404 elsewhere like a project gateway', async () => {
    const headers = { apikey: stack().anonKey, authorization: `Bearer ${ada().token}` };
    const viaGateway = await fetch(`${stack().supabaseUrl}/rest/v1/recipes?select=user_id&limit=2`, { headers });
    assert.equal(viaGateway.status, 200);
    assert.deepEqual(await viaGateway.json(), [{ user_id: ada().id }, { user_id: ada().id }]);
    const outside = await fetch(`${stack().supabaseUrl}/recipes?select=user_id`, { headers });
    assert.equal(outside.status, 404);
    assert.deepEqual(await outside.json(), { message: 'no Route matched with those values' });
    const name = unique('through the gateway');
    const posted = await fetch(`${stack().supabaseUrl}/rest/v1/inventory?select=name,user_id`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', prefer: 'return=representation' },
      body: JSON.stringify({ name, quantity: 1, unit: 'pc' }),
    });
    assert.equal(posted.status, 201);
    assert.deepEqual(await posted.json(), [{ name, user_id: ada().id }]);
    assert.deepEqual(await inventoryNamed(name), [{ name, user_id: ada().id, quantity: 1 }]);
  });
});
