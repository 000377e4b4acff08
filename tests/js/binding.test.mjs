// The WebAssembly binding through the public API of the Node entry: exact requests
// for each tool and exact error values for hostile input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/src/index.node.js';

const USER = '5f0c8e8a-3b7e-4d2a-9c61-0a8f2b4c6d10';
const RECIPE = '0b6a4c1e-8f2d-4e7a-b3c5-9d1e2f3a4b5c';
const BASE = 'http://127.0.0.1:3000';

const core = await loadCore();

function session() {
  const registry = core.createRegistry();
  registry.translateRows('recipes', [{ id: RECIPE, name: 'Butter Chicken' }]);
  return { registry, userId: USER, baseUrl: BASE, apiKey: 'anon-key', accessToken: 'user-jwt' };
}

const readHeaders = { apikey: 'anon-key', Authorization: 'Bearer user-jwt', Accept: 'application/json' };
const writeHeaders = { ...readHeaders, 'Content-Type': 'application/json', Prefer: 'return=representation' };

test('code generation from strings is disallowed, as in workerd', () => {
  assert.throws(() => eval('1'), EvalError);
});

test('db_read: owner filter first, then the model filters, order, limit and count', () => {
  const result = core.buildRequest(
    'db_read',
    {
      table: 'inventory',
      filters: [
        { field: 'location', op: '=', value: 'fridge' },
        { field: 'quantity', op: 'gt', value: 1 },
      ],
      columns: 'name, quantity',
      order_by: 'name',
      order_dir: 'desc',
      limit: 20,
      count: true,
    },
    session(),
  );
  assert.deepEqual(result, {
    data: {
      method: 'GET',
      url:
        `${BASE}/inventory?select=id%2Cname%2Cquantity&user_id=eq.${USER}` +
        '&location=eq.fridge&quantity=gt.1&order=name.desc&limit=20',
      headers: { ...readHeaders, Prefer: 'count=exact' },
      body: null,
    },
    error: null,
  });
});

test('db_create: refs become UUIDs and the owner is set in the body', () => {
  const result = core.buildRequest(
    'db_create',
    { table: 'recipe_ingredients', data: { recipe_id: 'recipe_1', name: 'ghee', quantity: 1.5, unit: 'tbsp' } },
    session(),
  );
  assert.deepEqual(result, {
    data: {
      method: 'POST',
      url: `${BASE}/recipe_ingredients?select=%2A`,
      headers: writeHeaders,
      body: JSON.stringify({ recipe_id: RECIPE, name: 'ghee', quantity: 1.5, unit: 'tbsp', user_id: USER }),
    },
    error: null,
  });
});

// A write reads back the columns a read would: never the hidden embedding.
const RECIPE_SELECT = encodeURIComponent(
  'id,name,description,cuisine,difficulty,prep_time_minutes,cook_time_minutes,servings,instructions,tags,' +
    'source_url,is_system,parent_recipe_id,occasions,health_tags,flavor_tags,equipment_tags,created_at',
);

test('db_update: PATCH narrowed by owner and ref', () => {
  const result = core.buildRequest(
    'db_update',
    { table: 'recipes', filters: [{ field: 'id', op: '=', value: 'recipe_1' }], data: { servings: 4 } },
    session(),
  );
  assert.deepEqual(result, {
    data: {
      method: 'PATCH',
      url: `${BASE}/recipes?user_id=eq.${USER}&id=eq.${RECIPE}&select=${RECIPE_SELECT}`,
      headers: writeHeaders,
      body: '{"servings":4}',
    },
    error: null,
  });
});

test('db_delete: DELETE with no body', () => {
  const result = core.buildRequest(
    'db_delete',
    { table: 'recipes', filters: [{ field: 'id', op: 'in', value: ['recipe_1'] }] },
    session(),
  );
  assert.deepEqual(result, {
    data: {
      method: 'DELETE',
      url: `${BASE}/recipes?user_id=eq.${USER}&id=in.%28${RECIPE}%29&select=${RECIPE_SELECT}`,
      headers: { ...readHeaders, Prefer: 'return=representation' },
      body: null,
    },
    error: null,
  });
});

test('unknown table: error value with the allowed tables as hint', () => {
  assert.deepEqual(core.buildRequest('db_read', { table: 'users' }, session()), {
    data: null,
    error: {
      code: 'unknown_table',
      message: "'users' is not a table of the kitchen domain",
      path: 'table',
      hint: 'one of: recipes, recipe_ingredients, ingredients, inventory, shopping_list, meal_plans, tasks, preferences, cooking_log',
    },
  });
});

test('invented ref: path points at the list element', () => {
  const params = { table: 'recipes', filters: [{ field: 'id', op: 'in', value: ['recipe_7'] }] };
  assert.deepEqual(core.buildRequest('db_read', params, session()), {
    data: null,
    error: {
      code: 'unknown_ref',
      message: 'recipe_7 is not a known ref; refs cannot be invented',
      path: 'filters[0].value[0]',
      hint: 'known recipe refs: recipe_1 (Butter Chicken)',
    },
  });
});

test('NUL byte in a filter value is refused, not truncated', () => {
  const params = { table: 'recipes', filters: [{ field: 'name', op: '=', value: 'Butter\u0000Chicken' }] };
  assert.deepEqual(core.buildRequest('db_read', params, session()), {
    data: null,
    error: {
      code: 'nul_byte',
      message: 'the value contains a NUL byte (U+0000)',
      path: 'filters[0].value',
      hint: 'PostgREST truncates filter values at NUL; remove it',
    },
  });
});

test('a missing URL is an option error naming url, not a throw', () => {
  assert.deepEqual(core.buildRequest('db_read', { table: 'ingredients' }), {
    data: null,
    error: {
      code: 'invalid_option',
      message: 'url is required',
      path: 'url',
      hint: 'pass url, the Supabase URL (https://<project>.supabase.co or http://127.0.0.1:54321), or restUrl, the PostgREST root',
    },
  });
});

test('params that JSON cannot represent are invalid_params, not an internal error', () => {
  const cyclic = { table: 'inventory' };
  cyclic.self = cyclic;
  for (const params of [cyclic, { table: 'inventory', limit: 10n }]) {
    const { data, error } = core.buildRequest('db_read', params, { userId: USER, baseUrl: BASE });
    assert.equal(data, null);
    assert.equal(error.code, 'invalid_params');
    assert.match(error.message, /^params cannot be written as JSON: /);
  }
});

test('a url that trims to nothing is a URL error, not a missing one', () => {
  assert.equal(core.buildRequest('db_read', { table: 'ingredients' }, { url: '/', userId: USER }).error.message, 'url must be an http:// or https:// URL');
});

test('null options mean no options', () => {
  const { error } = core.buildRequest('db_read', { table: 'ingredients' }, null);
  assert.equal(error.code, 'invalid_option');
  assert.equal(error.path, 'url');
});
