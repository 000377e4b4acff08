// The embedded local Supabase against real PostgREST 12 on PGlite: row level
// security between the two seed users, the role and signature checks, the
// match_recipes RPC, the catalog's permissions, and the foreign-key rules;
// alfred-act's own act_sessions only in the databases that ask for it.
// Plain fetch on purpose: this tests the database, not the project's core.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { signJwt } from '../../db/jwt.mjs';
import { loadPack } from '../../db/packs.mjs';
import { openDatabase } from '../../db/pglite.mjs';
import { startStack } from '../../db/local-stack.mjs';
import { lexicalEmbedder } from '../../web/src/embedder.js';
import { SupabaseSessionStore } from '../../web/src/mcp/store.js';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { rest, SEED_USERS, sharedStack, withStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
const ben = () => stack().users[1];

const USER_TABLES = ['recipes', 'recipe_ingredients', 'inventory', 'shopping_list', 'meal_plans', 'tasks', 'preferences', 'cooking_log'];
const RETURN_ROWS = 'return=representation';

async function ownRecipe(user, name) {
  const { status, body } = await rest(stack(), user.token, 'GET', `/recipes?select=id,user_id,name&name=eq.${encodeURIComponent(name)}`);
  assert.equal(status, 200);
  assert.equal(body.length, 1, `${user.email} has one ${name}`);
  return body[0];
}

async function queryEmbedding(text) {
  const [vector] = await lexicalEmbedder.embed([text]);
  return vector;
}

test('the stack reports its users, keys and a PostgREST root url', () => {
  const { url, anonKey, serviceKey, users } = stack();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(users.length, 2);
  assert.deepEqual(
    users.map(({ id, email }) => ({ id, email })),
    SEED_USERS.map(({ id, email }) => ({ id, email })),
  );
  for (const token of [anonKey, serviceKey, ...users.map((u) => u.token)]) assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.deepEqual(users.map((u) => u.hasPassword), [false, false], 'the demo seed gives its users no password');
});

test('each user reads only their own rows, and both have rows in every table', async () => {
  for (const table of USER_TABLES) {
    const all = await rest(stack(), stack().serviceKey, 'GET', `/${table}?select=id,user_id`);
    assert.equal(all.status, 200, table);
    let seen = 0;
    for (const user of [ada(), ben()]) {
      const { status, body } = await rest(stack(), user.token, 'GET', `/${table}?select=id,user_id`);
      assert.equal(status, 200, table);
      assert.ok(body.length > 0, `${user.email} has ${table}`);
      assert.ok(body.every((row) => row.user_id === user.id), `${table}: only ${user.email}'s rows`);
      seen += body.length;
    }
    assert.equal(seen, all.body.length, `${table}: the two users' rows are all the rows`);
  }
});

test('a recipe name both users have resolves to each user\'s own row', async () => {
  const [adas, bens] = await Promise.all([ownRecipe(ada(), 'Butter Chicken'), ownRecipe(ben(), 'Butter Chicken')]);
  assert.notEqual(adas.id, bens.id);
  assert.equal(adas.user_id, ada().id);
  assert.equal(bens.user_id, ben().id);
  const other = await rest(stack(), ada().token, 'GET', `/recipes?id=eq.${bens.id}`);
  assert.deepEqual(other.body, []);
});

test('the seed keeps awkward names intact and embeds recipes with ingredients', async () => {
  const { body } = await rest(stack(), ada().token, 'GET', '/recipes?select=name,recipe_ingredients(name,ingredient_id)&order=name');
  const names = body.map((r) => r.name);
  for (const name of ['Mac, Cheese & Peas', "Grandma's Apple Pie", 'Crème Brûlée', 'Phở Gà', '100% Rye Sourdough']) {
    assert.ok(names.includes(name), name);
  }
  assert.equal(body.length, 21);
  for (const recipe of body) assert.ok(recipe.recipe_ingredients.length >= 4, recipe.name);
  const linked = body.flatMap((r) => r.recipe_ingredients).filter((ri) => ri.ingredient_id !== null);
  assert.ok(linked.length > 150, 'most recipe ingredients are linked to the catalog');
});

test('anon sees no user rows and cannot write', async () => {
  for (const table of USER_TABLES) {
    const { status, body } = await rest(stack(), null, 'GET', `/${table}`);
    assert.equal(status, 200, table);
    assert.deepEqual(body, [], table);
  }
  const insert = await rest(stack(), null, 'POST', '/recipes', { body: { name: 'x', instructions: ['y'], user_id: ada().id } });
  assert.equal(insert.status, 401);
  assert.equal(insert.body.code, '42501');
});

test('an insert spoofing another user\'s user_id is refused with 403 42501', async () => {
  const { status, body } = await rest(stack(), ada().token, 'POST', '/inventory', {
    body: { user_id: ben().id, name: 'spoofed milk', quantity: 1, unit: 'l' },
    prefer: RETURN_ROWS,
  });
  assert.equal(status, 403);
  assert.equal(body.code, '42501');
  const bens = await rest(stack(), ben().token, 'GET', '/inventory?name=eq.spoofed%20milk');
  assert.deepEqual(bens.body, []);
});

test('an insert without user_id gets the caller\'s', async () => {
  const { status, body } = await rest(stack(), ada().token, 'POST', '/shopping_list', {
    body: { name: 'saffron, the good one', quantity: 1, unit: 'pinch' },
    prefer: RETURN_ROWS,
  });
  assert.equal(status, 201);
  assert.equal(body[0].user_id, ada().id);
  assert.equal(body[0].is_purchased, false);
});

test('updating or deleting another user\'s rows touches 0 rows', async () => {
  const bens = await ownRecipe(ben(), 'Miso Ramen');
  const update = await rest(stack(), ada().token, 'PATCH', `/recipes?id=eq.${bens.id}`, { body: { name: 'hijacked' }, prefer: RETURN_ROWS });
  assert.equal(update.status, 200);
  assert.deepEqual(update.body, []);
  const remove = await rest(stack(), ada().token, 'DELETE', `/recipes?id=eq.${bens.id}`, { prefer: RETURN_ROWS });
  assert.equal(remove.status, 200);
  assert.deepEqual(remove.body, []);
  const inventory = await rest(stack(), ada().token, 'DELETE', `/inventory?user_id=eq.${ben().id}`, { prefer: RETURN_ROWS });
  assert.deepEqual(inventory.body, []);
  assert.equal((await ownRecipe(ben(), 'Miso Ramen')).id, bens.id, 'still there, unchanged');
});

test('moving a row to another user is refused', async () => {
  const adas = await ownRecipe(ada(), 'Greek Salad');
  const { status, body } = await rest(stack(), ada().token, 'PATCH', `/recipes?id=eq.${adas.id}`, { body: { user_id: ben().id } });
  assert.equal(status, 403);
  assert.equal(body.code, '42501');
});

test('rows cannot point at another user\'s recipe or meal plan', async () => {
  const bens = await ownRecipe(ben(), 'Guacamole');
  const child = await rest(stack(), ada().token, 'POST', '/recipe_ingredients', { body: { recipe_id: bens.id, name: 'spite' } });
  assert.equal(child.status, 403);
  assert.equal(child.body.code, '42501');
  const plan = await rest(stack(), ada().token, 'POST', '/meal_plans', { body: { date: '2030-01-01', meal_type: 'dinner', recipe_id: bens.id } });
  assert.equal(plan.status, 403);
  const variant = await rest(stack(), ada().token, 'POST', '/recipes', { body: { name: 'Guac 2', instructions: ['x'], parent_recipe_id: bens.id } });
  assert.equal(variant.status, 403);
  const bensPlans = await rest(stack(), ben().token, 'GET', '/meal_plans?select=id&limit=1');
  const task = await rest(stack(), ada().token, 'POST', '/tasks', { body: { title: 'x', meal_plan_id: bensPlans.body[0].id } });
  assert.equal(task.status, 403);
});

test('a JWT whose role is postgres (or any non-API role) is refused by auth.check_request', async () => {
  for (const role of ['postgres', 'authenticator']) {
    const token = signJwt({ role, sub: ada().id }, stack().jwtSecret);
    const { status, body } = await rest(stack(), token, 'GET', '/recipes?select=id,user_id');
    assert.equal(status, 403, role);
    assert.equal(body.message, `JWT role ${role} is not allowed`);
  }
});

test('a bad signature and an expired token get 401', async () => {
  const forged = signJwt({ role: 'authenticated', sub: ada().id }, 'not-the-secret-not-the-secret-not-the-secret');
  const bad = await rest(stack(), forged, 'GET', '/recipes');
  assert.equal(bad.status, 401);
  const expired = signJwt({ role: 'authenticated', sub: ada().id, exp: Math.floor(Date.now() / 1000) - 60 }, stack().jwtSecret);
  const old = await rest(stack(), expired, 'GET', '/recipes');
  assert.equal(old.status, 401);
  assert.match(old.body.message, /expired/i);
});

test('match_recipes finds the caller\'s curries for "spicy chicken curry", nearest first', async () => {
  const query_embedding = await queryEmbedding('spicy chicken curry');
  const adaIds = new Set((await rest(stack(), ada().token, 'GET', '/recipes?select=id')).body.map((r) => r.id));
  const { status, body } = await rest(stack(), ada().token, 'POST', '/rpc/match_recipes', { body: { query_embedding } });
  assert.equal(status, 200);
  assert.ok(body.length > 0);
  assert.match(body[0].name, /curry/i);
  assert.ok(body.some((r) => r.name === 'Thai Red Chicken Curry'));
  assert.ok(body.every((r) => adaIds.has(r.id)), 'only Ada\'s recipes');
  assert.deepEqual(Object.keys(body[0]).sort(), ['distance', 'id', 'name']);
  for (let i = 1; i < body.length; i++) assert.ok(body[i - 1].distance <= body[i].distance, 'ordered by distance');
  assert.ok(body.every((r) => r.distance <= 0.7), 'default max_distance 0.7');
  assert.ok(!body.some((r) => r.name === 'Crème Brûlée'), 'a dessert shares no words with the query');

  const bens = await rest(stack(), ben().token, 'POST', '/rpc/match_recipes', { body: { query_embedding } });
  assert.deepEqual(bens.body.map((r) => r.name), ['Butter Chicken']);
  const anon = await rest(stack(), null, 'POST', '/rpc/match_recipes', { body: { query_embedding } });
  assert.deepEqual(anon.body, []);
});

test('match_recipes honours match_count and max_distance, and takes the vector as text', async () => {
  const vector = await queryEmbedding('chicken');
  const two = await rest(stack(), ada().token, 'POST', '/rpc/match_recipes', {
    body: { query_embedding: `[${vector.join(',')}]`, match_count: 2, max_distance: 2 },
  });
  assert.equal(two.status, 200);
  assert.equal(two.body.length, 2);
  const none = await rest(stack(), ada().token, 'POST', '/rpc/match_recipes', { body: { query_embedding: vector, max_distance: 0 } });
  assert.deepEqual(none.body, []);
  const wrongSize = await rest(stack(), ada().token, 'POST', '/rpc/match_recipes', { body: { query_embedding: [1, 2, 3] } });
  assert.equal(wrongSize.status, 400);
});

test('the ingredient catalog is readable by signed-in users, not by anon, and not writable', async () => {
  const { status, body } = await rest(stack(), ada().token, 'GET', '/ingredients?select=id,name,aliases,parent_category,family,tier,cuisines&name=eq.jalape%C3%B1o');
  assert.equal(status, 200);
  assert.deepEqual(body[0].aliases, ['jalapeno', 'jalapeño pepper']);
  assert.equal(body[0].parent_category, 'produce');
  const count = await rest(stack(), ben().token, 'GET', '/ingredients?select=id', { prefer: 'count=exact', headers: { range: '0-0' } });
  assert.match(count.headers.get('content-range'), /^0-0\/(1[2-9]\d)$/);
  assert.deepEqual((await rest(stack(), null, 'GET', '/ingredients')).body, []);

  const id = body[0].id;
  const insert = await rest(stack(), ada().token, 'POST', '/ingredients', { body: { name: 'unobtainium', family: 'x' } });
  const update = await rest(stack(), ada().token, 'PATCH', `/ingredients?id=eq.${id}`, { body: { tier: 3 } });
  const remove = await rest(stack(), ada().token, 'DELETE', `/ingredients?id=eq.${id}`);
  for (const attempt of [insert, update, remove]) {
    assert.equal(attempt.status, 403);
    assert.equal(attempt.body.code, '42501');
  }
});

test('check constraints refuse values outside the allowed sets', async () => {
  const flavor = await rest(stack(), ada().token, 'POST', '/recipes', { body: { name: 'x', instructions: ['y'], flavor_tags: ['crunchy'] } });
  assert.equal(flavor.status, 400);
  assert.equal(flavor.body.code, '23514');
  const meal = await rest(stack(), ada().token, 'POST', '/meal_plans', { body: { date: '2030-01-01', meal_type: 'brunch' } });
  assert.equal(meal.body.code, '23514');
  const rating = await rest(stack(), ada().token, 'POST', '/cooking_log', { body: { rating: 6 } });
  assert.equal(rating.body.code, '23514');
  const instructions = await rest(stack(), ada().token, 'POST', '/recipes', { body: { name: 'no steps' } });
  assert.equal(instructions.body.code, '23502');
});

test('deleting a recipe deletes its recipe_ingredients and unlinks plans, tasks and logs', async () => {
  const user = ada();
  const created = await rest(stack(), user.token, 'POST', '/recipes', { body: { name: 'Doomed Stew', instructions: ['stew'] }, prefer: RETURN_ROWS });
  assert.equal(created.status, 201);
  const id = created.body[0].id;
  const children = await rest(stack(), user.token, 'POST', '/recipe_ingredients', {
    body: [
      { recipe_id: id, name: 'carrot' },
      { recipe_id: id, name: 'onion' },
    ],
    prefer: RETURN_ROWS,
  });
  assert.equal(children.status, 201);
  const plan = await rest(stack(), user.token, 'POST', '/meal_plans', { body: { date: '2030-01-02', meal_type: 'dinner', recipe_id: id }, prefer: RETURN_ROWS });
  const task = await rest(stack(), user.token, 'POST', '/tasks', { body: { title: 'chop', recipe_id: id }, prefer: RETURN_ROWS });
  const log = await rest(stack(), user.token, 'POST', '/cooking_log', { body: { recipe_id: id, rating: 2 }, prefer: RETURN_ROWS });

  const removed = await rest(stack(), user.token, 'DELETE', `/recipes?id=eq.${id}`, { prefer: RETURN_ROWS });
  assert.equal(removed.body.length, 1);
  const left = await rest(stack(), stack().serviceKey, 'GET', `/recipe_ingredients?recipe_id=eq.${id}`);
  assert.deepEqual(left.body, []);
  for (const [table, row] of [['meal_plans', plan], ['tasks', task], ['cooking_log', log]]) {
    const { body } = await rest(stack(), user.token, 'GET', `/${table}?select=recipe_id&id=eq.${row.body[0].id}`);
    assert.deepEqual(body, [{ recipe_id: null }], table);
  }
});

test('deleting a parent recipe keeps its variants with parent_recipe_id null', async () => {
  const user = ada();
  const parent = await rest(stack(), user.token, 'POST', '/recipes', { body: { name: 'Base Dal', instructions: ['simmer'] }, prefer: RETURN_ROWS });
  const parentId = parent.body[0].id;
  const variant = await rest(stack(), user.token, 'POST', '/recipes', {
    body: { name: 'Base Dal (spicy)', instructions: ['simmer', 'add chili'], parent_recipe_id: parentId },
    prefer: RETURN_ROWS,
  });
  assert.equal(variant.status, 201);
  const removed = await rest(stack(), user.token, 'DELETE', `/recipes?id=eq.${parentId}`);
  assert.equal(removed.status, 204);
  const { body } = await rest(stack(), user.token, 'GET', `/recipes?select=name,parent_recipe_id&id=eq.${variant.body[0].id}`);
  assert.deepEqual(body, [{ name: 'Base Dal (spicy)', parent_recipe_id: null }]);
});

test('updated_at follows updates', async () => {
  const { body: [row] } = await rest(stack(), ada().token, 'GET', '/inventory?select=id,updated_at&name=eq.milk');
  const { body: [updated] } = await rest(stack(), ada().token, 'PATCH', `/inventory?id=eq.${row.id}`, { body: { quantity: 750 }, prefer: RETURN_ROWS });
  assert.ok(Date.parse(updated.updated_at) > Date.parse(row.updated_at));
});

test('reload() makes PostgREST reload its schema cache and the API keeps answering', async () => {
  const loads = () => stack().postgrestOutput().split('Schema cache loaded').length - 1;
  const before = loads();
  assert.ok(before >= 1, 'PostgREST logged its first load');
  stack().reload();
  const deadline = Date.now() + 15_000;
  while (loads() === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(loads(), before + 1);
  const { status } = await rest(stack(), ada().token, 'GET', '/recipes?select=id&limit=1');
  assert.equal(status, 200);
});

test('a data dir keeps rows across a restart and is not seeded twice', async (t) => {
  const dataDir = join(SCRATCH, `stack-data-${process.pid}`);
  mkdirSync(SCRATCH, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true });
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));

  const first = await withStack(t, { dataDir });
  const [user] = first.users;
  const created = await rest(first, user.token, 'POST', '/tasks', { body: { title: 'survive a restart' }, prefer: RETURN_ROWS });
  assert.equal(created.status, 201);
  await first.stop();

  const second = await withStack(t, { dataDir });
  assert.equal(second.timings.database.source, 'existing');
  const { body } = await rest(second, second.users[0].token, 'GET', '/tasks?select=title&title=eq.survive%20a%20restart');
  assert.deepEqual(body, [{ title: 'survive a restart' }]);
  const recipes = await rest(second, second.users[0].token, 'GET', '/recipes?select=id');
  assert.equal(recipes.body.length, 21, 'seeded once');
  await second.stop();

  // The kitchen's data dir is not a CRM database: refused, naming both files.
  await assert.rejects(
    withStack(t, { dataDir, schema: 'crm' }),
    /this database was migrated with 002_kitchen\.sql, not 002_crm\.sql: it belongs to another domain pack/,
  );
});

// kitchen.json column types → information_schema's data_type (udt_name for arrays).
const PG_TYPES = {
  uuid: ['uuid'],
  text: ['text'],
  integer: ['integer'],
  numeric: ['numeric'],
  boolean: ['boolean'],
  date: ['date'],
  timestamp: ['timestamp with time zone', 'timestamp without time zone'],
  jsonb: ['jsonb'],
  'text[]': ['_text'],
  'uuid[]': ['_uuid'],
};

test('the migrated schema has every column of domains/kitchen/domain.json, with its type, nullability and references', async (t) => {
  const domain = JSON.parse(readFileSync(join(ROOT, 'domains/kitchen/domain.json'), 'utf8'));
  const kitchen = await loadPack('kitchen');
  const { db } = await openDatabase({ migrations: kitchen.migrations(), snapshotName: kitchen.name });
  t.after(() => db.close());
  const { rows: columns } = await db.query(
    `select table_name, column_name, data_type, udt_name, is_nullable from information_schema.columns where table_schema = 'public'`,
  );
  const { rows: references } = await db.query(`
    select c.conrelid::regclass::text as table_name, a.attname as column_name, c.confrelid::regclass::text as target
    from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.contype = 'f' and c.connamespace = 'public'::regnamespace`);
  const { rows: security } = await db.query(
    `select relname, relrowsecurity from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`,
  );

  for (const [table, spec] of Object.entries(domain.tables)) {
    const dbColumns = new Map(columns.filter((c) => c.table_name === table).map((c) => [c.column_name, c]));
    assert.ok(dbColumns.size > 0, `table ${table} exists`);
    assert.equal(security.find((r) => r.relname === table)?.relrowsecurity, true, `${table} has RLS enabled`);
    for (const [name, column] of Object.entries(spec.columns)) {
      const actual = dbColumns.get(name);
      assert.ok(actual, `${table}.${name} exists`);
      const type = actual.data_type === 'ARRAY' ? actual.udt_name : actual.data_type;
      assert.ok(PG_TYPES[column.type].includes(type), `${table}.${name}: ${column.type} vs ${type}`);
      const notNull = column.nullable === false || column.required === true;
      assert.equal(actual.is_nullable === 'NO', notNull, `${table}.${name} NOT NULL matches kitchen.json`);
      if (column.references && !column.type.endsWith('[]')) {
        const fk = references.find((r) => r.table_name === table && r.column_name === name);
        assert.equal(fk?.target, column.references, `${table}.${name} references ${column.references}`);
      }
    }
    const extra = [...dbColumns.keys()].filter((name) => !(name in spec.columns));
    assert.deepEqual(extra, spec.hidden ?? [], `${table}: the only columns kitchen.json lacks are its hidden ones`);
  }
});

test("act_sessions is in an app's schema only when asked for (sessions: true, --sessions); a domain pack has it unless sessions: false", { timeout: 300_000 }, async (t) => {
  const app = join(SCRATCH, `sessions-app-${process.pid}`);
  mkdirSync(app, { recursive: true });
  t.after(() => rmSync(app, { recursive: true, force: true }));
  writeFileSync(join(app, '20240101000000_notes.sql'), `create table public.notes (id bigint generated always as identity primary key, user_id uuid not null default auth.uid() references auth.users (id), title text not null);
alter table public.notes enable row level security;
create policy notes_own on public.notes for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
grant select, insert, update, delete on public.notes to authenticated;`);
  const users = [{ email: 'ada@example.com', password: 'ada-password' }];
  const session = { id: 'a-session-of-ada-0001', state: { registry: {} } };

  const plain = await withStack(t, { migrations: app, users });
  assert.deepEqual(Object.keys(plain.catalog.tables), ['notes']);
  const missing = await rest(plain, plain.users[0].token, 'POST', '/act_sessions', { body: session });
  assert.equal(missing.status, 404);
  // The MCP server's store says how to add the table.
  const store = new SupabaseSessionStore({ url: plain.supabaseUrl, apiKey: plain.anonKey });
  await assert.rejects(store.get(session.id, { accessToken: plain.users[0].token }), {
    message: /^the session store \(act_sessions\) answered 404: .*act_sessions.* \(create it with alfred-act's db\/sessions\/010_act_sessions\.sql as a migration; the local stack: --sessions, or startStack\(\{ sessions: true \}\)\)$/,
  });
  await plain.stop();

  const withSessions = await withStack(t, { migrations: app, users, sessions: true });
  assert.deepEqual(Object.keys(withSessions.catalog.tables), ['act_sessions', 'notes']);
  const saved = await rest(withSessions, withSessions.users[0].token, 'POST', '/act_sessions', { body: session, prefer: RETURN_ROWS });
  assert.deepEqual([saved.status, saved.body.map((row) => [row.id, row.user_id])], [201, [[session.id, withSessions.users[0].id]]]);
  await withSessions.stop();

  const pack = await withStack(t, { schema: 'crm', seed: false, sessions: false });
  assert.equal(Object.hasOwn(pack.catalog.tables, 'act_sessions'), false);
  assert.ok(Object.hasOwn(stack().catalog.tables, 'act_sessions'), 'the kitchen pack has it by default');

  const { stackOptions } = await import('../../cli/stack.mjs');
  assert.deepEqual(stackOptions(['--migrations', app, '--sessions'], {}), { migrations: app, sessions: true });
  assert.deepEqual(stackOptions(['--migrations', app], {}), { migrations: app });
  // A password Supabase Auth would refuse is a usage error naming the flag, before anything starts.
  assert.throws(() => stackOptions(['--user', 'a@x.com:pw'], {}), { message: "--user a@x.com: the password must be at least 6 characters (Supabase Auth's minimum)" });
  assert.deepEqual(stackOptions(['--user', 'a@x.com:secret'], {}).users, [{ email: 'a@x.com', password: 'secret' }]);
  // Metadata for the app's sign-up trigger after the password; a colon that starts no JSON object is the password's.
  assert.deepEqual(stackOptions(['--user', 'a@x.com:secret:{"handle":"ada"}'], {}).users, [{ email: 'a@x.com', password: 'secret', user_metadata: { handle: 'ada' } }]);
  assert.deepEqual(stackOptions(['--user', 'a@x.com:se:{cret'], {}).users, [{ email: 'a@x.com', password: 'se:{cret' }]);
  assert.deepEqual(stackOptions(['--user', 'a@x.com:pw-ada-1:{"handle":"ada","prefs":{"x":1}}'], {}).users, [{ email: 'a@x.com', password: 'pw-ada-1', user_metadata: { handle: 'ada', prefs: { x: 1 } } }]);
  await assert.rejects(startStack({ migrations: app, sessions: 'yes' }), /startStack: sessions must be true or false/);
});

test('the CLI prints the URL, keys and export lines, serves, and stops cleanly on SIGTERM', async (t) => {
  const child = spawn(process.execPath, [join(ROOT, 'db/stack.mjs'), 'start'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  const env = Object.fromEntries([...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map(([, key, value]) => [key, value]));
  assert.deepEqual(Object.keys(env), ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_JWT_SECRET', 'ALFRED_ACCESS_TOKEN', 'ALFRED_USER_ID']);
  assert.equal(env.ALFRED_USER_ID, SEED_USERS[0].id);
  // A user the seed gave no password says how to act as them, and how to sign in with one.
  assert.match(stdout, new RegExp(`^ {4}token \\S+\\n {4}\\(no password: act with its token, or give --user ${SEED_USERS[0].email.replaceAll('.', '\\.')}:PASSWORD to sign in with signInWithPassword\\)$`, 'm'));
  // SUPABASE_URL is the Supabase URL: PostgREST answers under /rest/v1, as on a project.
  const cli = { url: `${env.SUPABASE_URL}/rest/v1`, anonKey: env.SUPABASE_ANON_KEY };
  const { status, body } = await rest(cli, env.ALFRED_ACCESS_TOKEN, 'GET', '/recipes?select=user_id');
  assert.equal(status, 200);
  assert.equal(body.length, 21);

  child.kill('SIGTERM');
  assert.deepEqual(await exited, { code: 0, signal: null });
  await assert.rejects(fetch(`${cli.url}/recipes`), 'PostgREST stopped with the CLI');
});

test("PostgREST's output in a start that failed: each line once with its count, and the schema cache's error named", async () => {
  const { readOutput } = await import('../../db/postgrest.mjs');
  const loop = [
    'Starting PostgREST 12.0.2...',
    'Connection successful',
    '{"code":"55000","details":null,"hint":null,"message":"foreign-data wrapper \\"stripe_wrapper\\" has no handler"}',
    'An error ocurred when loading the schema cache',
  ];
  const output = Array.from({ length: 300 }, () => loop.map((line) => `30/Nov/2026:16:40:21 +0000: ${line}`).join('\n')).join('\n');
  const { cause, lines } = readOutput(output);
  assert.equal(cause, 'foreign-data wrapper "stripe_wrapper" has no handler (55000)');
  assert.equal(lines, loop.map((line) => `${line} (300 times)`).join('\n'));
  // Without a schema cache failure: no cause, the lines as they came.
  assert.deepEqual(readOutput('30/Nov/2026:16:40:21 +0000: Listening on port 3000\n'), { cause: null, lines: 'Listening on port 3000' });
});
