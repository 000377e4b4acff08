// The local stack on a developer's own Supabase app: published example apps'
// migrations and seeds (tests/apps/*/supabase, see each SOURCE.md) load into
// startStack({ migrations, seed, users }), and the real supabase-js signs in
// through the stack's /auth/v1 with a password, reads through RLS, refreshes,
// gets the user and signs out, as an app does against Supabase. Rows are read
// back with the service key; the CLI is spawned and read like a developer's
// terminal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createClient as createSupabaseClient } from '@supabase/supabase-js';
import { signJwt } from '../../db/jwt.mjs';
import { startStack } from '../../db/local-stack.mjs';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { rest } from './support/stack.mjs';

const APPS = join(ROOT, 'tests/apps');
const app = (name) => ({ migrations: join(APPS, name, 'supabase/migrations'), seed: join(APPS, name, 'supabase/seed.sql') });
const BOUNDED = { timeout: 120_000 };

// supabase-js's realtime client wants a WebSocket class at construction; Node
// 20 has none without a flag. These tests open no channel, so none is made.
class NoRealtimeSocket {
  constructor() {
    throw new Error('realtime is not used by these tests');
  }
}
const realtime = { transport: globalThis.WebSocket ?? NoRealtimeSocket };

/** A real supabase-js client on the stack, with its default auth settings; stopped with the test. */
function client(stack, t) {
  const supabase = createSupabaseClient(stack.supabaseUrl, stack.anonKey, { realtime });
  t.after(() => supabase.auth.stopAutoRefresh());
  return supabase;
}

/** The stack's PostgREST as the service role: the database as it is, past RLS. */
const asService = (stack, path) => rest(stack, stack.serviceKey, 'GET', path).then(({ status, body }) => (assert.equal(status, 200, path), body));

const claimsOf = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

/** POST to the stack's /auth/v1 as supabase-js does (API version 2024-01-01), or without the version header. */
async function auth(stack, path, body, { versioned = true, token } = {}) {
  const response = await fetch(`${stack.authUrl}${path}`, {
    method: 'POST',
    headers: {
      apikey: stack.anonKey,
      'content-type': 'application/json',
      ...(versioned ? { 'x-supabase-api-version': '2024-01-01' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/**
 * The whole sign-in cycle a supabase-js app goes through, checked against
 * the stack: a wrong password is refused as GoTrue refuses it; the right one
 * signs in; `read(supabase)` sees what RLS lets this user see; getUser; a
 * refreshed session reads the same; signOut; the refresh token is refused.
 * Returns what `read` returned.
 */
async function signInCycle(t, stack, { email, password, read }) {
  const supabase = client(stack, t);
  const wrong = await supabase.auth.signInWithPassword({ email, password: `${password}-wrong` });
  assert.equal(wrong.data.session, null);
  assert.deepEqual([wrong.error.name, wrong.error.status, wrong.error.code, wrong.error.message], ['AuthApiError', 400, 'invalid_credentials', 'Invalid login credentials']);

  const { data: signedIn, error } = await supabase.auth.signInWithPassword({ email, password });
  assert.equal(error, null);
  const { session, user } = signedIn;
  assert.equal(user.email, email);
  assert.equal(session.token_type, 'bearer');
  assert.equal(session.expires_in, 3600);
  const claims = claimsOf(session.access_token);
  assert.deepEqual([claims.sub, claims.role, claims.aud, claims.email, claims.iss], [user.id, 'authenticated', 'authenticated', email, stack.authUrl]);
  assert.match(claims.session_id, /^[0-9a-f-]{36}$/);
  assert.equal(claims.exp - claims.iat, 3600);

  const seen = await read(supabase, user);

  const { data: got, error: getError } = await supabase.auth.getUser();
  assert.equal(getError, null);
  assert.deepEqual([got.user.id, got.user.email, got.user.aud, got.user.role], [user.id, email, 'authenticated', 'authenticated']);

  const { data: refreshed, error: refreshError } = await supabase.auth.refreshSession();
  assert.equal(refreshError, null);
  assert.notEqual(refreshed.session.refresh_token, session.refresh_token, 'a new refresh token');
  assert.notEqual(refreshed.session.access_token, session.access_token);
  assert.equal(claimsOf(refreshed.session.access_token).session_id, claims.session_id, 'the same session');
  assert.deepEqual(await read(supabase, user), seen, 'the refreshed session reads the same rows');

  const { error: signOutError } = await supabase.auth.signOut();
  assert.equal(signOutError, null);
  assert.equal((await supabase.auth.getSession()).data.session, null);
  const reuse = await auth(stack, '/token?grant_type=refresh_token', { refresh_token: refreshed.session.refresh_token });
  assert.equal(reuse.status, 400);
  assert.deepEqual([reuse.body.code, reuse.body.message], ['refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found']);
  const stale = await fetch(`${stack.authUrl}/user`, { headers: { apikey: stack.anonKey, authorization: `Bearer ${refreshed.session.access_token}` } });
  assert.equal(stale.status, 403, 'the signed-out session is gone for /user');
  return seen;
}

describe('todo list (Supabase example): own rows only, a bigint identity key, user_id without a default', () => {
  let stack;
  before(async () => {
    stack = await startStack(app('todo-list'));
  }, BOUNDED);
  after(() => stack?.stop());

  test('the users\' start-up tokens are sessions too: /user answers and their refresh tokens work', BOUNDED, async () => {
    const [, ben] = stack.users;
    const response = await fetch(`${stack.authUrl}/user`, { headers: { apikey: stack.anonKey, authorization: `Bearer ${ben.token}` } });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json().then((user) => [user.id, user.email]), [ben.id, 'ben@example.com']);
    const refreshed = await auth(stack, '/token?grant_type=refresh_token', { refresh_token: ben.refreshToken });
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.user.id, ben.id);
    const todos = await rest(stack, ben.token, 'GET', '/todos?select=task&order=id');
    assert.deepEqual(todos.body.map((row) => row.task).slice(0, 1), ['Renew passport']);
  });

  test('the seed\'s users sign in with their passwords and read only their own todos', BOUNDED, async (t) => {
    assert.deepEqual(stack.users.map((u) => u.email), ['ada@example.com', 'ben@example.com']);
    assert.equal(stack.schema, null);
    const readTodos = async (supabase) => {
      const { data, error } = await supabase.from('todos').select('task, is_complete, user_id').order('id');
      assert.equal(error, null);
      return data;
    };
    const [ada, ben] = stack.users;
    const adas = await signInCycle(t, stack, { email: 'ada@example.com', password: 'ada-password', read: readTodos });
    assert.deepEqual(adas, [
      { task: 'Buy oat milk', is_complete: false, user_id: ada.id },
      { task: 'Water the plants', is_complete: true, user_id: ada.id },
      { task: 'Call the plumber', is_complete: false, user_id: ada.id },
    ]);
    const bens = await signInCycle(t, stack, { email: 'ben@example.com', password: 'ben-password', read: readTodos });
    assert.deepEqual(bens, [{ task: 'Renew passport', is_complete: false, user_id: ben.id }]);
    // signOut() is global by default: Ben's start-up session ended with it.
    const startUp = await fetch(`${stack.authUrl}/user`, { headers: { authorization: `Bearer ${ben.token}`, 'x-supabase-api-version': '2024-01-01' } });
    assert.deepEqual([startUp.status, (await startUp.json()).code], [403, 'session_not_found']);
  });

  test('a signed-in insert gets a bigint id; one naming another user is refused by RLS', BOUNDED, async (t) => {
    const supabase = client(stack, t);
    const { data: { user } } = await supabase.auth.signInWithPassword({ email: 'ben@example.com', password: 'ben-password' });
    const { data, error } = await supabase.from('todos').insert({ task: 'Book dentist', user_id: user.id }).select('id, task, user_id');
    assert.equal(error, null);
    assert.equal(typeof data[0].id, 'number');
    assert.deepEqual(await asService(stack, `/todos?select=task,user_id&id=eq.${data[0].id}`), [{ task: 'Book dentist', user_id: user.id }]);
    const spoofed = await supabase.from('todos').insert({ task: 'Not mine', user_id: stack.users[0].id });
    assert.equal(spoofed.error.code, '42501');
    assert.deepEqual(await asService(stack, '/todos?select=id&task=eq.Not%20mine'), []);
    await supabase.auth.signOut();
  });

  test('a refresh token is used once: presenting it again is refused and ends the session', BOUNDED, async () => {
    const first = await auth(stack, '/token?grant_type=password', { email: 'ada@example.com', password: 'ada-password' });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body), ['access_token', 'token_type', 'expires_in', 'expires_at', 'refresh_token', 'user']);
    assert.equal(first.headers.get('x-supabase-api-version'), '2024-01-01');
    const second = await auth(stack, '/token?grant_type=refresh_token', { refresh_token: first.body.refresh_token });
    assert.equal(second.status, 200);
    const again = await auth(stack, '/token?grant_type=refresh_token', { refresh_token: first.body.refresh_token });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, {
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
      error: 'invalid_grant',
      error_description: 'Invalid Refresh Token: Already Used',
    });
    const child = await auth(stack, '/token?grant_type=refresh_token', { refresh_token: second.body.refresh_token });
    assert.equal(child.body.code, 'refresh_token_not_found', 'the reuse revoked the whole session');
  });

  test('refusals in GoTrue\'s shapes: without the API version header, for a bad token, for an unknown route', BOUNDED, async () => {
    const legacy = await auth(stack, '/token?grant_type=password', { email: 'ada@example.com', password: 'nope' }, { versioned: false });
    assert.equal(legacy.status, 400);
    assert.deepEqual(legacy.body, { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials', error: 'invalid_grant', error_description: 'Invalid login credentials' });
    assert.equal(legacy.headers.get('x-supabase-api-version'), null);
    const unknown = await auth(stack, '/token?grant_type=password', { email: 'nobody@example.com', password: 'whatever' });
    assert.equal(unknown.body.code, 'invalid_credentials', 'an unknown email looks like a wrong password');

    const [ada] = stack.users;
    const expired = signJwt({ ...claimsOf(ada.token), exp: Math.floor(Date.now() / 1000) - 5 }, stack.jwtSecret);
    const forged = signJwt(claimsOf(ada.token), 'not-the-secret-not-the-secret-not-the-secret');
    for (const token of [expired, forged]) {
      const response = await fetch(`${stack.authUrl}/user`, { headers: { authorization: `Bearer ${token}`, 'x-supabase-api-version': '2024-01-01' } });
      assert.equal(response.status, 403);
      const body = await response.json();
      assert.equal(body.code, 'bad_jwt');
      assert.match(body.message, /^invalid JWT: unable to parse or verify signature, /);
    }
    const none = await fetch(`${stack.authUrl}/user`);
    assert.deepEqual([none.status, (await none.json()).error_code], [401, 'no_authorization']);
    const otp = await auth(stack, '/otp', { email: 'ada@example.com' });
    assert.equal(otp.status, 404);
    assert.equal(otp.body.code, 'not_found');
  });

});

describe('user management (Supabase example): profiles from the handle_new_user trigger, shared with everyone, storage', () => {
  let stack;
  before(async () => {
    stack = await startStack(app('user-management'));
  }, BOUNDED);
  after(() => stack?.stop());

  test('every user and anon read every profile; the trigger filled full_name from the metadata', BOUNDED, async (t) => {
    const readProfiles = async (supabase) => {
      const { data, error } = await supabase.from('profiles').select('username, full_name, avatar_url').order('username');
      assert.equal(error, null);
      return data;
    };
    const everyone = [
      { username: 'ada', full_name: 'Ada Lovelace', avatar_url: 'ada.png' },
      { username: 'ben', full_name: 'Ben Okafor', avatar_url: null },
    ];
    assert.deepEqual(await signInCycle(t, stack, { email: 'ben@example.com', password: 'ben-password', read: readProfiles }), everyone);
    assert.deepEqual(await readProfiles(client(stack, t)), everyone, 'anon too: using (true)');
  });

  test('signUp creates the user and, through the app\'s trigger, its profile; updates stay with the owner', BOUNDED, async (t) => {
    const supabase = client(stack, t);
    const { data, error } = await supabase.auth.signUp({ email: 'cy@example.com', password: 'cy-password', options: { data: { full_name: 'Cy Twombly' } } });
    assert.equal(error, null);
    assert.equal(data.user.email, 'cy@example.com');
    assert.deepEqual(data.user.user_metadata, { full_name: 'Cy Twombly' });
    assert.ok(data.session.access_token, 'signed in at once, as with email confirmations off');
    assert.deepEqual(await asService(stack, `/profiles?select=id,full_name&id=eq.${data.user.id}`), [{ id: data.user.id, full_name: 'Cy Twombly' }]);

    const own = await supabase.from('profiles').update({ username: 'cyt' }).eq('id', data.user.id).select('username');
    assert.deepEqual([own.error, own.data], [null, [{ username: 'cyt' }]]);
    const short = await supabase.from('profiles').update({ username: 'cy' }).eq('id', data.user.id);
    assert.equal(short.error.code, '23514', 'the app\'s own check constraint (username_length)');
    const [ada] = stack.users;
    const other = await supabase.from('profiles').update({ website: 'https://taken.example' }).eq('id', ada.id).select();
    assert.deepEqual([other.error, other.data], [null, []]);
    assert.deepEqual(await asService(stack, `/profiles?select=website&id=eq.${ada.id}`), [{ website: 'https://ada.example' }]);

    const twice = await supabase.auth.signUp({ email: 'cy@example.com', password: 'another-password' });
    assert.deepEqual([twice.error.status, twice.error.code, twice.error.message], [422, 'user_already_exists', 'User already registered']);
    const weak = await supabase.auth.signUp({ email: 'dee@example.com', password: '123' });
    assert.deepEqual([weak.error.name, weak.error.status, weak.error.code], ['AuthWeakPasswordError', 422, 'weak_password']);
    await supabase.auth.signOut();
  });
});

describe('slack clone (Supabase example): channels and messages shared by every user, created_by and user_id, RBAC through the access token hook', () => {
  let stack;
  before(async () => {
    stack = await startStack({
      ...app('slack-clone'),
      users: [
        { email: 'ada@example.com', password: 'ada-password' },
        { email: 'ben+supamod@example.com', password: 'ben-password' },
      ],
      accessTokenHook: 'pg-functions://postgres/public/custom_access_token_hook',
    });
  }, BOUNDED);
  after(() => stack?.stop());

  test('users come from the seed and from users, each with a profile and the role its address gives', BOUNDED, async () => {
    const emails = stack.users.map((u) => u.email);
    assert.deepEqual(emails, ['ada@example.com', 'ben+supamod@example.com', 'supabot+supaadmin@example.com'], 'the given users first');
    const profiles = await asService(stack, '/users?select=id,username&order=username');
    assert.deepEqual(profiles.map((p) => p.username), ['ada@example.com', 'ben+supamod@example.com', 'supabot+supaadmin@example.com']);
    const roles = await asService(stack, '/user_roles?select=user_id,role&order=role');
    const byId = Object.fromEntries(stack.users.map((u) => [u.id, u.email]));
    assert.deepEqual(roles.map((r) => [byId[r.user_id], r.role]), [['supabot+supaadmin@example.com', 'admin'], ['ben+supamod@example.com', 'moderator']]);
    assert.deepEqual(stack.users.map((u) => claimsOf(u.token).user_role), [null, 'moderator', 'admin'], 'the hook ran for the start-up tokens');
  });

  test('every signed-in user reads the seed\'s channels and messages; anon reads none', BOUNDED, async (t) => {
    const supabot = stack.users[2];
    const readChannels = async (supabase) => {
      const { data, error } = await supabase.from('channels').select('id, slug, created_by, messages(message, user_id)').order('id');
      assert.equal(error, null);
      return data;
    };
    const channels = [
      { id: 1, slug: 'public', created_by: supabot.id, messages: [{ message: 'Hello World 👋', user_id: supabot.id }] },
      {
        id: 2,
        slug: 'random',
        created_by: supabot.id,
        messages: [{ message: 'Perfection is attained, not when there is nothing more to add, but when there is nothing left to take away.', user_id: supabot.id }],
      },
    ];
    assert.deepEqual(await signInCycle(t, stack, { email: 'ada@example.com', password: 'ada-password', read: readChannels }), channels);
    const anon = await client(stack, t).from('channels').select('slug');
    assert.deepEqual(anon.data, []);
  });

  test('a message is written as its user; another user cannot delete it, a moderator (user_role from the hook) can', BOUNDED, async (t) => {
    const ada = client(stack, t);
    const { data: signedIn } = await ada.auth.signInWithPassword({ email: 'ada@example.com', password: 'ada-password' });
    assert.equal(claimsOf(signedIn.session.access_token).user_role, null);
    const posted = await ada.from('messages').insert({ message: 'hi all', channel_id: 1, user_id: signedIn.user.id }).select('id');
    assert.equal(posted.error, null);
    const id = posted.data[0].id;
    const spoofed = await ada.from('messages').insert({ message: 'as supabot', channel_id: 1, user_id: stack.users[2].id });
    assert.equal(spoofed.error.code, '42501');
    const notHers = await ada.from('messages').delete().eq('id', 1).select('id');
    assert.deepEqual(notHers.data, [], 'Ada is neither the author nor a moderator');

    const ben = client(stack, t);
    const { data: mod } = await ben.auth.signInWithPassword({ email: 'ben+supamod@example.com', password: 'ben-password' });
    assert.equal(claimsOf(mod.session.access_token).user_role, 'moderator');
    const removed = await ben.from('messages').delete().eq('id', id).select('message');
    assert.deepEqual([removed.error, removed.data], [null, [{ message: 'hi all' }]]);
    const channel = await ben.from('channels').delete().eq('id', 2).select('id');
    assert.deepEqual(channel.data, [], 'deleting channels is for admins');
    assert.deepEqual(await asService(stack, `/messages?select=id&id=eq.${id}`), []);
    assert.deepEqual((await asService(stack, '/channels?select=slug&order=id')).map((c) => c.slug), ['public', 'random']);
    await Promise.all([ada.auth.signOut(), ben.auth.signOut()]);
  });
});

describe('subscription payments (Vercel starter): text keys, public products, a private subscription', () => {
  let stack;
  before(async () => {
    stack = await startStack(app('subscription-payments'));
  }, BOUNDED);
  after(() => stack?.stop());

  test('products and prices for everyone; each user reads only their own subscription, customer and user row', BOUNDED, async (t) => {
    const readAccount = async (supabase) => {
      const [subscriptions, customers, users, prices] = await Promise.all([
        supabase.from('subscriptions').select('id, status, price_id, prices(unit_amount, interval, products(name))'),
        supabase.from('customers').select('stripe_customer_id'),
        supabase.from('users').select('full_name'),
        supabase.from('prices').select('id, unit_amount').order('id'),
      ]);
      for (const answer of [subscriptions, customers, users, prices]) assert.equal(answer.error, null);
      return { subscriptions: subscriptions.data, customers: customers.data, users: users.data, prices: prices.data };
    };
    const prices = [{ id: 'price_hobby_month', unit_amount: 1000 }, { id: 'price_hobby_year', unit_amount: 10000 }];
    assert.deepEqual(await signInCycle(t, stack, { email: 'ada@example.com', password: 'ada-password', read: readAccount }), {
      subscriptions: [{ id: 'sub_ada', status: 'active', price_id: 'price_hobby_month', prices: { unit_amount: 1000, interval: 'month', products: { name: 'Hobby' } } }],
      customers: [{ stripe_customer_id: 'cus_ada' }],
      users: [{ full_name: 'Ada Lovelace' }],
      prices,
    });
    assert.deepEqual(await signInCycle(t, stack, { email: 'ben@example.com', password: 'ben-password', read: readAccount }), {
      subscriptions: [],
      customers: [],
      users: [{ full_name: 'Ben Okafor' }],
      prices,
    });
    const anon = await client(stack, t).from('products').select('id, name');
    assert.deepEqual(anon.data, [{ id: 'prod_hobby', name: 'Hobby' }]);
  });
});

describe('Studio-shaped tables: identity ids, owner columns defaulting to auth.uid(), public notes shared with their comments', () => {
  let stack;
  before(async () => {
    stack = await startStack(app('studio'));
  }, BOUNDED);
  after(() => stack?.stop());

  test('each user reads their own notes and others\' public ones, with the comments on them', BOUNDED, async (t) => {
    const [ada, ben] = stack.users;
    const readNotes = async (supabase) => {
      const { data, error } = await supabase.from('notes').select('title, is_public, user_id, comments(body, author_id)').order('id');
      assert.equal(error, null);
      return data;
    };
    const publicNote = { title: 'Analytical engine', is_public: true, user_id: ada.id, comments: [{ body: 'Fascinating!', author_id: ben.id }] };
    assert.deepEqual(await signInCycle(t, stack, { email: 'ada@example.com', password: 'ada-password', read: readNotes }), [
      { title: "Ada's diary", is_public: false, user_id: ada.id, comments: [] },
      publicNote,
    ]);
    assert.deepEqual(await signInCycle(t, stack, { email: 'ben@example.com', password: 'ben-password', read: readNotes }), [
      publicNote,
      { title: "Ben's list", is_public: false, user_id: ben.id, comments: [] },
    ]);
  });

  test('an insert without user_id or author_id gets the caller\'s; a comment on an unreadable note is refused', BOUNDED, async (t) => {
    const [ada, ben] = stack.users;
    const supabase = client(stack, t);
    await supabase.auth.signInWithPassword({ email: 'ben@example.com', password: 'ben-password' });
    const note = await supabase.from('notes').insert({ title: 'Shared plan', is_public: true }).select('id, user_id');
    assert.equal(note.error, null);
    assert.equal(note.data[0].user_id, ben.id);
    const comment = await supabase.from('comments').insert({ note_id: note.data[0].id, body: 'first' }).select('author_id');
    assert.deepEqual(comment.data, [{ author_id: ben.id }]);
    const [diary] = await asService(stack, '/notes?select=id&title=eq.Ada%27s%20diary');
    const sneaky = await supabase.from('comments').insert({ note_id: diary.id, body: 'peek' });
    assert.equal(sneaky.error.code, '42501');
    assert.deepEqual(await asService(stack, `/comments?select=id&note_id=eq.${diary.id}`), []);
    const adaToken = ada.token;
    const { body } = await rest(stack, adaToken, 'GET', `/comments?select=body,author_id&note_id=eq.${note.data[0].id}`);
    assert.deepEqual(body, [{ body: 'first', author_id: ben.id }], 'Ada reads comments on Ben\'s public note');
    await supabase.auth.signOut();
  });
});

describe('own migrations: what goes wrong is named', () => {
  // A fixed folder: snapshots are kept per migrations folder, so a new name
  // each run would leave a new snapshot behind each run.
  const dir = join(SCRATCH, 'stack-apps');
  before(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'ok/migrations'), { recursive: true });
    mkdirSync(join(dir, 'broken/migrations'), { recursive: true });
    writeFileSync(join(dir, 'ok/migrations/20240101000000_lists.sql'), 'create table lists (\n  id bigint generated by default as identity primary key,\n  owner_id uuid default auth.uid() references auth.users\n);\n');
    writeFileSync(join(dir, 'broken/migrations/20240101000000_lists.sql'), 'create table lists (id bigint primary key);\n');
    writeFileSync(
      join(dir, 'broken/migrations/20240102000000_policy.sql'),
      '-- owners only\nalter table lists enable row level security;\n\ncreate policy "own lists" on lists\n  for select using (auth.uid() = owner_id);\n',
    );
    writeFileSync(join(dir, 'bad-seed.sql'), "insert into lists (owner_id) values ('not-a-uuid');\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a failing migration names the file, the line, the statement and PostgreSQL\'s message', BOUNDED, async () => {
    const file = join(dir, 'broken/migrations/20240102000000_policy.sql');
    await assert.rejects(startStack({ migrations: join(dir, 'broken/migrations') }), (error) => {
      assert.equal(error.name, 'SqlFileError');
      assert.equal(error.message, [
        `migration ${file} failed at line 4: column "owner_id" does not exist (SQLSTATE 42703)`,
        '  in statement 2, from line 4:',
        '    create policy "own lists" on lists',
        '      for select using (auth.uid() = owner_id);',
      ].join('\n'));
      return true;
    });
  });

  test('a failing seed is named the same way; wrong options are refused before anything starts', BOUNDED, async () => {
    await assert.rejects(startStack({ migrations: join(dir, 'ok/migrations'), seed: join(dir, 'bad-seed.sql') }), {
      name: 'SqlFileError',
      message: new RegExp(`^seed ${join(dir, 'bad-seed.sql')} failed at line 1, column \\d+: invalid input syntax for type uuid: "not-a-uuid" \\(SQLSTATE 22P02\\)`),
    });
    await assert.rejects(startStack({ migrations: join(dir, 'missing') }), { message: `migrations folder ${join(dir, 'missing')} does not exist` });
    await assert.rejects(startStack({ migrations: join(dir, 'ok/migrations'), schema: 'crm' }), { message: /give schema \(a domain pack\) or migrations/ });
    await assert.rejects(startStack({ migrations: join(dir, 'ok/migrations'), users: [{ email: 'ada@example.com', password: '123' }] }), { message: /users\[0\]\.password must be a string of at least 6 characters/ });
    await assert.rejects(startStack({ migrations: join(dir, 'ok/migrations'), accessTokenHook: 'public.no_such_hook' }), { message: 'the access token hook public.no_such_hook is not a function in this database (is its migration there?)' });
  });
});

describe('alfred-act stack start', () => {
  test('prints the URL, the keys, each user with id and token, and export lines; serves; stops on SIGTERM', BOUNDED, async (t) => {
    const todo = app('todo-list');
    const child = spawn(process.execPath, [join(ROOT, 'bin/alfred-act.mjs'), 'stack', 'start', '--migrations', todo.migrations, '--seed', todo.seed, '--user', 'cy@example.com:cy-pass:word'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => child.kill('SIGKILL'));
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    await new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('export ALFRED_USER_ID=')) resolve();
      });
      exited.then(() => reject(new Error(`the CLI exited before it was ready:\n${stdout}\n${stderr}`)));
    });
    assert.match(stdout, new RegExp(`^Local Supabase \\(PostgREST 12 on PGlite, migrations from ${todo.migrations}\\) ready in [\\d.]+ s`));
    const field = (name) => stdout.match(new RegExp(`^  ${name} +(\\S+)`, 'm'))?.[1];
    const env = Object.fromEntries([...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map(([, key, value]) => [key, value]));
    assert.deepEqual(Object.keys(env), ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_JWT_SECRET', 'ALFRED_ACCESS_TOKEN', 'ALFRED_USER_ID']);
    assert.equal(field('API URL'), env.SUPABASE_URL);
    assert.equal(field('Auth URL'), `${env.SUPABASE_URL}/auth/v1`);
    assert.equal(field('anon key'), env.SUPABASE_ANON_KEY);
    assert.equal(claimsOf(field('service key')).role, 'service_role');
    const users = [...stdout.matchAll(/^ {2}user (\S+)\n {4}id {4}(\S+)\n {4}token (\S+)$/gm)].map(([, email, id, token]) => ({ email, id, token }));
    assert.deepEqual(users.map((u) => u.email), ['cy@example.com', 'ada@example.com', 'ben@example.com'], '--user first, then the seed\'s');
    assert.doesNotMatch(stdout, /no password/, 'the seed gave its users passwords, and --user gave cy one');
    for (const user of users) assert.deepEqual([claimsOf(user.token).sub, claimsOf(user.token).email], [user.id, user.email]);
    assert.deepEqual([env.ALFRED_USER_ID, env.ALFRED_ACCESS_TOKEN], [users[0].id, users[0].token]);

    // What it printed works: the printed token reads through RLS, and the password signs in.
    const cli = { url: `${env.SUPABASE_URL}/rest/v1`, anonKey: env.SUPABASE_ANON_KEY };
    const ada = await rest(cli, users[1].token, 'GET', '/todos?select=task&order=id');
    assert.deepEqual(ada.body.map((row) => row.task), ['Buy oat milk', 'Water the plants', 'Call the plumber']);
    const supabase = client({ supabaseUrl: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY }, t);
    const { data, error } = await supabase.auth.signInWithPassword({ email: 'cy@example.com', password: 'cy-pass:word' });
    assert.equal(error, null);
    assert.equal(data.user.id, env.ALFRED_USER_ID);
    const { data: todos } = await supabase.from('todos').select('task');
    assert.deepEqual(todos, []);

    child.kill('SIGTERM');
    assert.deepEqual(await exited, { code: 0, signal: null });
    await assert.rejects(fetch(`${env.SUPABASE_URL}/auth/v1/health`), 'the gateway stopped with the CLI');
  });

  test('wrong arguments exit 2 with the usage, before any database starts', BOUNDED, async () => {
    const run = (args) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [join(ROOT, 'bin/alfred-act.mjs'), 'stack', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.once('exit', (code) => resolve({ code, stderr }));
      });
    const noPassword = await run(['start', '--migrations', app('todo-list').migrations, '--user', 'ada@example.com']);
    assert.equal(noPassword.code, 2);
    assert.match(noPassword.stderr, /^alfred-act stack start: --user needs EMAIL:PASSWORD, got "ada@example.com"\n\nusage: alfred-act stack start/);
    const both = await run(['start', '--migrations', 'x', '--schema', 'crm']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give --migrations \(your app\) or --schema \(a domain pack\), not both/);
    const noCommand = await run([]);
    assert.equal(noCommand.code, 2);
  });
});
