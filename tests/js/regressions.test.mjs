// Regressions of user-visible defects, each against the real local stack
// (PostgREST 12 on PGlite) and read back through PostgREST with the user's
// token: batch creates that lost their fields, `*` taken as a wildcard,
// UUIDs in database errors, steps that searched on after empty reads, and
// registry states that could not be restored.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadCore } from '../../web/src/index.node.js';
import { createChatModel } from '../../web/src/llm/index.js';
import { runStep } from '../../web/src/loop/index.js';
import { stepComplete, toolCall, where } from './support/decisions.mjs';
import { recordingFetch } from './support/recording-fetch.mjs';
import { startScriptedModel } from './support/scripted-model.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
let core;
before(async () => {
  core = await loadCore();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function actFor({ fetch = recordingFetch(), ...options } = {}) {
  const user = ada();
  const act = core.createAct({ restUrl: stack().url, apiKey: stack().anonKey, accessToken: user.token, userId: user.id, fetch, ...options });
  return { act, fetch };
}

async function dbRows(path, token = ada().token) {
  const { status, body } = await rest(stack(), token, 'GET', path);
  assert.equal(status, 200, `GET ${path}: ${JSON.stringify(body)}`);
  return body;
}

async function insertAsAda(table, rows) {
  const { status, body } = await rest(stack(), ada().token, 'POST', `/${table}`, { body: rows, prefer: 'return=representation' });
  assert.equal(status, 201, JSON.stringify(body));
  return body;
}

const uuidOf = (act, ref) => act.registry.toJSON().refs.find((entry) => entry.ref === ref).uuid;
const idList = (act, rows) => rows.map((row) => uuidOf(act, row.id)).join(',');

function ok(result) {
  assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  return result;
}

// ---- batch creates ----------------------------------------------------------

test('batch create of distinct items keeps every field: "add bread, butter and eggs to my list"', async () => {
  const { act, fetch } = actFor();
  const items = [
    { name: 'bread', quantity: 1, unit: 'loaf' },
    { name: 'butter', quantity: 250, unit: 'g' },
    { name: 'eggs', quantity: 12, notes: 'free range' },
  ];
  const created = ok(await act.execute('db_create', { table: 'shopping_list', data: items }));
  assert.equal(created.data.length, 3);
  assert.deepEqual(created.query.notes.filter((note) => /duplicate/.test(note)), []);
  const insert = fetch.requests.find((request) => request.method === 'POST');
  const sent = JSON.parse(insert.body);
  assert.deepEqual(sent.map((row) => row.name), ['bread', 'butter', 'eggs']);
  const rows = await dbRows(`/shopping_list?select=name,quantity,unit,notes,ingredient_id,category&id=in.(${idList(act, created.data)})&order=name`);
  assert.deepEqual(
    rows.map(({ name, quantity, unit, notes }) => ({ name, quantity, unit, notes })),
    [
      { name: 'bread', quantity: 1, unit: 'loaf', notes: null },
      { name: 'butter', quantity: 250, unit: 'g', notes: null },
      { name: 'eggs', quantity: 12, unit: null, notes: 'free range' },
    ],
  );
  // butter and eggs are catalog entries: linked, with the catalog's category.
  const butter = rows.find((row) => row.name === 'butter');
  assert.match(butter.ingredient_id, UUID);
  assert.ok(butter.category);
});

test('batch create of distinct inventory items keeps every field (NOT NULL columns included)', async () => {
  const { act } = actFor();
  const created = ok(
    await act.execute('db_create', {
      table: 'inventory',
      data: [
        { name: 'bread', quantity: 1, unit: 'loaf', location: 'pantry' },
        { name: 'butter', quantity: 250, unit: 'g', location: 'fridge', expiry_date: '2030-01-31' },
      ],
    }),
  );
  assert.equal(created.data.length, 2);
  const rows = await dbRows(`/inventory?select=name,quantity,unit,location,expiry_date&id=in.(${idList(act, created.data)})&order=name`);
  assert.deepEqual(rows, [
    { name: 'bread', quantity: 1, unit: 'loaf', location: 'pantry', expiry_date: null },
    { name: 'butter', quantity: 250, unit: 'g', location: 'fridge', expiry_date: '2030-01-31' },
  ]);
});

test('batch create with a duplicate keeps the last of it and every other row whole', async () => {
  const { act } = actFor();
  const created = ok(
    await act.execute('db_create', {
      table: 'shopping_list',
      data: [{ name: 'rice', quantity: 1, unit: 'kg' }, { name: 'lemon', quantity: 3 }, { name: 'Rice', quantity: 2, unit: 'kg' }],
    }),
  );
  assert.equal(created.data.length, 2);
  assert.match(created.query.notes.join('\n'), /1 duplicate row\(s\) of the same item dropped/);
  const rows = await dbRows(`/shopping_list?select=name,quantity,unit&id=in.(${idList(act, created.data)})&order=name`);
  assert.deepEqual(rows, [
    { name: 'Rice', quantity: 2, unit: 'kg' },
    { name: 'lemon', quantity: 3, unit: null },
  ]);
});

// ---- a literal * ------------------------------------------------------------

const STAR_NAMES = ['star*item', 'Star*Item', 'star-item', 'starXitem', 'big star*item box', '*lead', 'x*lead'];

async function starRows() {
  const existing = await dbRows('/shopping_list?select=name&name=like.*item*');
  if (!existing.some((row) => row.name === 'star*item')) await insertAsAda('shopping_list', STAR_NAMES.map((name) => ({ name })));
}

/** Names of the shopping-list rows a read returns, limited to the test rows, sorted. */
async function namesRead(params, act = actFor().act) {
  const result = ok(await act.execute('db_read', { table: 'shopping_list', ...params }));
  assert.doesNotMatch(JSON.stringify(result.query), UUID);
  return result.data.map((row) => row.name).filter((name) => STAR_NAMES.includes(name)).sort();
}

test('a literal * in ilike / like matches only itself; * at the edges stays a wildcard', async () => {
  await starRows();
  assert.deepEqual(await namesRead({ filters: [where('name', 'ilike', 'star*item')] }), ['Star*Item', 'star*item']);
  assert.deepEqual(await namesRead({ filters: [where('name', 'like', 'star*item')] }), ['star*item']);
  assert.deepEqual(await namesRead({ filters: [where('name', 'ilike', 'star\\*item')] }), ['Star*Item', 'star*item']);
  assert.deepEqual(await namesRead({ filters: [where('name', 'ilike', '*\\*lead')] }), ['*lead', 'x*lead']);
  assert.deepEqual(await namesRead({ filters: [where('name', 'ilike', '\\*lead')] }), ['*lead']);
  // The wildcard meaning the model intends.
  assert.deepEqual(await namesRead({ filters: [where('name', 'ilike', '*star*')] }), ['Star*Item', 'big star*item box', 'star*item', 'star-item', 'starXitem']);
  assert.deepEqual(await namesRead({ filters: [where('name', 'ilike', '%star%item')] }), ['Star*Item', 'star*item', 'star-item', 'starXitem']);
  assert.deepEqual(await namesRead({ filters: [where('name', 'ilike', 'star_item')] }), ['Star*Item', 'star*item', 'star-item', 'starXitem']);
});

test('a literal * inside or_filters and in negated ops matches only itself', async () => {
  await starRows();
  assert.deepEqual(
    await namesRead({ or_filters: [where('name', 'ilike', 'star*item'), where('name', '=', 'starXitem')] }),
    ['Star*Item', 'star*item', 'starXitem'],
  );
  assert.deepEqual(
    await namesRead({ filters: [where('name', 'ilike', 'star%')], or_filters: [where('name', 'not_ilike', 'star*item'), where('name', 'is_null')] }),
    ['star-item', 'starXitem'],
  );
  assert.deepEqual(await namesRead({ filters: [where('name', 'ilike', '%item%'), where('name', 'not_like', 'star*item')] }), ['Star*Item', 'big star*item box', 'star-item', 'starXitem']);
});

test('the catalog lookup and its name fallback take a literal * literally: name = "star*item"', async () => {
  await starRows();
  // A catalog entry that `star*item` as a LIKE pattern would match.
  const { status } = await rest(stack(), stack().serviceKey, 'POST', '/ingredients', {
    body: { name: 'star-item', family: 'test', parent_category: 'pantry' },
    headers: { prefer: 'resolution=ignore-duplicates' },
  });
  assert.ok(status === 201 || status === 409, `ingredient insert: ${status}`);
  const { act, fetch } = actFor();
  const names = await namesRead({ filters: [where('name', '=', 'star*item')] }, act);
  assert.deepEqual(names, ['Star*Item', 'big star*item box', 'star*item']);
  const lookup = new URL(fetch.requests[0].url);
  assert.equal(lookup.pathname, '/ingredients');
  // Anchored, the `*` escaped, every letter a class that also takes accented letters (docs/pattern-encoding.md):
  // loose in the lookup, exact in the read.
  assert.match(lookup.searchParams.get('or'), /^\(name\.imatch\."\^\[sÀ-ỹ\](\[[a-z]À-ỹ\]){3}\\\\\*\[iÀ-ỹ\](\[[a-z]À-ỹ\]){3}\$",/);
  const main = new URL(fetch.requests.at(-1).url);
  assert.match(main.searchParams.get('name'), /^imatch\.\[sS[^\]]*\](\[[^\]]*\]){3}\\\*\[iI[^\]]*\](\[[^\]]*\]){3}$/);
});

test('the fuzzy name rewrite (recipes name = x → ilike *x*) takes a literal * literally', async () => {
  const base = { instructions: ['Bake.'] };
  const existing = await dbRows('/recipes?select=name&name=like.Pie*');
  if (!existing.some((row) => row.name === 'Pie*Crust')) {
    await insertAsAda('recipes', ['Pie*Crust', 'Pie-Crust', 'Deep Pie*Crust Dish'].map((name) => ({ ...base, name })));
  }
  const { act } = actFor();
  const result = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', 'pie*crust')], columns: ['name'] }));
  assert.deepEqual(result.data.map((row) => row.name).sort(), ['Deep Pie*Crust Dish', 'Pie*Crust']);
  assert.deepEqual(result.query.effective.filters, [{ field: 'name', op: 'ilike', value: '*pie\\*crust*' }]);
});

// ---- UUIDs in database errors -----------------------------------------------

function assertNoUuidForTheModel(error) {
  for (const key of ['message', 'details', 'hint']) assert.doesNotMatch(error[key] ?? '', UUID, `error.${key} has a UUID`);
}

// PostgreSQL leaves the key values out of constraint errors on tables with
// row-level security (every user table here, as on Supabase), so the UUIDs
// the stack quotes come from values it cannot read as UUIDs. The native
// tests (executor_test.cpp) cover `Key (id)=(…)` details.

/** A fetch that changes each request with `change(url, init)` before the real stack sees it. */
const tampering = (change) => async (url, init = {}) => {
  const [nextUrl, nextInit] = change(String(url), init);
  return fetch(nextUrl, nextInit);
};

test('an invalid-uuid error from the database shows <id> for an unknown UUID, even inside a longer value', async () => {
  const bad = tampering((url, init) => [url.replace(/user_id=eq\.([0-9a-f-]{36})/, 'user_id=eq.$10'), init]);
  const { act } = actFor({ fetch: bad });
  const result = await act.execute('db_read', { table: 'tasks' });
  assert.equal(result.error.code, 'invalid_value');
  assert.equal(result.error.dbCode, '22P02');
  assertNoUuidForTheModel(result.error);
  assert.equal(result.error.message, 'reading tasks failed: invalid input syntax for type uuid: "<id>0"');
  assert.equal(result.error.raw.message, `reading tasks failed: invalid input syntax for type uuid: "${ada().id}0"`);
});

test('an invalid-uuid error about a known row shows its ref', async () => {
  const { act } = actFor();
  const [recipe] = ok(await act.execute('db_read', { table: 'recipes', columns: ['id', 'name'], limit: 1 })).data;
  const recipeUuid = uuidOf(act, recipe.id);
  const bad = tampering((url, init) => [url, init.method === 'POST' ? { ...init, body: init.body.replace(recipeUuid, `${recipeUuid}x`) } : init]);
  const { act: writer } = actFor({ fetch: bad, registry: act.registry });
  const result = await writer.execute('db_create', { table: 'meal_plans', data: { date: '2030-02-01', meal_type: 'dinner', recipe_id: recipe.id } });
  assert.equal(result.error.dbCode, '22P02');
  assertNoUuidForTheModel(result.error);
  assert.equal(result.error.message, `db_create on meal_plans failed: invalid input syntax for type uuid: "${recipe.id}x"`);
  assert.ok(result.error.raw.message.includes(`${recipeUuid}x`));
});

test('a duplicate key on a client-supplied id: no UUID in what the model sees, error.raw for the developer', async () => {
  const { act } = actFor();
  const [task] = ok(await act.execute('db_read', { table: 'tasks', limit: 1 })).data;
  const taskUuid = uuidOf(act, task.id);
  // A client that puts an existing id into the insert (the executor never does).
  const bad = tampering((url, init) => [url, init.method === 'POST' ? { ...init, body: JSON.stringify({ ...JSON.parse(init.body), id: taskUuid }) } : init]);
  const { act: writer } = actFor({ fetch: bad, registry: act.registry });
  const result = await writer.execute('db_create', { table: 'tasks', data: { title: 'duplicate id' } });
  assert.equal(result.error.code, 'duplicate');
  assert.equal(result.error.status, 409);
  assertNoUuidForTheModel(result.error);
  assert.equal(result.error.message, 'db_create on tasks failed: duplicate key value violates unique constraint "tasks_pkey"');
  assert.deepEqual(result.error.raw, { message: result.error.message, details: '', hint: result.error.hint });
});

test('the loop feeds database errors back without UUIDs', async () => {
  const server = await startScriptedModel([toolCall('db_read', { table: 'tasks' }), stepComplete('No tasks readable')]);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'scripted', retryDelayMs: 10, maxRetries: 2 });
    const bad = tampering((url, init) => [url.replace(/user_id=eq\.([0-9a-f-]{36})/, 'user_id=eq.$10'), init]);
    const { act } = actFor({ fetch: bad });
    const result = await runStep({ core, act, model, step: { description: 'Read my tasks', type: 'read' }, context: { userMessage: 'my tasks?' } });
    assert.equal(result.status, 'complete');
    const feedback = server.requests[1].body.messages.at(-1).content;
    assert.match(feedback, /invalid input syntax for type uuid: "<id>0"/);
    for (const { body } of server.requests) {
      for (const message of body.messages.filter((entry) => entry.role !== 'assistant')) assert.doesNotMatch(message.content, UUID);
    }
  } finally {
    await server.stop();
  }
});

// ---- empty reads --------------------------------------------------------------

test('the second empty read of one table ends the step: "no data found in inventory"', async () => {
  const server = await startScriptedModel([
    toolCall('db_read', { table: 'inventory', filters: [where('name', 'ilike', '%qqqq%')] }),
    toolCall('db_read', { table: 'shopping_list', filters: [where('name', 'ilike', '%qqqq%')] }),
    toolCall('db_read', { table: 'inventory', filters: [where('name', 'ilike', '%zzzz%')] }),
    toolCall('db_read', { table: 'inventory', filters: [where('name', 'ilike', '%xxxx%')] }),
  ]);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'scripted', retryDelayMs: 10, maxRetries: 2 });
    const { act } = actFor();
    const events = [];
    const result = await runStep({
      core,
      act,
      model,
      step: { description: 'Find the saffron', type: 'read' },
      context: { userMessage: 'do I have saffron?' },
      maxToolCalls: 6,
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.status, 'complete');
    assert.equal(result.summary, 'Step completed (no data found in inventory)');
    assert.equal(result.note, 'no data found in inventory');
    assert.deepEqual(result.queries.map((query) => [query.table, query.data.length]), [['inventory', 0], ['shopping_list', 0], ['inventory', 0]]);
    assert.equal(server.used, 3, 'the model is not asked for a fourth search');
    assert.equal(events.at(-1).type, 'step_done');
  } finally {
    await server.stop();
  }
});

// ---- registry limits -----------------------------------------------------------

test('a registry restored near the ref-number limit stays restorable; the next new row is registry_full', async () => {
  const registry = core.createRegistry({ format: 'alfred-act/registry', version: 1, turn: 1, counters: { recipe: 999999998 }, gen_counters: {}, refs: [] });
  const rows = await dbRows('/recipes?select=id,name&limit=2&order=name');
  assert.equal(registry.translateRows('recipes', [rows[0]]).data[0].id, 'recipe_999999999');
  const state = registry.toJSON();
  core.createRegistry(state).delete();
  const full = registry.translateRows('recipes', [rows[1]]);
  assert.equal(full.error.code, 'registry_full');
  assert.deepEqual(registry.toJSON(), state);
  assert.throws(() => core.createRegistry({ ...state, counters: { recipe: 1000000000 } }), { code: 'invalid_state', path: 'counters.recipe' });
  registry.delete();
});

test('a 100 000-character name is a capped label: prompts and toJSON() stay small and never throw', () => {
  const registry = core.createRegistry();
  const name = 'n'.repeat(100_000);
  const { data: ref, error } = registry.registerGenerated('recipes', { name, instructions: ['x'] });
  assert.equal(error, null);
  const entry = registry.toJSON().refs.find((item) => item.ref === ref);
  assert.equal(entry.label, `${'n'.repeat(199)}…`);
  // 6 MB of two-byte characters: under the 8 MiB input limit (loadCore's maxInputBytes).
  const huge = registry.registerGenerated('recipes', { name: 'é'.repeat(3_000_000), instructions: ['x'] });
  assert.equal(huge.error, null);
  assert.doesNotThrow(() => registry.toJSON());
  assert.equal([...registry.toJSON().refs.at(-1).label].length, 200);
  // 10 MB is over it: refused before it reaches WASM memory, the registry unchanged.
  const state = registry.toJSON();
  const over = registry.registerGenerated('recipes', { name: 'é'.repeat(5_000_000), instructions: ['x'] });
  assert.deepEqual([over.data, over.error.code, over.error.path], [null, 'input_too_large', 'content']);
  assert.deepEqual(registry.toJSON(), state);
  registry.delete();
});

// ---- lists with "" and null ------------------------------------------------

test('in ["", null] finds the rows with "" and the NULL ones, as a filter and inside or_filters', async () => {
  const { act } = actFor();
  const unit = 'empty-null-probe';
  await insertAsAda('shopping_list', [
    { name: 'probe empty notes', notes: '', quantity: 1, unit, user_id: ada().id },
    { name: 'probe null notes', notes: null, quantity: 1, unit, user_id: ada().id },
    { name: 'probe x notes', notes: 'x', quantity: 1, unit, user_id: ada().id },
  ]);
  assert.equal((await dbRows(`/shopping_list?select=id&unit=eq.${unit}`)).length, 3);
  const names = async (params) => {
    const result = ok(await act.execute('db_read', { table: 'shopping_list', ...params }));
    return result.data.map((row) => row.name).sort();
  };
  const sameUnit = where('unit', '=', unit);
  // It went as or=(notes.in.(""),notes.is.null), which finds only the NULL row.
  assert.deepEqual(await names({ filters: [sameUnit, where('notes', 'in', ['', null])] }), ['probe empty notes', 'probe null notes']);
  assert.deepEqual(await names({ filters: [sameUnit], or_filters: [where('notes', 'in', ['', null])] }), ['probe empty notes', 'probe null notes']);
  assert.deepEqual(await names({ filters: [sameUnit, where('notes', 'not_in', ['', null])] }), ['probe x notes']);
  assert.deepEqual(await names({ filters: [sameUnit], or_filters: [where('notes', 'not_in', ['', null])] }), ['probe x notes']);
});
