// Differential test: alfred-act's buildRequest against @supabase/postgrest-js
// 2.109.0, the client every Supabase app uses.
//
// Group 1 ("postgrest-js parity"): operations where postgrest-js builds a
// correct request. The same operation goes through both; method, path,
// decoded query parameters (in order), the Prefer/apikey/Authorization
// headers and the parsed JSON body must be equal. Raw query strings are not
// compared: postgrest-js serializes with URLSearchParams (space → '+',
// '*' raw), we percent-encode every byte outside A-Za-z0-9-._~; PostgREST
// decodes both to the same text (docs/postgrest-wire.md#percent-encoding).
//
// Group 2 ("deliberate departures"): one case per unsafety of postgrest-js
// listed in docs/postgrest-wire.md#where-postgrest-js-differs that a tool call can reach. Each case
// asserts our exact output AND the (wrong) output of postgrest-js, so a fix
// on either side shows up here.
//
// Run: node --disallow-code-generation-from-strings --test tests/js/differential.test.mjs
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PostgrestClient } from '@supabase/postgrest-js';
import { loadCore } from '../../web/src/index.node.js';

const BASE_URL = 'http://127.0.0.1:54321';
const API_KEY = 'anon-key';
const ACCESS_TOKEN = 'user-jwt';
const USER_ID = '11111111-1111-1111-1111-111111111111';

// Rows as PostgREST returns them; translateRows registers them as refs.
const RECIPE_ROWS = [
  { id: '0a8e7e53-5b4d-4c1e-9d2f-000000000001', name: 'Butter Chicken' },
  { id: '0a8e7e53-5b4d-4c1e-9d2f-000000000002', name: 'Dal Tadka' },
  { id: '0a8e7e53-5b4d-4c1e-9d2f-000000000003', name: 'Pad Thai' },
];
const INVENTORY_ROWS = [
  { id: 'b7c1d2e3-0000-4a00-8000-000000000001', name: 'milk' },
  { id: 'b7c1d2e3-0000-4a00-8000-000000000002', name: 'eggs' },
];
const [RECIPE_1, RECIPE_2, RECIPE_3] = RECIPE_ROWS.map((row) => row.id);
const [INV_1, INV_2] = INVENTORY_ROWS.map((row) => row.id);

// What a read without `columns` selects on tables with a hidden column
// (`embedding`): every visible column except the owner column.
const RECIPE_COLUMNS =
  'id,name,description,cuisine,difficulty,prep_time_minutes,cook_time_minutes,servings,instructions,tags,' +
  'source_url,is_system,parent_recipe_id,occasions,health_tags,flavor_tags,equipment_tags,created_at';
const INGREDIENT_COLUMNS =
  'id,name,aliases,category,default_unit,nutrition_per_100g,flavor_compounds,is_system,parent_category,family,' +
  'cuisines,tier,created_at';

let core;
let registry;

before(async () => {
  core = await loadCore();
  registry = core.createRegistry();
  const recipes = registry.translateRows('recipes', RECIPE_ROWS);
  assert.equal(recipes.error, null);
  assert.deepEqual(
    recipes.data.map((row) => row.id),
    ['recipe_1', 'recipe_2', 'recipe_3'],
  );
  const inventory = registry.translateRows('inventory', INVENTORY_ROWS);
  assert.equal(inventory.error, null);
  assert.deepEqual(
    inventory.data.map((row) => row.id),
    ['inv_1', 'inv_2'],
  );
});

/** The request as PostgREST sees it: decoded parameters, parsed body. */
function wireView({ url, method, headers, body }) {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const parsed = new URL(url);
  return {
    method,
    path: parsed.pathname,
    params: [...parsed.searchParams],
    prefer: lower.prefer ?? null,
    apikey: lower.apikey ?? null,
    authorization: lower.authorization ?? null,
    body: body === undefined || body === null ? null : JSON.parse(body),
  };
}

function buildOurs(tool, params) {
  return core.buildRequest(tool, params, {
    registry,
    userId: USER_ID,
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    accessToken: ACCESS_TOKEN,
  });
}

/** Our request for a tool call that must succeed. */
function ours(tool, params) {
  const { data, error } = buildOurs(tool, params);
  assert.equal(error, null, `buildRequest failed: ${JSON.stringify(error)}`);
  return { ...wireView(data), url: data.url };
}

/** Our error for a tool call that must be refused: `{ code, path }`. */
function oursError(tool, params) {
  const { data, error } = buildOurs(tool, params);
  assert.equal(data, null, `expected an error, got ${data && data.url}`);
  return { code: error.code, path: error.path };
}

const STATUS = { GET: 200, HEAD: 200, POST: 201, PATCH: 200, DELETE: 200 };

/** Runs a postgrest-js chain against a recording fetch; returns what it sent. */
async function postgrestJs(chain) {
  const sent = [];
  const recorder = async (url, init) => {
    sent.push({ url: String(url), method: init.method, headers: { ...init.headers }, body: init.body });
    return new Response('[]', { status: STATUS[init.method], headers: { 'content-type': 'application/json' } });
  };
  const client = new PostgrestClient(BASE_URL, {
    headers: { apikey: API_KEY, Authorization: `Bearer ${ACCESS_TOKEN}` },
    fetch: recorder,
  });
  const result = await chain(client);
  assert.equal(result.error, null, `postgrest-js reported ${JSON.stringify(result.error)}`);
  assert.equal(sent.length, 1, 'postgrest-js sent exactly one request');
  return { ...wireView(sent[0]), url: sent[0].url };
}

/** Same request on the wire (everything but the raw query encoding). */
function assertSameRequest(mine, theirs) {
  const { url: _a, ...a } = mine;
  const { url: _b, ...b } = theirs;
  assert.deepStrictEqual(a, b);
}

const scope = ['user_id', `eq.${USER_ID}`];

// Each case: the tool call the model writes, and the postgrest-js chain a
// developer would write for the same operation (owner scope first, then the
// model's filters, or, order, range/limit — our parameter order).
const parityCases = [
  // --- selects, embedded resources ---
  {
    name: 'recipes with embedded recipe_ingredients',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id', 'name', 'recipe_ingredients(id,name,category)'] },
    js: (db) => db.from('recipes').select('id,name,recipe_ingredients(id,name,category)').eq('user_id', USER_ID),
  },
  {
    // The core adds `id` to an embedded select so the children get refs too.
    name: 'embedded select without id gets id added',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['name', 'recipe_ingredients(name,quantity,unit)'] },
    js: (db) => db.from('recipes').select('id,name,recipe_ingredients(id,name,quantity,unit)').eq('user_id', USER_ID),
  },
  {
    // recipes has a hidden embedding column, so * is sent as the visible columns.
    name: 'recipes * with recipe_ingredients(*)',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['*', 'recipe_ingredients(*)'] },
    js: (db) => db.from('recipes').select(`${RECIPE_COLUMNS},recipe_ingredients(*)`).eq('user_id', USER_ID),
  },
  {
    name: 'inventory with embedded ingredients, filter, order desc, limit',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id', 'name', 'ingredients(name,category)'],
      filters: [{ field: 'location', op: '=', value: 'fridge' }],
      order_by: 'name',
      order_dir: 'desc',
      limit: 20,
    },
    js: (db) =>
      db
        .from('inventory')
        .select('id,name,ingredients(id,name,category)')
        .eq('user_id', USER_ID)
        .eq('location', 'fridge')
        .order('name', { ascending: false })
        .limit(20),
  },
  {
    name: 'read without columns on a table with no hidden column selects *',
    tool: 'db_read',
    params: { table: 'inventory' },
    js: (db) => db.from('inventory').select('*').eq('user_id', USER_ID),
  },
  {
    name: 'read without columns on recipes selects the visible columns (embedding hidden)',
    tool: 'db_read',
    params: { table: 'recipes' },
    js: (db) => db.from('recipes').select(RECIPE_COLUMNS).eq('user_id', USER_ID),
  },
  {
    name: 'shared table (ingredients) has no owner scope',
    tool: 'db_read',
    params: { table: 'ingredients', filters: [{ field: 'category', op: '=', value: 'dairy' }] },
    js: (db) => db.from('ingredients').select(INGREDIENT_COLUMNS).eq('category', 'dairy'),
  },
  // --- every filter op ---
  {
    name: 'op = on text',
    tool: 'db_read',
    params: { table: 'inventory', columns: ['id'], filters: [{ field: 'location', op: '=', value: 'fridge' }] },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).eq('location', 'fridge'),
  },
  {
    name: 'op != ',
    tool: 'db_read',
    params: { table: 'inventory', columns: ['id'], filters: [{ field: 'unit', op: '!=', value: 'g' }] },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).neq('unit', 'g'),
  },
  {
    name: 'op > and >= on numeric',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id'],
      filters: [
        { field: 'quantity', op: '>', value: 1 },
        { field: 'quantity', op: '>=', value: 2.5 },
      ],
    },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).gt('quantity', 1).gte('quantity', 2.5),
  },
  {
    name: 'op < on a date and <= on numeric',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id'],
      filters: [
        { field: 'expiry_date', op: '<', value: '2025-01-31' },
        { field: 'quantity', op: '<=', value: 10 },
      ],
    },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).lt('expiry_date', '2025-01-31').lte('quantity', 10),
  },
  {
    name: 'op aliases eq neq gt gte lt lte',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id'],
      filters: [
        { field: 'location', op: 'eq', value: 'fridge' },
        { field: 'unit', op: 'neq', value: 'g' },
        { field: 'quantity', op: 'gt', value: 1 },
        { field: 'quantity', op: 'gte', value: 2 },
        { field: 'expiry_date', op: 'lt', value: '2025-01-31' },
        { field: 'quantity', op: 'lte', value: 10 },
      ],
    },
    js: (db) =>
      db
        .from('inventory')
        .select('id')
        .eq('user_id', USER_ID)
        .eq('location', 'fridge')
        .neq('unit', 'g')
        .gt('quantity', 1)
        .gte('quantity', 2)
        .lt('expiry_date', '2025-01-31')
        .lte('quantity', 10),
  },
  {
    name: 'op = on a boolean',
    tool: 'db_read',
    params: { table: 'recipe_ingredients', columns: ['id'], filters: [{ field: 'is_optional', op: '=', value: true }] },
    js: (db) => db.from('recipe_ingredients').select('id').eq('user_id', USER_ID).eq('is_optional', true),
  },
  {
    name: 'op > on a timestamp with +00:00 (the + must survive encoding)',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], filters: [{ field: 'created_at', op: '>', value: '2025-01-01T00:00:00+00:00' }] },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).gt('created_at', '2025-01-01T00:00:00+00:00'),
  },
  {
    name: 'top-level = with , ( ) " + & = # % needs no quoting',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id'],
      filters: [{ field: 'name', op: '=', value: 'salt, (coarse) "kosher" a+b&c=d#e%f g' }],
    },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).eq('name', 'salt, (coarse) "kosher" a+b&c=d#e%f g'),
  },
  {
    name: 'op in',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], filters: [{ field: 'cuisine', op: 'in', value: ['indian', 'thai', 'mexican'] }] },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).in('cuisine', ['indian', 'thai', 'mexican']),
  },
  {
    name: 'op in with numbers, duplicates dropped',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], filters: [{ field: 'servings', op: 'in', value: [2, 4, 4, 6] }] },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).in('servings', [2, 4, 4, 6]),
  },
  {
    name: 'op in with , ( ) quoted; unicode, %, +, *, . left bare',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id'],
      filters: [
        { field: 'name', op: 'in', value: ['a,b', 'c(d)', 'two words', 'crème brûlée', '日本酒', 'plus+sign', '100%', 'a*b', 'x.y'] },
      ],
    },
    js: (db) =>
      db
        .from('inventory')
        .select('id')
        .eq('user_id', USER_ID)
        .in('name', ['a,b', 'c(d)', 'two words', 'crème brûlée', '日本酒', 'plus+sign', '100%', 'a*b', 'x.y']),
  },
  {
    name: 'op in with an empty list matches nothing',
    tool: 'db_read',
    params: { table: 'inventory', columns: ['id'], filters: [{ field: 'name', op: 'in', value: [] }] },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('name', []),
  },
  {
    name: 'op not_in',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], filters: [{ field: 'cuisine', op: 'not_in', value: ['indian', 'thai'] }] },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).notIn('cuisine', ['indian', 'thai']),
  },
  {
    name: 'op not_in with a comma value',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], filters: [{ field: 'cuisine', op: 'not_in', value: ['indian', 'thai', 'a,b'] }] },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).notIn('cuisine', ['indian', 'thai', 'a,b']),
  },
  {
    name: 'op like',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id', 'name'], filters: [{ field: 'name', op: 'like', value: 'Chicken%' }] },
    js: (db) => db.from('recipes').select('id,name').eq('user_id', USER_ID).like('name', 'Chicken%'),
  },
  {
    name: 'op ilike with %',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id', 'name'], filters: [{ field: 'name', op: 'ilike', value: '%chicken%' }] },
    js: (db) => db.from('recipes').select('id,name').eq('user_id', USER_ID).ilike('name', '%chicken%'),
  },
  {
    name: 'op ilike with * wildcards',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id', 'name'], filters: [{ field: 'name', op: 'ilike', value: '*curry*' }] },
    js: (db) => db.from('recipes').select('id,name').eq('user_id', USER_ID).ilike('name', '*curry*'),
  },
  {
    name: 'op not_like',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id', 'name'], filters: [{ field: 'name', op: 'not_like', value: 'Cod%' }] },
    js: (db) => db.from('recipes').select('id,name').eq('user_id', USER_ID).not('name', 'like', 'Cod%'),
  },
  {
    name: 'op not_ilike',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id', 'name'], filters: [{ field: 'name', op: 'not_ilike', value: '%cod%' }] },
    js: (db) => db.from('recipes').select('id,name').eq('user_id', USER_ID).not('name', 'ilike', '%cod%'),
  },
  {
    name: 'op is_null',
    tool: 'db_read',
    params: { table: 'inventory', columns: ['id'], filters: [{ field: 'expiry_date', op: 'is_null' }] },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).is('expiry_date', null),
  },
  {
    name: 'op is_not_null',
    tool: 'db_read',
    params: { table: 'inventory', columns: ['id'], filters: [{ field: 'expiry_date', op: 'is_not_null' }] },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).not('expiry_date', 'is', null),
  },
  {
    name: 'op contains on text[]',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], filters: [{ field: 'occasions', op: 'contains', value: ['weeknight', 'hosting'] }] },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).contains('occasions', ['weeknight', 'hosting']),
  },
  {
    name: 'op contained_by on text[]',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], filters: [{ field: 'occasions', op: 'contained_by', value: ['weeknight', 'weekend'] }] },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).containedBy('occasions', ['weeknight', 'weekend']),
  },
  {
    name: 'op overlaps on text[]',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], filters: [{ field: 'health_tags', op: 'overlaps', value: ['vegan', 'keto'] }] },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).overlaps('health_tags', ['vegan', 'keto']),
  },
  {
    name: 'op contains on jsonb',
    tool: 'db_read',
    params: { table: 'preferences', columns: ['id'], filters: [{ field: 'subdomain_guidance', op: 'contains', value: { theme: 'dark' } }] },
    js: (db) => db.from('preferences').select('id').eq('user_id', USER_ID).contains('subdomain_guidance', { theme: 'dark' }),
  },
  // --- or ---
  {
    name: 'or_filters alone',
    tool: 'db_read',
    params: {
      table: 'recipes',
      columns: ['id'],
      or_filters: [
        { field: 'name', op: 'ilike', value: '%chicken%' },
        { field: 'cuisine', op: '=', value: 'indian' },
      ],
    },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).or('name.ilike.%chicken%,cuisine.eq.indian'),
  },
  {
    name: 'filters and or_filters',
    tool: 'db_read',
    params: {
      table: 'recipes',
      columns: ['id'],
      filters: [{ field: 'difficulty', op: '=', value: 'easy' }],
      or_filters: [
        { field: 'cuisine', op: '=', value: 'indian' },
        { field: 'cuisine', op: '=', value: 'thai' },
      ],
    },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).eq('difficulty', 'easy').or('cuisine.eq.indian,cuisine.eq.thai'),
  },
  {
    name: 'or_filters with in (quoted element), comparison and is null',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id'],
      or_filters: [
        { field: 'name', op: 'in', value: ['milk', 'a,b'] },
        { field: 'quantity', op: '>', value: 2 },
        { field: 'location', op: 'is_null' },
      ],
    },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).or('name.in.(milk,"a,b"),quantity.gt.2,location.is.null'),
  },
  {
    name: 'or_filters with a quoted comma value, written correctly by hand',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id'],
      or_filters: [
        { field: 'name', op: '=', value: 'salt, coarse (kosher)' },
        { field: 'name', op: '=', value: 'milk' },
      ],
    },
    js: (db) => db.from('inventory').select('id').eq('user_id', USER_ID).or('name.eq."salt, coarse (kosher)",name.eq.milk'),
  },
  // --- order, limit, offset ---
  {
    name: 'order_by defaults to asc',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], order_by: 'name' },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).order('name'),
  },
  {
    name: 'order_dir asc',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], order_by: 'created_at', order_dir: 'asc' },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).order('created_at', { ascending: true }),
  },
  {
    name: 'order_dir desc',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], order_by: 'created_at', order_dir: 'desc' },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).order('created_at', { ascending: false }),
  },
  {
    name: 'limit',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], order_by: 'name', limit: 10 },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).order('name').limit(10),
  },
  {
    name: 'offset + limit = range',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], offset: 20, limit: 10 },
    js: (db) => db.from('recipes').select('id').eq('user_id', USER_ID).range(20, 29),
  },
  {
    name: 'order desc + offset + limit',
    tool: 'db_read',
    params: { table: 'inventory', columns: ['id', 'name'], order_by: 'expiry_date', order_dir: 'desc', offset: 50, limit: 25 },
    js: (db) => db.from('inventory').select('id,name').eq('user_id', USER_ID).order('expiry_date', { ascending: false }).range(50, 74),
  },
  // --- counts ---
  {
    name: 'count: true is count=exact',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], count: true },
    js: (db) => db.from('recipes').select('id', { count: 'exact' }).eq('user_id', USER_ID),
  },
  {
    name: 'count exact with filter and limit',
    tool: 'db_read',
    params: { table: 'inventory', columns: ['id'], filters: [{ field: 'location', op: '=', value: 'pantry' }], limit: 5, count: 'exact' },
    js: (db) => db.from('inventory').select('id', { count: 'exact' }).eq('user_id', USER_ID).eq('location', 'pantry').limit(5),
  },
  {
    name: 'count planned',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], count: 'planned' },
    js: (db) => db.from('recipes').select('id', { count: 'planned' }).eq('user_id', USER_ID),
  },
  {
    name: 'count estimated',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['id'], count: 'estimated' },
    js: (db) => db.from('recipes').select('id', { count: 'estimated' }).eq('user_id', USER_ID),
  },
  // --- typical agent reads (also used by bench/build-requests.mjs) ---
  {
    name: 'benchmark read: 3 filters + or + order + limit',
    tool: 'db_read',
    params: {
      table: 'inventory',
      columns: ['id', 'name', 'quantity', 'unit', 'location', 'expiry_date'],
      filters: [
        { field: 'location', op: '=', value: 'fridge' },
        { field: 'expiry_date', op: '<=', value: '2025-06-01' },
      ],
      or_filters: [
        { field: 'name', op: 'ilike', value: '*milk*' },
        { field: 'name', op: 'ilike', value: '*cheese*' },
      ],
      order_by: 'expiry_date',
      limit: 50,
    },
    js: (db) =>
      db
        .from('inventory')
        .select('id,name,quantity,unit,location,expiry_date')
        .eq('user_id', USER_ID)
        .eq('location', 'fridge')
        .lte('expiry_date', '2025-06-01')
        .or('name.ilike.*milk*,name.ilike.*cheese*')
        .order('expiry_date', { ascending: true })
        .limit(50),
  },
  {
    name: 'read by ref list (refs → UUIDs)',
    tool: 'db_read',
    params: {
      table: 'recipes',
      columns: ['id', 'name', 'recipe_ingredients(name,quantity,unit)'],
      filters: [{ field: 'id', op: 'in', value: ['recipe_1', 'recipe_2', 'recipe_3'] }],
    },
    js: (db) =>
      db
        .from('recipes')
        .select('id,name,recipe_ingredients(id,name,quantity,unit)')
        .eq('user_id', USER_ID)
        .in('id', [RECIPE_1, RECIPE_2, RECIPE_3]),
  },
  {
    name: 'filter on a foreign key by ref',
    tool: 'db_read',
    params: { table: 'recipe_ingredients', columns: ['id', 'name'], filters: [{ field: 'recipe_id', op: '=', value: 'recipe_2' }] },
    js: (db) => db.from('recipe_ingredients').select('id,name').eq('user_id', USER_ID).eq('recipe_id', RECIPE_2),
  },
  // --- inserts ---
  {
    name: 'insert one row (owner injected)',
    tool: 'db_create',
    params: { table: 'inventory', data: { name: 'milk', quantity: 2, unit: 'l' } },
    js: (db) => db.from('inventory').insert({ name: 'milk', quantity: 2, unit: 'l', user_id: USER_ID }).select(),
  },
  {
    name: 'insert with text[] values containing , and "',
    tool: 'db_create',
    params: {
      table: 'recipes',
      data: { name: 'Dal', instructions: ['rinse', 'stir, then "serve"'], occasions: ['date, night'] },
    },
    js: (db) =>
      db
        .from('recipes')
        .insert({ name: 'Dal', instructions: ['rinse', 'stir, then "serve"'], occasions: ['date, night'], user_id: USER_ID })
        // A write reads back what a read would: never the hidden embedding.
        .select(RECIPE_COLUMNS),
  },
  {
    name: 'insert with a foreign-key ref',
    tool: 'db_create',
    params: { table: 'recipe_ingredients', data: { recipe_id: 'recipe_1', name: 'ghee', quantity: 2, unit: 'tbsp' } },
    js: (db) =>
      db.from('recipe_ingredients').insert({ recipe_id: RECIPE_1, name: 'ghee', quantity: 2, unit: 'tbsp', user_id: USER_ID }).select(),
  },
  {
    name: 'batch insert with uniform keys',
    tool: 'db_create',
    params: {
      table: 'inventory',
      data: [
        { name: 'milk', quantity: 2, unit: 'l' },
        { name: 'eggs', quantity: 12, unit: 'pcs' },
      ],
    },
    js: (db) =>
      db
        .from('inventory')
        .insert([
          { name: 'milk', quantity: 2, unit: 'l', user_id: USER_ID },
          { name: 'eggs', quantity: 12, unit: 'pcs', user_id: USER_ID },
        ])
        .select(),
  },
  {
    name: 'batch insert, same keys in a different order',
    tool: 'db_create',
    params: {
      table: 'shopping_list',
      data: [
        { name: 'milk', quantity: 1, unit: 'l' },
        { unit: 'pcs', name: 'eggs', quantity: 12 },
        { quantity: 2, unit: 'kg', name: 'rice' },
      ],
    },
    js: (db) =>
      db
        .from('shopping_list')
        .insert([
          { name: 'milk', quantity: 1, unit: 'l', user_id: USER_ID },
          { unit: 'pcs', name: 'eggs', quantity: 12, user_id: USER_ID },
          { quantity: 2, unit: 'kg', name: 'rice', user_id: USER_ID },
        ])
        .select(),
  },
  {
    name: 'batch insert with foreign-key refs',
    tool: 'db_create',
    params: {
      table: 'recipe_ingredients',
      data: [
        { recipe_id: 'recipe_1', name: 'ghee', quantity: 2, unit: 'tbsp' },
        { recipe_id: 'recipe_2', name: 'salt', quantity: 1, unit: 'tsp' },
      ],
    },
    js: (db) =>
      db
        .from('recipe_ingredients')
        .insert([
          { recipe_id: RECIPE_1, name: 'ghee', quantity: 2, unit: 'tbsp', user_id: USER_ID },
          { recipe_id: RECIPE_2, name: 'salt', quantity: 1, unit: 'tsp', user_id: USER_ID },
        ])
        .select(),
  },
  {
    name: 'batch insert of one row',
    tool: 'db_create',
    params: { table: 'tasks', data: [{ title: 'soak chickpeas', due_date: '2025-06-02', category: 'prep' }] },
    js: (db) =>
      db
        .from('tasks')
        .insert([{ title: 'soak chickpeas', due_date: '2025-06-02', category: 'prep', user_id: USER_ID }])
        .select(),
  },
  // --- updates ---
  {
    name: 'update by ref',
    tool: 'db_update',
    params: { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_1' }], data: { quantity: 5 } },
    js: (db) => db.from('inventory').update({ quantity: 5 }).eq('user_id', USER_ID).eq('id', INV_1).select(),
  },
  {
    name: 'update by filters',
    tool: 'db_update',
    params: {
      table: 'inventory',
      filters: [
        { field: 'location', op: '=', value: 'fridge' },
        { field: 'expiry_date', op: '<', value: '2025-01-01' },
      ],
      data: { location: 'freezer', notes: 'moved, "just in case"' },
    },
    js: (db) =>
      db
        .from('inventory')
        .update({ location: 'freezer', notes: 'moved, "just in case"' })
        .eq('user_id', USER_ID)
        .eq('location', 'fridge')
        .lt('expiry_date', '2025-01-01')
        .select(),
  },
  {
    name: 'update by ref list',
    tool: 'db_update',
    params: { table: 'recipes', filters: [{ field: 'id', op: 'in', value: ['recipe_1', 'recipe_3'] }], data: { servings: 4, difficulty: 'easy' } },
    js: (db) =>
      db.from('recipes').update({ servings: 4, difficulty: 'easy' }).eq('user_id', USER_ID).in('id', [RECIPE_1, RECIPE_3]).select(RECIPE_COLUMNS),
  },
  // --- deletes ---
  {
    name: 'delete by ref',
    tool: 'db_delete',
    params: { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_2' }] },
    js: (db) => db.from('inventory').delete().eq('user_id', USER_ID).eq('id', INV_2).select(),
  },
  {
    name: 'delete by filters',
    tool: 'db_delete',
    params: {
      table: 'inventory',
      filters: [
        { field: 'location', op: '=', value: 'fridge' },
        { field: 'expiry_date', op: '<', value: '2025-01-01' },
      ],
    },
    js: (db) => db.from('inventory').delete().eq('user_id', USER_ID).eq('location', 'fridge').lt('expiry_date', '2025-01-01').select(),
  },
  {
    name: 'delete by ref list',
    tool: 'db_delete',
    params: { table: 'inventory', filters: [{ field: 'id', op: 'in', value: ['inv_1', 'inv_2'] }] },
    js: (db) => db.from('inventory').delete().eq('user_id', USER_ID).in('id', [INV_1, INV_2]).select(),
  },
  {
    name: 'delete by name not_in',
    tool: 'db_delete',
    params: { table: 'shopping_list', filters: [{ field: 'name', op: 'not_in', value: ['milk', 'eggs', 'rice'] }] },
    js: (db) => db.from('shopping_list').delete().eq('user_id', USER_ID).notIn('name', ['milk', 'eggs', 'rice']).select(),
  },
];

describe('postgrest-js parity', () => {
  it('has at least 40 cases', () => {
    assert.ok(parityCases.length >= 40, `${parityCases.length} cases`);
  });

  for (const testCase of parityCases) {
    it(testCase.name, async () => {
      const theirs = await postgrestJs(testCase.js);
      const mine = ours(testCase.tool, testCase.params);
      assertSameRequest(mine, theirs);
      // Owner scope: first filter of reads/updates/deletes on user-owned
      // tables, injected into every created row.
      if (testCase.tool === 'db_create') {
        for (const row of [mine.body].flat()) assert.equal(row.user_id, USER_ID);
      } else if (testCase.params.table !== 'ingredients') {
        const firstFilter = mine.params.find(([key]) => key !== 'select');
        assert.deepStrictEqual(firstFilter, scope);
      }
    });
  }
});

describe('deliberate departures (docs/postgrest-wire.md#where-postgrest-js-differs)', () => {
  // D1: postgrest-js quotes "a,b" but does not escape the inner quote → ("he said "a,b"") splits into two wrong values.
  it('D1: in() escapes " inside a quoted element', async () => {
    const value = 'he said "a,b"';
    const mine = ours('db_read', { table: 'inventory', columns: ['id'], filters: [{ field: 'name', op: 'in', value: [value] }] });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('name', [value]));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['name', 'in.("he said \\"a,b\\"")']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['name', 'in.("he said "a,b"")']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D1: postgrest-js leaves \ unescaped inside quotes → "x,y\z" is read by PostgREST as x,yz.
  it('D1: in() escapes \\ inside a quoted element', async () => {
    const value = 'x,y\\z';
    const mine = ours('db_read', { table: 'inventory', columns: ['id'], filters: [{ field: 'name', op: 'in', value: [value, 'milk'] }] });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('name', [value, 'milk']));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['name', 'in.("x,y\\\\z",milk)']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['name', 'in.("x,y\\z",milk)']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D2: unquoted " padded " loses its leading space in PostgREST's list parser.
  it('D2: in() quotes values with edge whitespace', async () => {
    const mine = ours('db_read', { table: 'inventory', columns: ['id'], filters: [{ field: 'name', op: 'in', value: [' padded ', 'milk'] }] });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('name', [' padded ', 'milk']));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['name', 'in.(" padded ",milk)']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['name', 'in.( padded ,milk)']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D2: postgrest-js sends [""] as in.() = the empty list (matches nothing); "" is only matched by eq.
  it('D2: in() with only the empty string becomes eq.', async () => {
    const mine = ours('db_read', { table: 'inventory', columns: ['id'], filters: [{ field: 'notes', op: 'in', value: [''] }] });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('notes', ['']));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['notes', 'eq.']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['notes', 'in.()']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D2: unquoted empty element; we quote it so the list keeps two elements.
  it('D2: in() quotes the empty string among other values', async () => {
    const mine = ours('db_read', { table: 'inventory', columns: ['id'], filters: [{ field: 'notes', op: 'in', value: ['', 'fresh'] }] });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('notes', ['', 'fresh']));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['notes', 'in.("",fresh)']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['notes', 'in.(,fresh)']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D3: in.(null) compares with the string 'null'; NULL needs is.null, OR-ed with the rest.
  it('D3: null in an in() list becomes or=(… ,col.is.null)', async () => {
    const mine = ours('db_read', { table: 'inventory', columns: ['id'], filters: [{ field: 'location', op: 'in', value: ['fridge', null] }] });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('location', ['fridge', null]));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['or', '(location.in.(fridge),location.is.null)']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['location', 'in.(fridge,null)']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D4: postgrest-js joins raw elements → {date, night} is two elements, so the wrong rows match.
  it('D4: contains quotes an element with a comma', async () => {
    const mine = ours('db_read', { table: 'recipes', columns: ['id'], filters: [{ field: 'occasions', op: 'contains', value: ['date, night'] }] });
    const theirs = await postgrestJs((db) => db.from('recipes').select('id').eq('user_id', USER_ID).contains('occasions', ['date, night']));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['occasions', 'cs.{"date, night"}']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['occasions', 'cs.{date, night}']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D4: a raw " in an array literal is a 400 22P02 malformed array literal.
  it('D4: overlaps escapes " inside an element', async () => {
    const value = ['say "hi"', 'two words'];
    const mine = ours('db_read', { table: 'recipes', columns: ['id'], filters: [{ field: 'occasions', op: 'overlaps', value }] });
    const theirs = await postgrestJs((db) => db.from('recipes').select('id').eq('user_id', USER_ID).overlaps('occasions', value));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['occasions', 'ov.{"say \\"hi\\"","two words"}']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['occasions', 'ov.{say "hi",two words}']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D5: or() pastes strings verbatim, so a value can add a condition that matches every row.
  it('D5: an or value cannot add conditions (milk,id.not.is.null)', async () => {
    const value = 'milk,id.not.is.null';
    const mine = ours('db_read', {
      table: 'inventory',
      columns: ['id'],
      or_filters: [
        { field: 'name', op: '=', value },
        { field: 'name', op: '=', value: 'eggs' },
      ],
    });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).or(`name.eq.${value},name.eq.eggs`));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['or', '(name.eq."milk,id.not.is.null",name.eq.eggs)']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['or', '(name.eq.milk,id.not.is.null,name.eq.eggs)']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D5: a value that closes the group and opens and(...) rewrites the logic tree.
  it('D5: an or value cannot close the group (x),user_id.neq.null,and(id.is.null)', async () => {
    const value = 'x),user_id.neq.null,and(id.is.null';
    const mine = ours('db_read', { table: 'inventory', columns: ['id'], or_filters: [{ field: 'name', op: '=', value }] });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).or(`name.eq.${value}`));
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['or', '(name.eq."x),user_id.neq.null,and(id.is.null")']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['or', '(name.eq.x),user_id.neq.null,and(id.is.null)']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D7: PostgREST truncates a filter at NUL, so eq.eggs\0junk deletes "eggs".
  it('D7: NUL in a delete filter is refused (nul_byte)', async () => {
    const value = 'eggs\u0000junk';
    const mine = oursError('db_delete', { table: 'inventory', filters: [{ field: 'name', op: '=', value }] });
    const theirs = await postgrestJs((db) => db.from('inventory').delete().eq('user_id', USER_ID).eq('name', value).select());
    assert.deepStrictEqual(mine, { code: 'nul_byte', path: 'filters[0].value' });
    assert.deepStrictEqual(theirs.params, [scope, ['name', 'eq.eggs\u0000junk'], ['select', '*']]);
  });

  // D7: same truncation inside in.(…) and or=(…).
  it('D7: NUL in an in list or an or value is refused (nul_byte)', async () => {
    const inList = oursError('db_read', { table: 'inventory', filters: [{ field: 'name', op: 'in', value: ['rice', 'milk\u0000junk'] }] });
    assert.deepStrictEqual(inList, { code: 'nul_byte', path: 'filters[0].value[1]' });
    const orValue = oursError('db_read', { table: 'inventory', or_filters: [{ field: 'name', op: 'ilike', value: '*milk\u0000*' }] });
    assert.deepStrictEqual(orValue, { code: 'nul_byte', path: 'or_filters[0].value' });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('name', ['rice', 'milk\u0000junk']));
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['name', 'in.(rice,milk\u0000junk)']]);
  });

  // D7: a NUL in a JSON body is a 400 22P05 for the whole insert. Payload strings are
  // model-written text, so the core strips the NUL instead of failing the call.
  it('D7: NUL in a create body is stripped before sending', async () => {
    const mine = ours('db_create', { table: 'inventory', data: { name: 'mi\u0000lk', quantity: 1, unit: 'l' } });
    const theirs = await postgrestJs((db) => db.from('inventory').insert({ name: 'mi\u0000lk', quantity: 1, unit: 'l', user_id: USER_ID }).select());
    assert.equal(mine.body.name, 'milk');
    assert.equal(theirs.body.name, 'mi\u0000lk');
  });

  // D8: eq.null compares with the string 'null' (400 22007 on a date column).
  it('D8: = null becomes is.null, != null becomes not.is.null', async () => {
    const mine = ours('db_read', {
      table: 'inventory',
      columns: ['id'],
      filters: [
        { field: 'expiry_date', op: '=', value: null },
        { field: 'location', op: '!=', value: null },
      ],
    });
    const theirs = await postgrestJs((db) =>
      db.from('inventory').select('id').eq('user_id', USER_ID).eq('expiry_date', null).neq('location', null),
    );
    assert.deepStrictEqual(mine.params, [['select', 'id'], scope, ['expiry_date', 'is.null'], ['location', 'not.is.null']]);
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['expiry_date', 'eq.null'], ['location', 'neq.null']]);
    assert.notDeepStrictEqual(theirs.params, mine.params);
  });

  // D9: with columns= a missing key becomes NULL unless Prefer: missing=default (NOT NULL + DEFAULT → 400 23502).
  it('D9: batch with differing keys sends missing=default', async () => {
    const mine = ours('db_create', {
      table: 'inventory',
      data: [
        { name: 'milk', quantity: 2, unit: 'l' },
        { name: 'eggs', quantity: 12, unit: 'pcs', location: 'fridge' },
      ],
    });
    const theirs = await postgrestJs((db) =>
      db
        .from('inventory')
        .insert([
          { name: 'milk', quantity: 2, unit: 'l', user_id: USER_ID },
          { name: 'eggs', quantity: 12, unit: 'pcs', location: 'fridge', user_id: USER_ID },
        ])
        .select(),
    );
    const columns = ['columns', '"name","quantity","unit","user_id","location"'];
    assert.deepStrictEqual(mine.params, [columns, ['select', '*']]);
    assert.equal(mine.prefer, 'missing=default, return=representation');
    assert.deepStrictEqual(theirs.params, [['columns', '"name","quantity","unit","user_id","location"'], ['select', '*']]);
    assert.equal(theirs.prefer, 'return=representation');
    assert.deepStrictEqual(mine.body, theirs.body);
  });

  // D11: the owner scope satisfies safeupdate, so a no-filter update hits every row of the user.
  it('D11: update without a filter is refused (missing_filter)', async () => {
    const mine = oursError('db_update', { table: 'inventory', data: { quantity: 0 } });
    const mineEmpty = oursError('db_update', { table: 'inventory', filters: [], data: { quantity: 0 } });
    const theirs = await postgrestJs((db) => db.from('inventory').update({ quantity: 0 }).eq('user_id', USER_ID).select());
    assert.deepStrictEqual(mine, { code: 'missing_filter', path: 'filters' });
    assert.deepStrictEqual(mineEmpty, { code: 'missing_filter', path: 'filters' });
    assert.deepStrictEqual(theirs.params, [scope, ['select', '*']]);
    assert.equal(theirs.method, 'PATCH');
  });

  // D11: same for delete: "delete all my inventory" from a forgotten filter.
  it('D11: delete without a filter is refused (missing_filter)', async () => {
    const mine = oursError('db_delete', { table: 'inventory', filters: [] });
    const theirs = await postgrestJs((db) => db.from('inventory').delete().eq('user_id', USER_ID).select());
    assert.deepStrictEqual(mine, { code: 'missing_filter', path: 'filters' });
    assert.deepStrictEqual(theirs.params, [scope, ['select', '*']]);
    assert.equal(theirs.method, 'DELETE');
  });

  // D12: PostgREST echoes the query in Content-Location; Node rejects > 16 KiB response headers.
  it('D12: a URL over 8000 bytes is refused (url_too_long)', async () => {
    const names = Array.from({ length: 1000 }, (_, i) => `pantry item number ${i}`);
    const mine = oursError('db_read', { table: 'inventory', columns: ['id'], filters: [{ field: 'name', op: 'in', value: names }] });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).in('name', names));
    assert.deepStrictEqual(mine, { code: 'url_too_long', path: 'filters' });
    assert.ok(theirs.url.length > 16 * 1024, `postgrest-js built a ${theirs.url.length}-byte URL`);
  });

  // D13: a "column" named like a reserved key changes the request (or=eq.x is a logic tree, not a filter).
  it('D13: reserved names as filter field, column, order_by or data key are refused (reserved_column)', async () => {
    assert.deepStrictEqual(oursError('db_read', { table: 'inventory', filters: [{ field: 'or', op: '=', value: 'x' }] }), {
      code: 'reserved_column',
      path: 'filters[0].field',
    });
    assert.deepStrictEqual(oursError('db_read', { table: 'inventory', columns: ['id', 'limit'] }), {
      code: 'reserved_column',
      path: 'columns[1]',
    });
    assert.deepStrictEqual(oursError('db_read', { table: 'inventory', order_by: 'select' }), {
      code: 'reserved_column',
      path: 'order_by',
    });
    assert.deepStrictEqual(oursError('db_create', { table: 'inventory', data: { name: 'milk', quantity: 1, unit: 'l', limit: 3 } }), {
      code: 'reserved_column',
      path: 'data.limit',
    });
    const theirs = await postgrestJs((db) => db.from('inventory').select('id').eq('user_id', USER_ID).eq('or', 'x').eq('limit', '1'));
    assert.deepStrictEqual(theirs.params, [['select', 'id'], scope, ['or', 'eq.x'], ['limit', 'eq.1']]);
  });
});
