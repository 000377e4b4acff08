// Security of the executor against the real local stack: two users with their
// own JWTs, neither able to read, change or delete the other's rows through
// any tool call; hostile filter values and payloads that must never widen a
// request; and no service key on any request. Ground truth comes from
// PostgREST itself (each user's token), compared with what execute returned.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadCore } from '../../web/src/index.node.js';
import { HOSTILE_COLUMNS, HOSTILE_VALUES } from './fixtures/hostile-values.mjs';
import { recordingFetch } from './support/recording-fetch.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
const ben = () => stack().users[1];
let core;
before(async () => {
  core = await loadCore();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const USER_TABLES = ['recipes', 'recipe_ingredients', 'inventory', 'shopping_list', 'meal_plans', 'tasks', 'preferences', 'cooking_log'];

// Every fetch any act of this file used: checked for the service key at the end.
const fetches = [];
function actFor(user, options = {}) {
  const fetch = recordingFetch();
  fetches.push(fetch);
  const act = core.createAct({ restUrl: stack().url, apiKey: stack().anonKey, accessToken: user.token, userId: user.id, fetch, ...options });
  return { act, fetch };
}

after(() => {
  // stack() keeps its keys after the stack stops, whichever hook runs first.
  const { serviceKey } = stack();
  const all = fetches.flatMap((fetch) => fetch.requests);
  assert.ok(all.length > 300, `the suite sent ${all.length} requests`);
  for (const request of all) {
    for (const [name, value] of Object.entries(request.headers)) {
      assert.ok(!String(value).includes(serviceKey), `${name} of ${request.method} ${request.url} carries the service key`);
    }
    assert.equal(request.headers.apikey, stack().anonKey);
    assert.ok([ada(), ben()].some((user) => request.headers.authorization === `Bearer ${user.token}`));
  }
});

async function dbRows(path, user) {
  const { status, body } = await rest(stack(), user.token, 'GET', path);
  assert.equal(status, 200, `GET ${path}: ${JSON.stringify(body)}`);
  return body;
}

/** A snapshot of every user-owned table as `user` sees it (ids and all columns but embeddings). */
async function snapshot(user) {
  const out = {};
  for (const table of USER_TABLES) {
    const select = table === 'recipes' ? 'id,user_id,name,description,tags,servings,parent_recipe_id' : '*';
    out[table] = await dbRows(`/${table}?select=${select}&order=id`, user);
  }
  return out;
}

function uuidsOf(act) {
  return new Map(act.registry.toJSON().refs.map((entry) => [entry.ref, entry.uuid]));
}

// ---- two users --------------------------------------------------------------

test('refs leaked from the other user\'s registry state reach none of their rows', async () => {
  const benBefore = await snapshot(ben());
  const benAct = actFor(ben()).act;
  const leaked = {};
  for (const table of ['recipes', 'inventory', 'shopping_list', 'meal_plans', 'tasks', 'preferences', 'cooking_log', 'recipe_ingredients']) {
    const { data, error } = await benAct.execute('db_read', { table, limit: 5, columns: ['id'] });
    assert.equal(error, null);
    leaked[table] = data.map((row) => row.id);
  }
  // Ben's state as saved is refused for Ada; with its user taken out, RLS alone keeps his rows from her.
  const { user: _ben, ...state } = benAct.registry.toJSON();
  assert.equal(_ben, ben().id);
  const { act, fetch } = actFor(ada(), { state });
  for (const [table, refs] of Object.entries(leaked)) {
    const read = await act.execute('db_read', { table, filters: [{ field: 'id', op: 'in', value: refs }] });
    assert.equal(read.error, null, JSON.stringify(read.error));
    assert.deepEqual(read.data, [], `Ada reads none of Ben's ${table}`);
    const one = await act.execute('db_read', { table, filters: [{ field: 'id', op: '=', value: refs[0] }] });
    assert.deepEqual(one.data, []);
    const notIn = await act.execute('db_read', { table, filters: [{ field: 'id', op: 'not_in', value: refs }], limit: 1000 });
    const adaRows = await dbRows(`/${table}?select=id`, ada());
    assert.equal(notIn.data.length, adaRows.length, `not_in over Ben's refs is all of Ada's ${table}, and only hers`);
  }
  const updates = {
    recipes: { servings: 99 },
    inventory: { quantity: 0 },
    shopping_list: { is_purchased: true },
    meal_plans: { servings: 9 },
    tasks: { completed: true },
    preferences: { household_adults: 9 },
    cooking_log: { notes: 'pwned' },
    recipe_ingredients: { notes: 'pwned' },
  };
  for (const [table, refs] of Object.entries(leaked)) {
    const updated = await act.execute('db_update', { table, filters: [{ field: 'id', op: 'in', value: refs }], data: updates[table] });
    assert.equal(updated.error, null, JSON.stringify(updated.error));
    assert.deepEqual(updated.data, []);
    const deleted = await act.execute('db_delete', { table, filters: [{ field: 'id', op: 'in', value: refs }] });
    assert.deepEqual(deleted.data, []);
    assert.ok(deleted.query.notes.some((note) => note.includes('no row matched')));
  }
  // Pointing Ada's new rows at Ben's recipe (a leaked ref) is refused by the database.
  const link = await act.execute('db_create', { table: 'meal_plans', data: { date: '2030-01-01', meal_type: 'dinner', recipe_id: leaked.recipes[0] } });
  assert.ok(link.error, 'linking to the other user\'s recipe fails');
  assert.equal(link.error.code, 'permission_denied');
  for (const request of fetch.requests.filter((r) => r.method !== 'POST' && new URL(r.url).pathname !== '/ingredients')) {
    assert.equal(new URL(request.url).searchParams.get('user_id'), `eq.${ada().id}`, request.url);
  }
  assert.deepEqual(await snapshot(ben()), benBefore, 'Ben\'s rows are untouched');
});

test('raw UUIDs of the other user\'s rows, spoofed user_id and or_filters tricks are refused or match nothing of theirs', async () => {
  const benBefore = await snapshot(ben());
  const benRecipe = (await dbRows('/recipes?select=id,name&name=eq.Butter%20Chicken', ben()))[0];
  const benInventory = await dbRows('/inventory?select=id', ben());
  const { act, fetch } = actFor(ada());
  const sent = () => fetch.requests.length;

  // Well-formed UUIDs are taken as rows the user may have named: the request
  // goes out under Ada's scope and RLS, and finds nothing of Ben's.
  const rawUuids = [
    ['db_read', { table: 'recipes', filters: [{ field: 'id', op: '=', value: benRecipe.id }] }],
    ['db_read', { table: 'recipes', filters: [{ field: 'id', op: 'in', value: [benRecipe.id] }] }],
    ['db_read', { table: 'inventory', or_filters: [{ field: 'id', op: '=', value: benInventory[0].id }, { field: 'name', op: '=', value: 'no such thing' }] }],
    ['db_read', { table: 'meal_plans', filters: [{ field: 'recipe_id', op: '=', value: benRecipe.id }] }],
    ['db_update', { table: 'recipes', filters: [{ field: 'id', op: '=', value: benRecipe.id }], data: { servings: 1 } }],
    ['db_delete', { table: 'inventory', filters: [{ field: 'id', op: 'in', value: benInventory.map((r) => r.id) }] }],
  ];
  for (const [tool, params] of rawUuids) {
    const before = sent();
    const result = await act.execute(tool, params);
    const label = `${tool} ${JSON.stringify(params)}`;
    if (result.error) assert.equal(sent(), before, `${label}: refused without HTTP`);
    else assert.deepEqual(result.data, [], `${label}: nothing of Ben's`);
    assert.doesNotMatch(JSON.stringify(result.query), UUID, `${label}: the query record shows no UUID`);
  }
  const foreignLink = await act.execute('db_create', { table: 'meal_plans', data: { date: '2030-01-02', meal_type: 'lunch', recipe_id: benRecipe.id } });
  assert.ok(foreignLink.error, 'a new row cannot point at the other user\'s recipe');
  assert.equal((await dbRows('/meal_plans?date=eq.2030-01-02&select=id', ada())).length, 0);

  const refused = [
    ['db_read', { table: 'recipes', filters: [{ field: 'user_id', op: '=', value: ben().id }] }],
    ['db_read', { table: 'recipes', filters: [{ field: 'user_id', op: '!=', value: ada().id }] }],
    ['db_read', { table: 'recipes', or_filters: [{ field: 'user_id', op: '=', value: ben().id }, { field: 'name', op: '=', value: 'x' }] }],
    ['db_read', { table: 'recipes', filters: [{ field: 'user_id', op: 'is_not_null' }] }],
    ['db_delete', { table: 'recipes', filters: [{ field: 'user_id', op: '=', value: ben().id }] }],
    ['db_update', { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'egg' }], data: { user_id: ben().id } }],
    ['db_create', { table: 'inventory', data: { name: 'planted', quantity: 1, unit: 'g', user_id: ben().id } }],
    ['db_read', { table: 'recipes', filters: [{ field: 'recipe_ingredients.user_id', op: '=', value: ben().id }] }],
    ['db_read', { table: 'recipes', columns: ['user_id'] }],
    ['db_read', { table: 'recipes', columns: ['*', 'recipe_ingredients(user_id)'] }],
    ['db_read', { table: 'recipes', order_by: 'user_id' }],
    ['db_read', { table: 'recipes', or_filters: [{ field: 'or', op: '=', value: '(user_id.eq.x)' }] }],
  ];
  for (const [tool, params] of refused) {
    const before = sent();
    const result = await act.execute(tool, params);
    assert.ok(result.error, `${tool} ${JSON.stringify(params)} is refused`);
    assert.equal(result.data, null);
    assert.equal(sent(), before, `${tool} ${JSON.stringify(params)} sent nothing`);
    assert.doesNotMatch(JSON.stringify(result.query), UUID);
  }

  // or_filters that try to break out of their group stay one value each.
  const tricks = ['x),user_id.neq.null,and(id.is.null', 'x,user_id.not.is.null', 'Butter Chicken),or(user_id.not.is.null'];
  for (const value of tricks) {
    const result = await act.execute('db_read', { table: 'recipes', or_filters: [{ field: 'description', op: '=', value }, { field: 'cuisine', op: '=', value }] });
    assert.equal(result.error, null);
    assert.deepEqual(result.data, []);
  }
  assert.deepEqual(await snapshot(ben()), benBefore);
});

test('same-named rows: each user reads, updates and deletes only their own', async () => {
  const adaAct = actFor(ada()).act;
  const benAct = actFor(ben()).act;
  const adaRead = await adaAct.execute('db_read', { table: 'recipes', filters: [{ field: 'name', op: '=', value: 'Butter Chicken' }], columns: ['name', 'description'] });
  const benRead = await benAct.execute('db_read', { table: 'recipes', filters: [{ field: 'name', op: '=', value: 'Butter Chicken' }], columns: ['name', 'description'] });
  assert.ok(adaRead.data.every((r) => !r.description.startsWith("Ben's")));
  assert.deepEqual(benRead.data.map((r) => r.description), ["Ben's version: smoky, with charred chicken and extra chili."]);
  const adaUuids = new Set((await dbRows('/recipes?select=id', ada())).map((r) => r.id));
  for (const { id } of adaRead.data) assert.ok(adaUuids.has(uuidsOf(adaAct).get(id)), `${id} is Ada's`);

  const benMilkBefore = await dbRows('/inventory?name=eq.milk&select=quantity', ben());
  const updated = await adaAct.execute('db_update', { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'milk' }], data: { quantity: 1 } });
  assert.equal(updated.error, null);
  assert.ok(updated.data.length >= 1);
  assert.deepEqual(await dbRows('/inventory?name=eq.milk&select=quantity', ben()), benMilkBefore);
  const deleted = await adaAct.execute('db_delete', { table: 'shopping_list', filters: [{ field: 'name', op: '=', value: 'lime' }] });
  assert.equal(deleted.error, null);
  assert.equal(deleted.data.length, 1);
  assert.equal((await dbRows('/shopping_list?name=eq.lime&select=id', ada())).length, 0);
  assert.equal((await dbRows('/inventory?name=eq.lime&select=id', ben())).length, 1, 'Ben\'s lime is still there');
});

// ---- hostile values ---------------------------------------------------------

// PostgreSQL's LIKE (backslash escapes, % and _), with PostgREST's * for %.
function likeRegex(pattern, flags) {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      if (i + 1 >= pattern.length) return null; // PostgreSQL: "LIKE pattern must not end with escape character"
      source += pattern[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === '%' || c === '*') source += '.*';
    else if (c === '_') source += '.';
    else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, `su${flags}`);
}

const VALIDATION_CODES = new Set(['invalid_value', 'url_too_long', 'invalid_filter', 'nul_in_filter', 'too_many_values', 'invalid_data', 'ref_type_mismatch', 'unknown_ref']);

describeHostile();

function describeHostile() {
  let adaAct;
  let benAct;
  let adaRecipes; // [{ id, name, description, tags }] as PostgREST gives them to Ada
  let benUuids;

  async function seedHostile() {
    adaAct = actFor(ada());
    benAct = actFor(ben());
    for (const [index, value] of HOSTILE_VALUES.entries()) {
      const row = { name: `hostile ${index}`, description: value, tags: [value], instructions: [value] };
      for (const { act } of [adaAct, benAct]) {
        const created = await act.execute('db_create', { table: 'recipes', data: row });
        assert.equal(created.error, null, `create ${JSON.stringify(value).slice(0, 60)}: ${JSON.stringify(created.error)}`);
      }
    }
    adaRecipes = await dbRows('/recipes?select=id,name,description,tags,instructions&order=id', ada());
    benUuids = new Set((await dbRows('/recipes?select=id', ben())).map((r) => r.id));
  }

  /** Runs a read; checks it was refused without HTTP or returned exactly `expected` (UUIDs). */
  async function expectRows(label, params, expected) {
    const { act, fetch } = adaAct;
    const before = fetch.requests.length;
    const result = await act.execute('db_read', { table: 'recipes', columns: ['name', 'description', 'tags'], limit: 1000, ...params });
    if (result.error) {
      assert.equal(fetch.requests.length, before, `${label}: an error after HTTP: ${JSON.stringify(result.error)}`);
      assert.ok(result.error.code && result.error.message, label);
      return 'refused';
    }
    assert.ok(expected, `${label}: expected a refusal, got ${result.data.length} rows`);
    const map = uuidsOf(act);
    const got = result.data.map((row) => map.get(row.id));
    for (const uuid of got) assert.ok(!benUuids.has(uuid), `${label}: a row of the other user`);
    assert.deepEqual(got.sort(), [...expected].sort(), `${label}: exactly the matching rows`);
    assert.doesNotMatch(JSON.stringify(result.data.map(({ id, name }) => ({ id, name }))), UUID);
    return 'rows';
  }

  test('hostile values round-trip exactly as created values (NUL stripped)', async () => {
    await seedHostile();
    for (const [index, value] of HOSTILE_VALUES.entries()) {
      const rows = adaRecipes.filter((r) => r.name === `hostile ${index}`);
      assert.equal(rows.length, 1, `hostile ${index}`);
      const clean = value.replaceAll('\u0000', '');
      assert.equal(rows[0].description, clean, `description ${index}`);
      assert.deepEqual(rows[0].tags, [clean], `tags ${index}`);
      assert.deepEqual(rows[0].instructions, [clean], `instructions ${index}`);
    }
  });

  test('hostile values as =, !=, in, not_in, ilike, contains and or_filters values never widen a read', async () => {
    assert.ok(HOSTILE_VALUES.length >= 50);
    const outcomes = { rows: 0, refused: 0 };
    const count = (outcome) => outcomes[outcome]++;
    const ids = (predicate) => adaRecipes.filter(predicate).map((r) => r.id);
    for (const value of HOSTILE_VALUES) {
      const label = JSON.stringify(value).slice(0, 40);
      const other = 'no such description';
      count(await expectRows(`= ${label}`, { filters: [{ field: 'description', op: '=', value }] }, ids((r) => r.description === value)));
      count(await expectRows(`!= ${label}`, { filters: [{ field: 'description', op: '!=', value }] }, ids((r) => r.description !== null && r.description !== value)));
      count(await expectRows(`in ${label}`, { filters: [{ field: 'description', op: 'in', value: [value, other] }] }, ids((r) => r.description === value)));
      count(
        await expectRows(`not_in ${label}`, { filters: [{ field: 'description', op: 'not_in', value: [value, other] }] }, ids((r) => r.description !== null && r.description !== value)),
      );
      const like = likeRegex(value, 'i');
      const ilike = { filters: [{ field: 'description', op: 'ilike', value }] };
      if (like) count(await expectRows(`ilike ${label}`, ilike, ids((r) => r.description !== null && like.test(r.description))));
      else assert.equal(await expectRows(`ilike ${label}`, ilike, null), 'refused', `ilike ${label}: a pattern ending in a lone escape`);
      count(await expectRows(`contains ${label}`, { filters: [{ field: 'tags', op: 'contains', value: [value] }] }, ids((r) => r.tags.includes(value))));
      count(
        await expectRows(
          `or ${label}`,
          { or_filters: [{ field: 'description', op: '=', value }, { field: 'cuisine', op: '=', value: other }] },
          ids((r) => r.description === value),
        ),
      );
      const known = uuidsOf(adaAct.act).get(value);
      const expectedById = known && value.startsWith('recipe_') ? [known] : [];
      count(await expectRows(`id = ${label}`, { filters: [{ field: 'id', op: '=', value }] }, expectedById));
    }
    assert.ok(outcomes.rows > 300, JSON.stringify(outcomes));
  });

  test('NUL, over-long values and lists are refused before any HTTP', async () => {
    const { act, fetch } = adaAct;
    const before = fetch.requests.length;
    const cases = [
      { filters: [{ field: 'description', op: '=', value: 'nul\u0000byte' }] },
      { filters: [{ field: 'description', op: 'in', value: ['a', '\u0000'] }] },
      { or_filters: [{ field: 'description', op: 'ilike', value: '*\u0000*' }, { field: 'name', op: '=', value: 'x' }] },
      { filters: [{ field: 'description', op: '=', value: 'y'.repeat(20000) }] },
      { filters: [{ field: 'description', op: 'in', value: Array.from({ length: 3000 }, (_, i) => `value ${i}`) }] },
      { filters: [{ field: 'id', op: 'not_in', value: Array.from({ length: 5000 }, (_, i) => `recipe_${i + 1}`) }] },
    ];
    for (const params of cases) {
      const result = await act.execute('db_read', { table: 'recipes', ...params });
      assert.ok(result.error, JSON.stringify(params).slice(0, 80));
    }
    assert.equal(fetch.requests.length, before);
  });

  test('hostile values written by update round-trip exactly and change only the chosen row', async () => {
    const { act } = adaAct;
    const target = await act.execute('db_read', { table: 'recipes', filters: [{ field: 'name', op: '=', value: 'hostile 0' }], columns: ['name'] });
    assert.equal(target.data.length, 1);
    const ref = target.data[0].id;
    const uuid = uuidsOf(act).get(ref);
    const others = (await dbRows('/recipes?select=id,description,tags&order=id', ada())).filter((r) => r.id !== uuid);
    for (const value of HOSTILE_VALUES) {
      const updated = await act.execute('db_update', { table: 'recipes', filters: [{ field: 'id', op: '=', value: ref }], data: { description: value, tags: [value, 'b'] } });
      assert.equal(updated.error, null, JSON.stringify(updated.error));
      assert.equal(updated.count, 1);
      const [row] = await dbRows(`/recipes?id=eq.${uuid}&select=description,tags`, ada());
      const clean = value.replaceAll('\u0000', '');
      assert.deepEqual(row, { description: clean, tags: [clean, 'b'] }, JSON.stringify(value).slice(0, 40));
    }
    assert.deepEqual((await dbRows('/recipes?select=id,description,tags&order=id', ada())).filter((r) => r.id !== uuid), others);
  });

  test('hostile column names are refused as filter fields, order, columns and data keys, without HTTP', async () => {
    const { act, fetch } = adaAct;
    const before = fetch.requests.length;
    for (const field of HOSTILE_COLUMNS) {
      const label = JSON.stringify(field);
      const attempts = [
        ['db_read', { table: 'recipes', filters: [{ field, op: '=', value: 'x' }] }],
        ['db_read', { table: 'recipes', or_filters: [{ field, op: '=', value: 'x' }, { field: 'name', op: '=', value: 'y' }] }],
        ['db_read', { table: 'recipes', order_by: field }],
        // In columns, an empty entry is skipped and spaces are trimmed, by design.
        ...(field.trim() === field && field !== '' ? [['db_read', { table: 'recipes', columns: [field] }]] : []),
        ['db_create', { table: 'recipes', data: { name: 'n', instructions: ['i'], [field]: 'x' } }],
        ['db_update', { table: 'recipes', filters: [{ field: 'name', op: '=', value: 'hostile 1' }], data: { [field]: 'x' } }],
      ];
      for (const [tool, params] of attempts) {
        const result = await act.execute(tool, params);
        assert.ok(result.error, `${tool} with column ${label}: ${JSON.stringify(params)}`);
      }
    }
    assert.equal(fetch.requests.length, before);
  });
}

// ---- keys -------------------------------------------------------------------

test('a service-role key is refused as apiKey or accessToken, before any request', async () => {
  for (const keys of [
    { apiKey: () => stack().serviceKey, accessToken: () => ada().token },
    { apiKey: () => stack().anonKey, accessToken: () => stack().serviceKey },
    { apiKey: () => 'sb_secret_abcdefghijklmnop', accessToken: () => ada().token },
  ]) {
    const fetch = recordingFetch();
    let result;
    try {
      const act = core.createAct({ restUrl: stack().url, apiKey: keys.apiKey(), accessToken: keys.accessToken(), userId: ada().id, fetch });
      result = await act.execute('db_read', { table: 'tasks' });
    } catch (error) {
      result = { error: { code: error.code } };
    }
    assert.equal(result.error?.code, 'service_key_refused');
    assert.equal(fetch.requests.length, 0);
  }
});
