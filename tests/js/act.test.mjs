// The executor end to end (createAct → execute) against the real local stack:
// PostgREST 12 on PGlite, seeded. Every pipeline behaviour of the executor
// issue, checked on the result (data, error, query, count) and on what the
// database holds afterwards, read back through PostgREST with the user's token.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { signJwt } from '../../db/jwt.mjs';
import { lexicalEmbedder } from '../../web/src/embedder.js';
import { loadCore } from '../../web/src/index.node.js';
import { recordingFetch } from './support/recording-fetch.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
let core;
before(async () => {
  core = await loadCore();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A fresh act for `user` (Ada by default) with a recording fetch. */
function actFor({ user = ada(), fetch = recordingFetch(), ...options } = {}) {
  const act = core.createAct({ restUrl: stack().url, apiKey: stack().anonKey, accessToken: user.token, userId: user.id, fetch, ...options });
  return { act, fetch };
}

/** Rows of `path` as `user` sees them in PostgREST (the ground truth). */
async function dbRows(path, user = ada()) {
  const { status, body } = await rest(stack(), user.token, 'GET', path);
  assert.equal(status, 200, `GET ${path}: ${JSON.stringify(body)}`);
  return body;
}

function hasKeyDeep(value, key) {
  if (Array.isArray(value)) return value.some((item) => hasKeyDeep(item, key));
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => k === key || hasKeyDeep(v, key));
  return false;
}

/** What the model sees carries no UUID and no owner column. */
function assertModelFacing(result) {
  assert.doesNotMatch(JSON.stringify(result.data), UUID, 'no UUID in data');
  assert.doesNotMatch(JSON.stringify(result.query), UUID, 'no UUID in query');
  assert.ok(!hasKeyDeep(result.data, 'user_id'), 'no user_id in data');
}

function ok(result) {
  assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  assertModelFacing(result);
  return result;
}

/** The ref → UUID map the act's registry holds. */
function uuids(act) {
  return new Map(act.registry.toJSON().refs.map((entry) => [entry.ref, entry.uuid]));
}

const enc = encodeURIComponent;

// ---- 1. gen_ reads --------------------------------------------------------

test('gen_ reads are answered from the registry without HTTP; wrong table and mixed refs are errors', async () => {
  const { act, fetch } = actFor();
  const { data: gen } = act.registry.registerGenerated('recipes', { name: 'Draft Lentil Stew', instructions: ['Simmer.'], servings: 2 });
  assert.match(gen, /^gen_recipe_\d+$/);

  const read = ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: 'id', op: '=', value: gen }] }));
  assert.deepEqual(read.data, [{ id: gen, name: 'Draft Lentil Stew', instructions: ['Simmer.'], servings: 2 }]);
  assert.equal(read.count, 1);
  assert.equal(read.query.source, 'generated');
  assert.equal(fetch.requests.length, 0, 'no HTTP for a gen_ read');

  const wrongTable = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'id', op: '=', value: gen }] });
  assert.equal(wrongTable.error.code, 'ref_type_mismatch');
  assert.equal(wrongTable.data, null);
  assert.equal(fetch.requests.length, 0);

  ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: 'name', op: '=', value: 'Shakshuka' }], columns: ['name'] }));
  assert.equal(fetch.requests.length, 1);
  const [saved] = [...uuids(act).keys()].filter((ref) => /^recipe_\d+$/.test(ref));
  const mixed = await act.execute('db_read', { table: 'recipes', filters: [{ field: 'id', op: 'in', value: [gen, saved] }] });
  assert.equal(mixed.error.code, 'mixed_refs');
  assert.equal(fetch.requests.length, 1, 'a mixed read sends nothing');
});

test('generate → save → link ingredients → read by the gen ref goes to the database', async () => {
  const { act, fetch } = actFor();
  const { data: gen } = act.registry.registerGenerated('recipes', {
    name: 'Saved Dal Tadka',
    instructions: ['Boil the lentils.', 'Temper with cumin.'],
    servings: 3,
  });
  const created = ok(await act.execute('db_create', { table: 'recipes', data: { id: gen, name: 'Saved Dal Tadka', instructions: ['Boil the lentils.', 'Temper with cumin.'], servings: 3 } }));
  assert.match(created.data.id, /^recipe_\d+$/);
  assert.ok(created.query.notes.some((note) => note.includes(`saved ${gen} as ${created.data.id}`)), created.query.notes.join('\n'));
  const recipeUuid = uuids(act).get(created.data.id);

  const linked = ok(
    await act.execute('db_create', {
      table: 'recipe_ingredients',
      data: [
        { recipe_id: gen, name: 'red lentils', quantity: 200, unit: 'g' },
        { recipe_id: gen, name: 'cumin seeds', quantity: 1, unit: 'tsp' },
      ],
    }),
  );
  assert.equal(linked.data.length, 2);
  assert.ok(linked.data.every((row) => row.recipe_id === created.data.id));

  fetch.reset();
  const back = ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: 'id', op: '=', value: gen }] }));
  assert.equal(back.query.source, 'database');
  assert.ok(fetch.requests.length >= 1, 'a saved gen ref is read from the database');
  assert.equal(back.data.length, 1);
  assert.equal(back.data[0].id, created.data.id);
  assert.deepEqual(back.data[0].recipe_ingredients.map((ri) => ri.name).sort(), ['cumin seeds', 'red lentils']);

  const [row] = await dbRows(`/recipes?id=eq.${recipeUuid}&select=user_id,name,servings,recipe_ingredients(name,recipe_id,user_id)`);
  assert.equal(row.user_id, ada().id);
  assert.equal(row.name, 'Saved Dal Tadka');
  assert.equal(row.recipe_ingredients.length, 2);
  assert.ok(row.recipe_ingredients.every((ri) => ri.recipe_id === recipeUuid && ri.user_id === ada().id));
});

test('the registry state survives toJSON → createAct({ state }): saved refs and pending gen_ refs', async () => {
  const first = actFor();
  const read = ok(await first.act.execute('db_read', { table: 'tasks', filters: [{ field: 'title', op: 'ilike', value: '*fridge*' }] }));
  assert.equal(read.data.length, 1);
  const taskRef = read.data[0].id;
  const { data: gen } = first.act.registry.registerGenerated('recipes', { name: 'Kept Across Turns', instructions: ['x'] });
  const state = JSON.parse(JSON.stringify(first.act.registry.toJSON()));

  const second = actFor({ state });
  const genRead = ok(await second.act.execute('db_read', { table: 'recipes', filters: [{ field: 'id', op: '=', value: gen }] }));
  assert.equal(genRead.data[0].name, 'Kept Across Turns');
  assert.equal(second.fetch.requests.length, 0);
  const updated = ok(await second.act.execute('db_update', { table: 'tasks', filters: [{ field: 'id', op: '=', value: taskRef }], data: { completed: true } }));
  assert.equal(updated.data[0].id, taskRef, 'the same ref names the same row');
  const [row] = await dbRows(`/tasks?id=eq.${uuids(first.act).get(taskRef)}&select=completed,title`);
  assert.deepEqual(row, { completed: true, title: 'Clean out the fridge' });
});

// ---- 2. payload sanitizing --------------------------------------------------

test('create and update strip NUL bytes and turn "" into null for UUID columns; id and user_id are refused', async () => {
  const { act, fetch } = actFor();
  const plan = ok(await act.execute('db_read', { table: 'meal_plans', filters: [{ field: 'meal_type', op: '=', value: 'lunch' }], limit: 1 }));
  const mealRef = plan.data[0].id;

  const created = ok(
    await act.execute('db_create', { table: 'tasks', data: { title: 'Sharpen\u0000 knives\u0000', recipe_id: '', meal_plan_id: mealRef, category: 'prep' } }),
  );
  assert.equal(created.data.title, 'Sharpen knives');
  assert.equal(created.data.recipe_id, null);
  assert.equal(created.data.meal_plan_id, mealRef);
  const taskUuid = uuids(act).get(created.data.id);
  assert.ok(!fetch.requests.at(-1).body.includes('\\u0000'), 'no NUL travels');
  assert.deepEqual(await dbRows(`/tasks?id=eq.${taskUuid}&select=title,recipe_id,user_id`), [{ title: 'Sharpen knives', recipe_id: null, user_id: ada().id }]);

  const updated = ok(
    await act.execute('db_update', { table: 'tasks', filters: [{ field: 'id', op: '=', value: created.data.id }], data: { title: 'Hone\u0000 knives', meal_plan_id: '' } }),
  );
  assert.equal(updated.data[0].title, 'Hone knives');
  assert.equal(updated.data[0].meal_plan_id, null);
  assert.deepEqual(await dbRows(`/tasks?id=eq.${taskUuid}&select=title,meal_plan_id`), [{ title: 'Hone knives', meal_plan_id: null }]);

  const sent = fetch.requests.length;
  const refusals = [
    ['db_create', { table: 'tasks', data: { title: 'spoof', user_id: stack().users[1].id } }, 'data.user_id'],
    ['db_create', { table: 'tasks', data: { title: 'spoof', id: '7e1d0f6e-0000-4000-8000-000000000001' } }, 'data.id'],
    ['db_create', { table: 'tasks', data: [{ title: 'ok' }, { title: 'spoof', user_id: ada().id }] }, 'data[1].user_id'],
    ['db_update', { table: 'tasks', filters: [{ field: 'id', op: '=', value: created.data.id }], data: { user_id: stack().users[1].id } }, 'data.user_id'],
    ['db_update', { table: 'tasks', filters: [{ field: 'id', op: '=', value: created.data.id }], data: { id: created.data.id } }, 'data.id'],
  ];
  for (const [tool, params, path] of refusals) {
    const result = await act.execute(tool, params);
    assert.equal(result.error?.code, 'system_column', `${tool} ${JSON.stringify(params.data)}`);
    assert.equal(result.error.path, path);
  }
  assert.equal(fetch.requests.length, sent, 'refused before any HTTP');
  assert.equal((await dbRows('/tasks?title=eq.spoof&select=id')).length, 0);
  assert.deepEqual(await dbRows(`/tasks?id=eq.${taskUuid}&select=user_id`), [{ user_id: ada().id }]);
});

// ---- 3. middleware ----------------------------------------------------------

test('recipe names match fuzzily (= → ilike), recorded as requested and effective', async () => {
  const { act } = actFor();
  const result = ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: 'name', op: '=', value: 'butter CHICKEN' }], columns: ['name'] }));
  const expected = (await dbRows('/recipes?select=name&order=name')).filter((r) => r.name.toLowerCase().includes('butter chicken'));
  assert.deepEqual(result.data.map((r) => r.name).sort(), expected.map((r) => r.name).sort());
  assert.ok(expected.length >= 2);
  assert.deepEqual(result.query.requested.filters, [{ field: 'name', op: '=', value: 'butter CHICKEN' }]);
  assert.deepEqual(result.query.effective.filters, [{ field: 'name', op: 'ilike', value: '*butter CHICKEN*' }]);

  // LIKE metacharacters in the name stay literal: "100%" is not "100 then anything".
  const percent = ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: 'name', op: '=', value: '100%' }], columns: ['name'] }));
  assert.deepEqual(percent.data.map((r) => r.name), ['100% Rye Sourdough']);
  const apostrophe = ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: 'name', op: '=', value: "grandma's" }], columns: ['name'] }));
  assert.deepEqual(apostrophe.data.map((r) => r.name), ["Grandma's Apple Pie"]);
});

test('recipes come with their recipe_ingredients, nested refs translated', async () => {
  const { act } = actFor();
  const result = ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: 'name', op: '=', value: 'Chana Masala' }] }));
  assert.equal(result.data.length, 1);
  const [recipe] = result.data;
  const [truth] = await dbRows(`/recipes?name=eq.${enc('Chana Masala')}&select=id,recipe_ingredients(id,name,ingredient_id)`);
  assert.equal(recipe.recipe_ingredients.length, truth.recipe_ingredients.length);
  assert.ok(truth.recipe_ingredients.length > 3);
  const map = uuids(act);
  assert.equal(map.get(recipe.id), truth.id);
  for (const ri of recipe.recipe_ingredients) {
    assert.match(ri.id, /^ri_\d+$/);
    const row = truth.recipe_ingredients.find((t) => t.id === map.get(ri.id));
    assert.equal(ri.name, row.name);
    if (row.ingredient_id === null) assert.equal(ri.ingredient_id, null);
    else assert.equal(map.get(ri.ingredient_id), row.ingredient_id, 'nested FK translated to the right ing_ ref');
  }
  assert.deepEqual(result.query.effective.columns, ['*', 'recipe_ingredients(id,name,quantity,unit,ingredient_id,is_optional,notes)']);
});

test('inventory names go through the catalog; with no catalog match the name filter still applies', async () => {
  const { act, fetch } = actFor();
  const all = await dbRows('/inventory?select=id,name,ingredient_id');
  const [eggEntry] = await dbRows(`/ingredients?name=eq.egg&select=id`);

  const eggs = ok(await act.execute('db_read', { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'eggs' }] }));
  const expected = all.filter((r) => r.ingredient_id === eggEntry.id || r.name.toLowerCase().includes('eggs'));
  const map = uuids(act);
  assert.deepEqual(eggs.data.map((r) => map.get(r.id)).sort(), expected.map((r) => r.id).sort());
  assert.deepEqual(eggs.data.map((r) => r.name), ['egg']);
  assert.equal(eggs.data[0].ingredients.family, 'egg', 'catalog fields come along');
  const eggRef = [...map].find(([, uuid]) => uuid === eggEntry.id)[0];
  assert.deepEqual(eggs.query.effective.or_filters, [
    { field: 'ingredient_id', op: 'in', value: [eggRef] },
    { field: 'name', op: 'ilike', value: '*eggs*' },
  ]);
  assert.equal(fetch.requests.length, 2, 'one catalog lookup, one read');

  const none = ok(await act.execute('db_read', { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'unobtainium' }] }));
  assert.deepEqual(none.data, [], 'no match is no rows, never every row');
  assert.deepEqual(none.query.effective.filters, [{ field: 'name', op: 'ilike', value: '*unobtainium*' }]);
  assert.ok(none.query.notes.some((note) => note.includes('no catalog entry')));

  const shopping = await dbRows('/shopping_list?select=id,name');
  const oat = ok(await act.execute('db_read', { table: 'shopping_list', filters: [{ field: 'name', op: '=', value: 'oat milk' }] }));
  const oatExpected = shopping.filter((r) => r.name.includes('oat milk'));
  assert.equal(oatExpected.length, 1);
  assert.deepEqual(oat.data.map((r) => r.name), oatExpected.map((r) => r.name));
  assert.ok(oat.data.length < shopping.length);
});

async function rpcRanking(user, text, count = 20) {
  const [vector] = await lexicalEmbedder.embed([text]);
  const { status, body } = await rest(stack(), user.token, 'POST', '/rpc/match_recipes', {
    body: { query_embedding: JSON.stringify(vector), match_count: count, max_distance: 0.7 },
  });
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

test('semantic search: ranked through match_recipes with the lexical embedder, limit applied after ranking', async () => {
  const { act, fetch } = actFor();
  const text = 'spicy chicken curry';
  const ranking = await rpcRanking(ada(), text);
  assert.ok(ranking.length >= 3, 'the seed has several matches');

  const result = ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: text }], limit: 2, columns: ['name'] }));
  assert.deepEqual(result.data.map((r) => r.name), ranking.slice(0, 2).map((r) => r.name), 'the two best, best first');
  assert.equal(result.count, 2);
  const main = fetch.requests.at(-1);
  assert.ok(!new URL(main.url).searchParams.has('limit'), 'the limit is not sent with id=in.(…)');
  assert.ok(fetch.requests.some((r) => r.url.endsWith('/rpc/match_recipes') && r.method === 'POST'));
  assert.equal(result.query.effective.filters[0].field, 'id');
  assert.ok(result.query.effective.filters[0].value.every((ref) => /^recipe_\d+$/.test(ref)));
  assert.equal(result.query.requested.filters[0].op, 'similar');

  const unlimited = ok(await act.execute('db_read', { table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: text }], columns: ['name'] }));
  assert.deepEqual(unlimited.data.map((r) => r.name), ranking.map((r) => r.name));
});

test('no embedder given: the kitchen demo\'s domain, or a copy of it, searches with the lexical one its rows were embedded with; another domain named kitchen gets none', async () => {
  const search = { table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: 'spicy chicken curry' }], limit: 1, columns: ['name'] };
  const copy = JSON.parse(JSON.stringify(core.kitchen));
  for (const domain of [undefined, copy]) assert.equal(ok(await actFor({ domain }).act.execute('db_read', search)).data.length, 1);
  const other = { ...copy, tables: { ...copy.tables }, max_rows: 999 };
  const { act, fetch } = actFor({ domain: other });
  const refused = await act.execute('db_read', search);
  assert.equal(refused.error?.code, 'embedding_failed');
  assert.match(refused.error.message, /no embedder was given/);
  assert.equal(fetch.requests.length, 0);
});

test('semantic search failures are errors, not "no results"', async () => {
  const wrongRpc = recordingFetch({ rewrite: (url) => url.replace('/rpc/match_recipes', '/rpc/match_recipes_gone') });
  const { act } = actFor({ fetch: wrongRpc });
  const missing = await act.execute('db_read', { table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: 'curry' }] });
  assert.equal(missing.data, null);
  assert.equal(missing.error.code, 'unknown_function');
  assert.equal(missing.error.status, 404);

  const failing = actFor({ embedder: { embed: async () => { throw new Error('embedding service down'); } } });
  const result = await failing.act.execute('db_read', { table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: 'curry' }] });
  assert.equal(result.data, null);
  assert.equal(result.error.code, 'embedding_failed');
  assert.match(result.error.message, /embedding service down/);
  assert.equal(failing.fetch.requests.length, 0);

  const garbage = actFor({ embedder: { embed: async () => [['not', 'numbers']] } });
  assert.equal((await garbage.act.execute('db_read', { table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: 'x' }] })).error.code, 'embedding_failed');
});

test('writes are enriched from the catalog before they are sent, and batches are de-duplicated', async () => {
  const { act, fetch } = actFor();
  const [tomato] = await dbRows('/ingredients?name=eq.tomato&select=id,category');
  const created = ok(await act.execute('db_create', { table: 'inventory', data: { name: 'Vine Tomatoes', quantity: 6, unit: 'piece', location: 'counter' } }));
  const body = JSON.parse(fetch.requests.at(-1).body);
  assert.equal(body.ingredient_id ?? body[0]?.ingredient_id, tomato.id, 'ingredient_id filled in the request');
  const map = uuids(act);
  assert.equal(map.get(created.data.ingredient_id), tomato.id);
  assert.deepEqual(await dbRows(`/inventory?id=eq.${map.get(created.data.id)}&select=ingredient_id,category,user_id`), [
    { ingredient_id: tomato.id, category: tomato.category, user_id: ada().id },
  ]);

  const before = await dbRows('/shopping_list?select=id');
  const batch = ok(
    await act.execute('db_create', {
      table: 'shopping_list',
      data: [
        { name: 'lime', quantity: 1, unit: 'piece' },
        { name: 'Limes', quantity: 5, unit: 'piece' },
        { name: 'Zebra Cake Mix', quantity: 1 },
        { name: 'zebra cake mix ', quantity: 2 },
      ],
    }),
  );
  assert.equal(batch.data.length, 2);
  assert.ok(batch.query.notes.some((note) => note.includes('2 duplicate row(s)')), batch.query.notes.join('\n'));
  const after = await dbRows('/shopping_list?select=id,name,quantity,ingredient_id');
  assert.equal(after.length, before.length + 2);
  const [limeEntry] = await dbRows('/ingredients?name=eq.lime&select=id');
  const newRows = after.filter((r) => !before.some((b) => b.id === r.id));
  assert.deepEqual(
    newRows.map(({ name, quantity, ingredient_id }) => ({ name, quantity, ingredient_id })).sort((a, b) => a.name.localeCompare(b.name)),
    [
      { name: 'Limes', quantity: 5, ingredient_id: limeEntry.id },
      { name: 'zebra cake mix ', quantity: 2, ingredient_id: null },
    ],
    'the last of each duplicate is kept',
  );
});

// ---- 4. user scoping --------------------------------------------------------

test('reads, updates and deletes carry the owner filter; creates get the owner injected', async () => {
  const { act, fetch } = actFor();
  const owner = `user_id=eq.${ada().id}`;
  const read = ok(await act.execute('db_read', { table: 'shopping_list', filters: [{ field: 'is_purchased', op: '=', value: true }] }));
  assert.ok(read.data.length >= 1);
  const readRequest = fetch.requests.find((r) => new URL(r.url).pathname === '/shopping_list');
  assert.ok(readRequest.url.includes(`&${owner}`) || readRequest.url.includes(`?${owner}`), readRequest.url);

  const created = ok(await act.execute('db_create', { table: 'tasks', data: { title: 'Scoped task' } }));
  assert.equal(JSON.parse(fetch.requests.at(-1).body).user_id, ada().id);
  ok(await act.execute('db_update', { table: 'tasks', filters: [{ field: 'id', op: '=', value: created.data.id }], data: { title: 'Scoped task 2' } }));
  assert.equal(new URL(fetch.requests.at(-1).url).searchParams.get('user_id'), `eq.${ada().id}`);
  const deleted = ok(await act.execute('db_delete', { table: 'tasks', filters: [{ field: 'id', op: '=', value: created.data.id }] }));
  assert.equal(new URL(fetch.requests.at(-1).url).searchParams.get('user_id'), `eq.${ada().id}`);
  assert.equal(deleted.data[0].title, 'Scoped task 2');
  assert.deepEqual(await dbRows(`/tasks?title=like.Scoped*&select=id`), []);
  const ownTables = fetch.requests.filter((r) => r.method === 'GET' && new URL(r.url).pathname !== '/ingredients');
  assert.ok(ownTables.length >= 1);
  for (const request of ownTables) {
    assert.equal(new URL(request.url).searchParams.get('user_id'), `eq.${ada().id}`, request.url);
  }
});

test('updates and deletes without a real filter, and tables outside the domain, are refused before any HTTP', async () => {
  const { act, fetch } = actFor();
  const before = await dbRows('/inventory?select=id,quantity&order=id');
  const refused = [
    ['db_delete', { table: 'inventory', filters: [] }],
    ['db_delete', { table: 'inventory' }],
    ['db_update', { table: 'inventory', filters: [], data: { quantity: 0 } }],
    ['db_update', { table: 'inventory', filters: [{ field: 'id', op: 'is_not_null' }], data: { quantity: 0 } }],
    ['db_delete', { table: 'inventory', filters: [{ field: 'name', op: 'ilike', value: '%' }] }],
    ['db_delete', { table: 'inventory', filters: [{ field: 'user_id', op: '=', value: ada().id }] }],
  ];
  for (const [tool, params] of refused) {
    const result = await act.execute(tool, params);
    assert.ok(result.error, `${tool} ${JSON.stringify(params)} is refused`);
    assert.equal(result.data, null);
  }
  const outside = ['auth.users', 'users', 'pg_catalog.pg_roles', 'rpc/match_recipes', 'recipes?select=*', '../recipes', 'information_schema.tables'];
  for (const table of outside) {
    const result = await act.execute('db_read', { table });
    assert.equal(result.error?.code, 'unknown_table', table);
  }
  const catalogWrite = await act.execute('db_delete', { table: 'ingredients', filters: [{ field: 'name', op: '=', value: 'egg' }] });
  assert.ok(catalogWrite.error, 'the read-only catalog cannot be written');
  assert.equal(fetch.requests.length, 0);
  assert.deepEqual(await dbRows('/inventory?select=id,quantity&order=id'), before);
  assert.equal((await dbRows('/ingredients?name=eq.egg&select=id')).length, 1);
});

// ---- 5. output translation --------------------------------------------------

test('FK labels come with the read itself; no UUID and no user_id reach the model', async () => {
  const { act, fetch } = actFor();
  const result = ok(await act.execute('db_read', { table: 'meal_plans', order_by: 'date' }));
  const truth = await dbRows('/meal_plans?select=id,recipe_id,recipes(name)');
  const map = uuids(act);
  assert.equal(result.data.length, truth.length);
  for (const row of result.data) {
    const expected = truth.find((t) => t.id === map.get(row.id));
    if (expected.recipe_id === null) {
      assert.equal(row.recipe_id, null);
      assert.ok(!('_recipe_id_label' in row));
    } else {
      assert.equal(map.get(row.recipe_id), expected.recipe_id);
      assert.equal(row._recipe_id_label, expected.recipes.name, `label of ${row.id}`);
    }
  }
  assert.deepEqual(fetch.requests.map((r) => new URL(r.url).pathname), ['/meal_plans'], 'one request: no lookup after it');
  assert.ok(result.data.every((row) => Object.keys(row).every((key) => !key.startsWith('_label_'))), 'the embeds never reach the caller');
  // Every read brings the labels along: rows the session knows are
  // translated as known, and a read that meets new ones is one request too.
  fetch.reset();
  const next = ok(await act.execute('db_read', { table: 'meal_plans', limit: 5 }));
  assert.equal(fetch.requests.length, 1);
  assert.ok(new URL(fetch.requests[0].url).searchParams.get('select').includes('_label_recipe_id:recipe_id(name)'));
  assert.ok(next.data.length > 0);
  for (const row of next.data) assert.deepEqual(row, result.data.find((first) => first.id === row.id), `row ${row.id} read again`);
  const keys = Object.keys(result.data[0]);
  assert.equal(keys.indexOf('_recipe_id_label'), keys.indexOf('recipe_id') + 1, 'the label follows its FK');
});

test('the query record: tool, table, limit, order, count; "none" filters; never UUIDs', async () => {
  const { act } = actFor();
  const result = ok(await act.execute('db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'pantry' }], limit: 100, order_by: 'name', order_dir: 'desc' }));
  const truth = await dbRows('/inventory?location=eq.pantry&select=name&order=name.desc');
  assert.deepEqual(result.data.map((r) => r.name), truth.map((r) => r.name));
  assert.equal(result.count, truth.length);
  assert.equal(result.query.tool, 'db_read');
  assert.equal(result.query.table, 'inventory');
  assert.equal(result.query.count, truth.length);
  assert.equal(result.query.requested.limit, 100);
  assert.equal(result.query.requested.order_by, 'name');
  assert.equal(result.query.requested.order_dir, 'desc');
  assert.match(core.renderQuery(result.query).data, /^Query: Table: inventory \| Filters: location = pantry \| Order: name desc \| Limit: 100$/m);
  const plain = ok(await act.execute('db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'pantry' }], limit: 100 }));
  assert.match(core.renderQuery(plain.query).data, /^Query: Table: inventory \| Filters: location = pantry \| Limit: 100$/m);

  const counted = ok(await act.execute('db_read', { table: 'inventory', limit: 2, count: 'exact' }));
  assert.equal(counted.data.length, 2);
  assert.equal(counted.count, (await dbRows('/inventory?select=id')).length, 'count is the total, not the page');
  const all = ok(await act.execute('db_read', { table: 'preferences' }));
  assert.match(core.renderQuery(all.query).data, /Filters: none \(all records\)/);

  const byRef = ok(await act.execute('db_read', { table: 'inventory', filters: [{ field: 'id', op: 'in', value: result.data.slice(0, 2).map((r) => r.id) }] }));
  assert.deepEqual(byRef.query.requested.filters[0].value, result.data.slice(0, 2).map((r) => r.id), 'refs, as written');
});

test('not_in with several refs excludes exactly those rows', async () => {
  const { act } = actFor();
  const all = ok(await act.execute('db_read', { table: 'inventory', limit: 1000 }));
  const excluded = [all.data[0].id, all.data[3].id, all.data[7].id];
  const rest_ = ok(await act.execute('db_read', { table: 'inventory', filters: [{ field: 'id', op: 'not_in', value: excluded }], limit: 1000 }));
  assert.deepEqual(rest_.data.map((r) => r.id).sort(), all.data.map((r) => r.id).filter((id) => !excluded.includes(id)).sort());
  assert.equal(rest_.count, all.count - 3);
  const truth = await dbRows('/inventory?select=id');
  assert.equal(all.count, truth.length);
});

test('update and delete by ref change exactly that row', async () => {
  const { act, fetch } = actFor();
  const read = ok(await act.execute('db_read', { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'ginger' }] }));
  assert.equal(read.data.length, 1);
  const ref = read.data[0].id;
  const uuid = uuids(act).get(ref);
  const before = await dbRows('/inventory?select=id,quantity&order=id');
  const updated = ok(await act.execute('db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }], data: { quantity: 61, notes: 'weighed' } }));
  assert.deepEqual([updated.data[0].id, updated.data[0].quantity, updated.count], [ref, 61, 1]);
  const after = await dbRows('/inventory?select=id,quantity&order=id');
  assert.deepEqual(after, before.map((row) => (row.id === uuid ? { ...row, quantity: 61 } : row)));

  const deleted = ok(await act.execute('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] }));
  assert.equal(deleted.data[0].id, ref);
  assert.deepEqual(await dbRows(`/inventory?id=eq.${uuid}&select=id`), []);
  assert.equal((await dbRows('/inventory?select=id')).length, before.length - 1);
  const requests = fetch.requests.length;
  const again = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] });
  assert.equal(again.error.code, 'deleted_ref', 'a deleted ref is known to be gone');
  assert.equal(fetch.requests.length, requests);
});

// ---- 7. errors --------------------------------------------------------------

test('database errors are typed by status and code, and leave the database unchanged', async () => {
  const { act } = actFor();
  const logsBefore = await dbRows('/cooking_log?select=id');
  const check = await act.execute('db_create', { table: 'cooking_log', data: { rating: 9, notes: 'too good' } });
  assert.deepEqual([check.error.code, check.error.status, check.error.dbCode, check.data], ['check_violation', 400, '23514', null]);
  assert.deepEqual(await dbRows('/cooking_log?select=id'), logsBefore);

  const duplicate = await act.execute('db_create', { table: 'preferences', data: { household_adults: 3 } });
  assert.deepEqual([duplicate.error.code, duplicate.error.status, duplicate.error.dbCode], ['duplicate', 409, '23505']);
  assert.deepEqual(await dbRows('/preferences?select=household_adults'), [{ household_adults: 2 }]);
  assertModelFacing(duplicate);
});

test('401 for bad or expired tokens, network_error for a closed port, server_error for a text/plain 500', async () => {
  const bad = actFor({ user: { id: ada().id, token: 'not.a.jwt' } });
  const badResult = await bad.act.execute('db_read', { table: 'tasks' });
  assert.deepEqual([badResult.error.code, badResult.error.status], ['unauthorized', 401]);

  const now = Math.floor(Date.now() / 1000);
  const expiredToken = signJwt({ sub: ada().id, role: 'authenticated', aud: 'authenticated', iat: now - 7200, exp: now - 3600 }, stack().jwtSecret);
  const expired = actFor({ user: { id: ada().id, token: expiredToken } });
  const expiredResult = await expired.act.execute('db_read', { table: 'tasks' });
  assert.deepEqual([expiredResult.error.code, expiredResult.error.status], ['unauthorized', 401]);

  const closed = core.createAct({ restUrl: 'http://127.0.0.1:9', apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id });
  const network = await closed.execute('db_read', { table: 'tasks' });
  assert.equal(network.error.code, 'network_error');
  assert.equal(network.data, null);

  const boom = recordingFetch({ respond: () => new Response('boom', { status: 500, headers: { 'content-type': 'text/plain' } }) });
  const server = actFor({ fetch: boom });
  const serverResult = await server.act.execute('db_read', { table: 'tasks' });
  assert.deepEqual([serverResult.error.code, serverResult.error.status], ['server_error', 500]);
  assert.match(serverResult.error.message, /boom/);
});

test('a ref to a row deleted since is refused by the database, typed (RLS checks the parent: 42501)', async () => {
  // The ref is real (the model saw the row), but the row was deleted since,
  // elsewhere: the database is what knows. The kitchen's insert policy checks
  // the parent recipe exists before the foreign key would.
  const { act, fetch } = actFor();
  const created = ok(await act.execute('db_create', { table: 'recipes', data: { name: 'Gone Soon', instructions: ['x'] } }));
  const ref = created.data.id;
  const gone = await rest(stack(), ada().token, 'DELETE', `/recipes?id=eq.${uuids(act).get(ref)}`);
  assert.equal(gone.status, 204);
  const before = await dbRows('/recipe_ingredients?select=id');
  const sent = fetch.requests.length;
  const result = await act.execute('db_create', { table: 'recipe_ingredients', data: { recipe_id: ref, name: 'ghost' } });
  assert.equal(fetch.requests.at(-1).method, 'POST', 'the database decides');
  assert.ok(fetch.requests.length > sent);
  assert.deepEqual([result.error.code, result.error.dbCode, result.data], ['permission_denied', '42501', null]);
  assertModelFacing(result);
  assert.equal((await dbRows('/recipe_ingredients?select=id')).length, before.length);
});

test('a raw UUID where a ref belongs is refused before any request, with the ref to use', async () => {
  const { act, fetch } = actFor();
  const read = ok(await act.execute('db_read', { table: 'recipes', columns: ['name'], limit: 1 }));
  const [{ id: ref }] = read.data;
  const sent = fetch.requests.length;
  const pasted = await act.execute('db_read', { table: 'recipes', filters: [{ field: 'id', op: '=', value: uuids(act).get(ref).toUpperCase() }] });
  assert.equal(fetch.requests.length, sent, 'nothing sent');
  assert.deepEqual([pasted.error.code, pasted.error.path, pasted.error.hint], ['raw_id', 'filters[0].value', `use the ref ${ref}`]);
  assert.doesNotMatch(JSON.stringify(pasted.error), UUID);
  const foreign = await act.execute('db_create', { table: 'inventory', data: { name: 'ghost', quantity: 1, unit: 'g', ingredient_id: '3f1c2b9e-7d4a-4c1b-9e2f-5a6b7c8d9e0f' } });
  assert.equal(fetch.requests.length, sent, 'nothing sent');
  assert.deepEqual([foreign.error.code, foreign.error.path], ['raw_id', 'data.ingredient_id']);
});

// `url` with its select changed by `change` (the other parameters as they were).
function withSelect(url, change) {
  const parsed = new URL(url);
  const select = parsed.searchParams.get('select');
  if (select !== null) parsed.searchParams.set('select', change(select));
  return parsed.toString();
}

test('labels the read could not bring come from a lookup after it', async () => {
  // A relationship PostgREST does not know (a foreign key the domain declares
  // and the database does not): a real 400 (PGRST200). The read is sent again
  // without it, and the labels are looked up.
  const fetch = recordingFetch({ rewrite: (url) => withSelect(url, (select) => select.replace(':recipe_id(', ':recipe_idx(')) });
  const { act } = actFor({ fetch });
  const result = ok(await act.execute('db_read', { table: 'meal_plans', filters: [{ field: 'recipe_id', op: 'is_not_null' }] }));
  const truth = await dbRows('/meal_plans?recipe_id=not.is.null&select=id,recipes(name)');
  assert.equal(result.data.length, truth.length);
  const map = uuids(act);
  for (const row of result.data) assert.equal(row._recipe_id_label, truth.find((t) => t.id === map.get(row.id)).recipes.name, `label of ${row.id}`);
  assert.deepEqual(
    fetch.requests.map((r) => [r.status, new URL(r.url).pathname]),
    [[400, '/meal_plans'], [200, '/meal_plans'], [200, '/recipes']],
  );
  assert.ok(!new URL(fetch.requests[1].url).searchParams.get('select').includes('_label_'), 'the second read is the call as asked');
  // The registry remembers the refusal (in its state too): the next read
  // does not try the join again, nor does an act restored from the state.
  fetch.reset();
  ok(await act.execute('db_read', { table: 'meal_plans', limit: 3 }));
  assert.deepEqual(fetch.requests.map((r) => r.status), [200]);
  const state = act.registry.toJSON();
  assert.deepEqual(state.joins_refused, ['meal_plans']);
  const { act: restored } = actFor({ fetch, state });
  fetch.reset();
  ok(await restored.execute('db_read', { table: 'meal_plans', limit: 3 }));
  assert.deepEqual(fetch.requests.map((r) => r.status), [200]);
});

test('a read over maxResponseBytes only with the labels\' rows along goes again without them, then looks them up', async () => {
  const truth = await dbRows('/meal_plans?select=id,recipe_id,recipes(name)');
  assert.ok(truth.some((plan) => plan.recipe_id !== null), 'some meal plan has a recipe');
  // The size of the read with the join, as the stack sends it; a byte less is the limit.
  let joined = 0;
  const probe = actFor({
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (new URL(url).searchParams.get('select').includes('_label_')) joined = bytes.length;
      return new Response(bytes, { status: response.status, headers: response.headers });
    },
  });
  ok(await probe.act.execute('db_read', { table: 'meal_plans' }));
  assert.ok(joined > 0);
  const recorder = recordingFetch();
  const { act } = actFor({ fetch: recorder, limits: { maxResponseBytes: joined - 1 } });
  const result = ok(await act.execute('db_read', { table: 'meal_plans' }));
  assert.equal(result.data.length, truth.length);
  const map = uuids(act);
  for (const row of result.data) {
    const expected = truth.find((t) => t.id === map.get(row.id));
    if (expected.recipe_id) assert.equal(row._recipe_id_label, expected.recipes.name, `label of ${row.id}`);
  }
  const sent = recorder.requests.map((r) => [new URL(r.url).pathname, new URL(r.url).searchParams.get('select').includes('_label_')]);
  assert.deepEqual(sent, [['/meal_plans', true], ['/meal_plans', false], ['/recipes', false]]);
  assert.equal(act.registry.toJSON().joins_refused, undefined, 'a size is not the database refusing');
});

test('a failed label lookup leaves the main result intact, without those labels', async () => {
  // The read does not bring the labels (its embed is taken out on the way),
  // and the lookup is sent to a table PostgREST does not have: a real 404.
  const fetch = recordingFetch({
    rewrite: (url) => {
      if (new URL(url).pathname === '/recipes') return url.replace('/recipes?', '/recipes_gone?');
      const parsed = new URL(withSelect(url, (select) => select.replace(',_label_recipe_id:recipe_id(name)', '')));
      for (const key of [...parsed.searchParams.keys()]) if (key.startsWith('_label_')) parsed.searchParams.delete(key);
      return parsed.toString();
    },
  });
  const { act } = actFor({ fetch });
  const result = ok(await act.execute('db_read', { table: 'meal_plans', filters: [{ field: 'recipe_id', op: 'is_not_null' }] }));
  const truth = await dbRows('/meal_plans?recipe_id=not.is.null&select=id');
  assert.equal(result.data.length, truth.length);
  assert.ok(result.data.every((row) => /^recipe_\d+$/.test(row.recipe_id) && !('_recipe_id_label' in row)));
  assert.ok(result.query.notes.some((note) => note.includes('labels of recipes rows could not be fetched')), result.query.notes.join('\n'));
  assert.ok(fetch.requests.some((r) => new URL(r.url).pathname === '/recipes'), 'the lookup was attempted');
});
