// Published apps whose access goes through functions, on the local stack:
// a team app on basejump (rows owned by accounts, membership checked by
// security definer functions, the account API in public), an app whose
// policies call rbac.has_permission, and a pgvector retrieval app ranking
// file items under RLS (tests/apps/*/SOURCE.md). Each loads its migrations
// and seeds with startStack({ migrations, seed, users }); users sign in with
// the real supabase-js, and their sessions' tokens then make plain PostgREST
// requests, read back with the service key.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createClient as createSupabaseClient } from '@supabase/supabase-js';
import { startStack } from '../../db/local-stack.mjs';
import { ROOT } from './support/paths.mjs';
import { rest } from './support/stack.mjs';

const APPS = join(ROOT, 'tests/apps');
const app = (name, seeds = ['seed.sql']) => ({
  migrations: join(APPS, name, 'supabase/migrations'),
  seed: seeds.map((seed) => join(APPS, name, 'supabase', seed)),
});
const BOUNDED = { timeout: 120_000 };

// supabase-js's realtime client wants a WebSocket class at construction; Node
// 20 has none without a flag. These tests open no channel, so none is made.
class NoRealtimeSocket {
  constructor() {
    throw new Error('realtime is not used by these tests');
  }
}
const realtime = { transport: globalThis.WebSocket ?? NoRealtimeSocket };

/** Signs `email` in with supabase-js through the stack's /auth/v1; resolves to `{ id, token }` of that session. */
async function signIn(t, stack, email, password) {
  const supabase = createSupabaseClient(stack.supabaseUrl, stack.anonKey, { realtime });
  t.after(() => supabase.auth.stopAutoRefresh());
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  assert.equal(error, null, `${email} signs in`);
  return { id: data.user.id, token: data.session.access_token };
}

/** A PostgREST request that must answer `status`; resolves to the body. */
async function expect(stack, token, method, path, status, options) {
  const answer = await rest(stack, token, method, path, options);
  assert.equal(answer.status, status, `${method} ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const asService = (stack, path) => expect(stack, stack.serviceKey, 'GET', path, 200);
const names = (rows) => rows.map((row) => row.name);

describe('letsrunit (a team app on basejump): rows owned by accounts, membership in RLS, the account functions', () => {
  const ACME = 'acacacac-0000-4000-8000-0000000000ac';
  const ADAS_NOTEBOOK = '00000000-0000-4000-8000-0000000000a1';
  const ACME_STOREFRONT = '00000000-0000-4000-8000-0000000000c1';
  let stack;
  before(async () => {
    stack = await startStack({
      ...app('letsrunit'),
      users: [
        { email: 'ada@example.com', password: 'ada-password' },
        { email: 'ben@example.com', password: 'ben-password' },
      ],
    });
  }, BOUNDED);
  after(() => stack?.stop());

  test('get_accounts gives each user their own accounts: a personal one each and the team they share', BOUNDED, async (t) => {
    const accounts = async (user) => {
      const rows = await expect(stack, user.token, 'POST', '/rpc/get_accounts', 200, { body: {} });
      return rows.map((a) => [a.name, a.account_role, a.personal_account, a.is_primary_owner]).sort();
    };
    const ada = await signIn(t, stack, 'ada@example.com', 'ada-password');
    const ben = await signIn(t, stack, 'ben@example.com', 'ben-password');
    assert.deepEqual(await accounts(ada), [['Acme Robotics', 'owner', false, true], ['ada', 'owner', true, true]]);
    assert.deepEqual(await accounts(ben), [['Acme Robotics', 'member', false, false], ['ben', 'owner', true, true]]);
    const anon = await rest(stack, null, 'POST', '/rpc/get_accounts', { body: {} });
    assert.deepEqual([anon.status, anon.body.code], [401, '42501'], 'granted to authenticated only');
  });

  test('projects, features and runs: each member reads their accounts\' rows and public projects\' runs, nothing else', BOUNDED, async (t) => {
    const ada = await signIn(t, stack, 'ada@example.com', 'ada-password');
    const ben = await signIn(t, stack, 'ben@example.com', 'ben-password');
    const read = (user, path) => expect(stack, user?.token, 'GET', path, 200);
    assert.deepEqual(names(await read(ada, '/projects?select=name&order=name')), ['Acme storefront', 'Ada\'s notebook', 'Ben\'s blog']);
    assert.deepEqual(names(await read(ben, '/projects?select=name&order=name')), ['Acme storefront', 'Ben\'s blog', 'Ben\'s shop']);
    assert.deepEqual(names(await read(null, '/projects?select=name&order=name')), ['Ben\'s blog'], 'anon reads the public project');
    assert.deepEqual(names(await read(ada, '/features?select=name&order=name')), ['Search', 'Sign in']);
    assert.deepEqual(names(await read(ben, '/features?select=name&order=name')), ['Checkout', 'Search']);
    const runs = async (user) => (await read(user, '/runs?select=target,status,projects(name)&order=target')).map((r) => [r.projects.name, r.status]);
    assert.deepEqual(await runs(ada), [['Acme storefront', 'running'], ['Ben\'s blog', 'queued'], ['Ada\'s notebook', 'passed']]);
    assert.deepEqual(await runs(ben), [['Acme storefront', 'running'], ['Ben\'s blog', 'queued'], ['Ben\'s shop', 'failed']]);
    assert.equal((await asService(stack, '/projects?select=id')).length, 4);
  });

  test('the owner lists the team\'s members; a member is refused; roles and project access as each user sees them', BOUNDED, async (t) => {
    const ada = await signIn(t, stack, 'ada@example.com', 'ada-password');
    const ben = await signIn(t, stack, 'ben@example.com', 'ben-password');
    const members = await expect(stack, ada.token, 'POST', '/rpc/get_account_members', 200, { body: { account_id: ACME } });
    assert.deepEqual(members.map((m) => [m.email, m.name, m.account_role, m.is_primary_owner]).sort(), [
      ['ada@example.com', 'ada', 'owner', true],
      ['ben@example.com', 'ben', 'member', false],
    ]);
    const refused = await expect(stack, ben.token, 'POST', '/rpc/get_account_members', 400, { body: { account_id: ACME } });
    assert.deepEqual([refused.code, refused.message], ['P0001', 'Only account owners can access this function']);

    assert.deepEqual(await expect(stack, ben.token, 'POST', '/rpc/current_user_account_role', 200, { body: { account_id: ACME } }), {
      account_role: 'member',
      is_primary_owner: false,
      is_personal_account: false,
    });
    const notHis = await expect(stack, ben.token, 'POST', '/rpc/current_user_account_role', 400, { body: { account_id: ada.id } });
    assert.equal(notHis.message, 'Not found');
    // is_account_member refuses callers outside the account when current_user is anon or authenticated; being
    // security definer itself, it sees its owner as current_user, so the guard never fires through the API and
    // it answers for any account, on Supabase as here. can_access_project answers through it.
    const canAccess = (projectId, userId) => expect(stack, ben.token, 'POST', '/rpc/can_access_project', 200, { body: { project_id: projectId, user_id: userId } });
    assert.deepEqual([await canAccess(ACME_STOREFRONT, ben.id), await canAccess(ADAS_NOTEBOOK, ben.id), await canAccess(ADAS_NOTEBOOK, ada.id)], [true, false, true]);
    assert.equal(await expect(stack, ben.token, 'POST', '/rpc/is_account_member', 200, { body: { account_id: ada.id, user_id: ada.id } }), true);
  });

  test('create_account makes a team its creator owns and only they see; writes and functions nobody was granted are refused', BOUNDED, async (t) => {
    const ada = await signIn(t, stack, 'ada@example.com', 'ada-password');
    const ben = await signIn(t, stack, 'ben@example.com', 'ben-password');
    const created = await expect(stack, ben.token, 'POST', '/rpc/create_account', 200, { body: { slug: 'Ben\'s Band', name: 'Ben\'s band' } });
    assert.deepEqual([created.name, created.slug, created.account_role, created.is_primary_owner, created.personal_account], ['Ben\'s band', 'ben-s-band', 'owner', true, false]);
    const bens = await expect(stack, ben.token, 'POST', '/rpc/get_accounts', 200, { body: {} });
    assert.deepEqual(names(bens).sort(), ['Acme Robotics', 'Ben\'s band', 'ben']);
    const adas = await expect(stack, ada.token, 'POST', '/rpc/get_accounts', 200, { body: {} });
    assert.deepEqual(names(adas).sort(), ['Acme Robotics', 'ada']);
    const taken = await expect(stack, ada.token, 'POST', '/rpc/create_account', 400, { body: { slug: 'ben-s-band', name: 'Copy' } });
    assert.equal(taken.message, 'An account with that unique ID already exists');

    // No insert policy on projects: the app writes them with the service key.
    const insert = await expect(stack, ada.token, 'POST', '/projects', 403, { body: { account_id: ACME, name: 'Sneaky' } });
    assert.equal(insert.code, '42501');
    // basejump revokes execute from anon and authenticated by default; reap_stale_runs is granted to nobody.
    const reap = await expect(stack, ada.token, 'POST', '/rpc/reap_stale_runs', 403, { body: {} });
    assert.equal(reap.code, '42501');
    assert.equal(await expect(stack, stack.serviceKey, 'POST', '/rpc/reap_stale_runs', 200, { body: { max_time: '0 seconds' } }), 2);
    const runs = await asService(stack, '/runs?select=status,error&status=eq.error');
    assert.deepEqual(runs, [{ status: 'error', error: 'Run timed out' }, { status: 'error', error: 'Run timed out' }]);
  });
});

describe('supabase-tenant-rbac: rbac.has_permission in the policies decides per group and per role', () => {
  const ALPHA = 'f1111111-1111-1111-1111-111111111111';
  const BETA = 'f2222222-2222-2222-2222-222222222222';
  const ALPHA_ROW = '9baf6dc9-fdda-40cb-a708-cf8e59d8927b';
  const MEMBERS = ['alice', 'bob', 'carol', 'dave', 'eve'];
  let stack;
  before(async () => {
    // The app's seed makes the users with a bcrypt hash that is not of the password its README names
    // ("password"), so the tests give them passwords.
    stack = await startStack({
      ...app('tenant-rbac', ['seed.sql', 'seed-beta.sql']),
      users: MEMBERS.map((name) => ({ email: `${name}@example.local`, password: `${name}-password` })),
    });
  }, BOUNDED);
  after(() => stack?.stop());

  const member = (t, name) => signIn(t, stack, `${name}@example.local`, `${name}-password`);
  const readData = async (user) => (await expect(stack, user?.token, 'GET', '/sensitive_data?select=data&order=data', 200)).map((row) => row.data);

  test('each member reads the data of their groups only; a user in no group and anon read nothing of Alpha', BOUNDED, async (t) => {
    assert.deepEqual(stack.users.map((u) => u.email), MEMBERS.map((name) => `${name}@example.local`), 'the seed\'s users, no others');
    const [alice, dave, eve, carol] = await Promise.all(['alice', 'dave', 'eve', 'carol'].map((name) => member(t, name)));
    assert.deepEqual(await readData(alice), ['group alpha data'], 'owner of Alpha');
    assert.deepEqual(await readData(dave), ['group alpha data'], 'viewer of Alpha');
    assert.deepEqual(await readData(eve), ['group beta data'], 'owner of Beta, in no group of the app\'s seed');
    assert.deepEqual(await readData(carol), ['group alpha data', 'group beta data'], 'editor of Alpha, viewer of Beta');
    assert.deepEqual(await readData(null), []);
  });

  test('writes follow the role: an editor writes, a viewer is refused, and the same user writes Alpha but not Beta', BOUNDED, async (t) => {
    const [bob, carol, dave] = await Promise.all(['bob', 'carol', 'dave'].map((name) => member(t, name)));
    const written = await expect(stack, carol.token, 'POST', '/sensitive_data?select=data,owned_by_group', 201, {
      body: { data: 'carol in alpha', owned_by_group: ALPHA },
      prefer: 'return=representation',
    });
    assert.deepEqual(written, [{ data: 'carol in alpha', owned_by_group: ALPHA }]);
    const inBeta = await expect(stack, carol.token, 'POST', '/sensitive_data', 403, { body: { data: 'carol in beta', owned_by_group: BETA } });
    assert.equal(inBeta.code, '42501');
    const viewer = await expect(stack, dave.token, 'POST', '/sensitive_data', 403, { body: { data: 'dave in alpha', owned_by_group: ALPHA } });
    assert.equal(viewer.code, '42501');

    const renamed = await expect(stack, bob.token, 'PATCH', `/sensitive_data?id=eq.${ALPHA_ROW}&select=data`, 200, { body: { data: 'alpha, edited by an admin' }, prefer: 'return=representation' });
    assert.deepEqual(renamed, [{ data: 'alpha, edited by an admin' }]);
    assert.deepEqual(await expect(stack, dave.token, 'PATCH', `/sensitive_data?id=eq.${ALPHA_ROW}&select=data`, 200, { body: { data: 'viewer edit' }, prefer: 'return=representation' }), []);
    assert.deepEqual(await expect(stack, dave.token, 'DELETE', `/sensitive_data?owned_by_group=eq.${ALPHA}&select=data`, 200, { prefer: 'return=representation' }), []);
    assert.deepEqual((await asService(stack, `/sensitive_data?select=data&owned_by_group=eq.${ALPHA}&order=data`)).map((row) => row.data), ['alpha, edited by an admin', 'carol in alpha']);
    assert.deepEqual((await asService(stack, `/sensitive_data?select=data&owned_by_group=eq.${BETA}`)).map((row) => row.data), ['group beta data']);
  });
});

describe('Chatbot UI: file items embedded in vector(384), matched by cosine similarity under RLS', () => {
  const TEST_USER = 'e9fc7e46-a8a5-4fd4-8ba7-af485013e6fa';
  // The first axis, as the app's embedder would give a query; the seed's items lie on the first two.
  const query = Array.from({ length: 384 }, (_, i) => (i === 0 ? 1 : 0));
  let stack;
  before(async () => {
    stack = await startStack({ ...app('chatbot-ui', ['seed.sql', 'seed-file-items.sql']), users: [{ email: 'ben@example.com', password: 'ben-password' }] });
  }, BOUNDED);
  after(() => stack?.stop());

  const signInBoth = (t) => Promise.all([signIn(t, stack, 'test@test.com', 'password'), signIn(t, stack, 'ben@example.com', 'ben-password')]);

  test('each user reads their own files and the shared one; the trigger gave Ben a profile and a Home workspace', BOUNDED, async (t) => {
    const [tester, ben] = await signInBoth(t);
    assert.equal(tester.id, TEST_USER);
    const files = async (user) => (await expect(stack, user.token, 'GET', '/files?select=name,sharing&order=name', 200)).map((f) => [f.name, f.sharing]);
    assert.deepEqual(await files(tester), [['File 1', 'private'], ['Handbook', 'public']]);
    assert.deepEqual(await files(ben), [['Ben notes', 'private'], ['Handbook', 'public']]);
    assert.deepEqual(await expect(stack, ben.token, 'GET', '/workspaces?select=name,is_home', 200), [{ name: 'Home', is_home: true }]);
    const [profile] = await expect(stack, ben.token, 'GET', '/profiles?select=user_id,username', 200);
    assert.equal(profile.user_id, ben.id);
    assert.match(profile.username, /^user[0-9a-f]{16}$/);
  });

  test('match_file_items_local ranks the items each user may read, nearest first, and honours match_count', BOUNDED, async (t) => {
    const [tester, ben] = await signInBoth(t);
    const fileIds = (await asService(stack, '/files?select=id&order=name')).map((f) => f.id);
    assert.equal(fileIds.length, 3);
    const match = async (user, matchCount) => {
      const rows = await expect(stack, user.token, 'POST', '/rpc/match_file_items_local', 200, { body: { query_embedding: query, match_count: matchCount, file_ids: fileIds } });
      return rows.map((row) => [row.content, Math.round(row.similarity * 100) / 100]);
    };
    assert.deepEqual(await match(tester, 10), [
      ['Relativity: the speed of light is the same for every observer.', 1],
      ['Light bulbs are replaced by facilities, not by the team.', 0.8],
      ['Photoelectric effect: light comes in quanta.', 0.6],
    ]);
    assert.deepEqual(await match(ben, 10), [
      ['Light bulbs are replaced by facilities, not by the team.', 0.8],
      ['Dentist on Tuesday at nine.', 0],
    ]);
    assert.deepEqual((await match(tester, 1)).map(([content]) => content), ['Relativity: the speed of light is the same for every observer.']);
    const wrongSize = await expect(stack, tester.token, 'POST', '/rpc/match_file_items_local', 400, { body: { query_embedding: [1, 0, 0], match_count: 1, file_ids: fileIds } });
    assert.equal(wrongSize.message, 'different vector dimensions 384 and 3');
  });

  test('deleting a file runs the app\'s trigger, whose storage request the http stand-in refuses: the delete fails, the row stays', BOUNDED, async (t) => {
    const [tester] = await signInBoth(t);
    const [file] = await asService(stack, `/files?select=id&name=eq.File%201`);
    const refused = await expect(stack, tester.token, 'DELETE', `/files?id=eq.${file.id}`, 400);
    assert.equal(refused.code, '0A000');
    assert.match(refused.message, /^http stand-in: DELETE http:\/\/supabase_kong_chatbotui:8000\/storage\/v1\/object\/files\/https:\/\/example\.com\/file1 was not sent: the local stack makes no HTTP requests$/);
    // The hint reaches a model as the database's: it says what to tell the user.
    assert.match(refused.hint, /^this needs a request to another service, which the local stack does not make .*: tell the user it cannot be done here/);
    assert.deepEqual(await asService(stack, `/files?select=name&id=eq.${file.id}`), [{ name: 'File 1' }]);
  });
});
