// The mistakes models make, on every table of the kitchen domain: a ref of
// another table, a UUID pasted or invented, a ref that does not exist, a
// misspelt column or table, the owner column, a value of the wrong type.
// Each is refused with its error code before any request, nothing is
// written, and nothing the model sees carries a UUID it did not write itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { where } from '../support/decisions.mjs';
import { recordingFetch } from '../support/recording-fetch.mjs';
import { assertModelFacing, ok, refused, uuidOf } from '../support/scenario.mjs';
import { db, kit } from './kit.mjs';

// Per table: a row a model would create, a column it misspells (and the
// column the hint must name), and a value of the wrong type.
const TABLES = {
  recipes: { row: { name: 'Tomato Soup', instructions: ['Simmer.'] }, typo: ['cook_time', 'cook_time_minutes'], wrongType: ['servings', 'four'] },
  recipe_ingredients: { row: (refs) => ({ recipe_id: refs.recipes, name: 'salt' }), typo: ['qty', 'quantity'], wrongType: ['quantity', 'a pinch'] },
  inventory: { row: { name: 'flour', quantity: 1, unit: 'kg' }, typo: ['expiry', 'expiry_date'], wrongType: ['quantity', 'two'] },
  shopping_list: { row: { name: 'flour' }, typo: ['bought', 'is_purchased'], wrongType: ['quantity', 'a few'] },
  meal_plans: { row: { date: '2031-06-01', meal_type: 'dinner' }, typo: ['recipe', 'recipe_id'], wrongType: ['date', 'next friday'] },
  tasks: { row: { title: 'Descale the kettle' }, typo: ['done', 'completed'], wrongType: ['due_date', 'tomorrow'] },
  preferences: { row: { household_adults: 2 }, typo: ['allergy', 'allergies'], wrongType: ['household_adults', 'two'] },
  cooking_log: { row: { rating: 4 }, typo: ['stars', 'rating'], wrongType: ['rating', 'five'] },
};
const ALL = [...Object.keys(TABLES), 'ingredients'];

// One registry that has read a row of every table: the context a model has
// after a few reads. Read once, by the first test that needs it.
let context;
function readContext() {
  context ??= (async () => {
    const { act } = kit.actFor();
    const refs = {};
    for (const table of ALL) {
      const read = ok(await act.execute('db_read', { table, limit: 1 }));
      assert.equal(read.data.length, 1, `${table} has a row`);
      refs[table] = read.data[0].id;
    }
    return { state: act.registry.toJSON(), refs, uuid: (table) => uuidOf(act, refs[table]) };
  })();
  return context;
}

for (const [table, mistakes] of Object.entries(TABLES)) {
  test(`mistakes on ${table}: another table's ref, pasted and invented UUIDs, unknown refs, misspelt columns and table, owner column, wrong type`, async () => {
    const { state, refs, uuid } = await readContext();
    const other = ALL.find((name) => name !== table && name !== 'ingredients');
    const everything = await kit.everything([table]);
    const { act, fetch } = kit.actFor({ state });
    const row = typeof mistakes.row === 'function' ? mistakes.row(refs) : mistakes.row;
    const prefix = refs[table].replace(/_\d+$/, '');

    const wrong = refused(await act.execute('db_update', { table, filters: [where('id', '=', refs[other])], data: row }), 'ref_type_mismatch', fetch);
    assert.equal(wrong.error.path, 'filters[0].value');
    assert.match(wrong.error.message, new RegExp(`${refs[other]}.*${other}.*${table}`));
    assert.match(wrong.error.hint, new RegExp(`${refs[table]}`), 'the hint offers the refs of the right table');

    const pastedUuid = uuid(other);
    refused(await act.execute('db_delete', { table, filters: [where('id', 'in', [pastedUuid])] }), 'ref_type_mismatch', fetch, { allow: [pastedUuid] });
    const invented = '00000000-0000-0000-0000-000000000000';
    const nil = refused(await act.execute('db_delete', { table, filters: [where('id', '=', invented)] }), 'invented_uuid', fetch, { allow: [invented] });
    assert.deepEqual(nil.query.requested, { filters: [{ field: 'id', op: '=', value: '(uuid)' }], table }, 'the record masks it');
    refused(await act.execute('db_delete', { table, filters: [where('id', '=', `${prefix}_999`)] }), 'unknown_ref', fetch);
    refused(await act.execute('db_update', { table, filters: [where('id', '=', refs[table].toUpperCase())], data: row }), 'unknown_ref', fetch);

    const [typo, right] = mistakes.typo;
    const column = refused(await act.execute('db_create', { table, data: { ...row, [typo]: 1 } }), 'unknown_column', fetch);
    assert.equal(column.error.path, `data.${typo}`);
    assert.match(column.error.hint, new RegExp(`\\b${right}\\b`));
    refused(await act.execute('db_read', { table, filters: [where(typo, '=', 1)] }), 'unknown_column', fetch);
    refused(await act.execute('db_read', { table, order_by: typo }), 'unknown_column', fetch);
    const owner = refused(await act.execute('db_create', { table, data: { ...row, user_id: kit.ben().id } }), 'system_column', fetch, { allow: [kit.ben().id] });
    assert.equal(owner.error.path, 'data.user_id');
    refused(await act.execute('db_create', { table, data: { ...row, id: refs[table] } }), 'system_column', fetch);
    const [field, value] = mistakes.wrongType;
    const typed = refused(await act.execute('db_create', { table, data: { ...row, [field]: value } }), 'invalid_value', fetch);
    assert.equal(typed.error.path, `data.${field}`);
    const misspelt = refused(await act.execute('db_read', { table: table.slice(0, -1) }), 'unknown_table', fetch);
    assert.match(misspelt.error.hint, new RegExp(`\\b${table}\\b`));

    assert.deepEqual(await kit.everything([table]), everything, 'nothing was written');
  });
}

test('mistakes on ingredients: the catalog is read-only, and reads get the same checks', async () => {
  const { state, refs } = await readContext();
  const everything = await kit.everything(['ingredients']);
  const { act, fetch } = kit.actFor({ state });
  refused(await act.execute('db_create', { table: 'ingredients', data: { name: 'yuzu', family: 'citrus' } }), 'read_only_table', fetch);
  refused(await act.execute('db_update', { table: 'ingredients', filters: [where('id', '=', refs.ingredients)], data: { tier: 1 } }), 'read_only_table', fetch);
  refused(await act.execute('db_read', { table: 'ingredients', filters: [where('id', '=', refs.inventory)] }), 'ref_type_mismatch', fetch);
  refused(await act.execute('db_read', { table: 'ingredients', filters: [where('colour', '=', 'red')] }), 'unknown_column', fetch);
  refused(await act.execute('db_read', { table: 'ingredients', filters: [where('embedding', 'is_not_null')] }), 'unknown_column', fetch);
  refused(await act.execute('db_read', { table: 'ingredients', filters: [where('tier', '=', 'high')] }), 'invalid_value', fetch);
  assert.deepEqual(await kit.everything(['ingredients']), everything);
});

test('database errors reach the model typed and without UUIDs: a pasted catalog id is refused unsent, a duplicate', async () => {
  const everything = await kit.everything(['inventory', 'preferences']);
  const { act, fetch } = kit.actFor();
  const ghost = 'a3bb189e-8bf9-4888-9912-ace4e6543002';
  const pasted = refused(await act.execute('db_create', { table: 'inventory', data: { name: 'mystery spice', quantity: 1, unit: 'jar', ingredient_id: ghost } }), 'raw_id', fetch);
  assert.equal(pasted.error.path, 'data.ingredient_id');
  assertModelFacing(pasted);
  const duplicate = await act.execute('db_create', { table: 'preferences', data: { household_adults: 4 } });
  assert.equal(duplicate.error.code, 'duplicate');
  assertModelFacing(duplicate);
  assert.deepEqual(await kit.everything(['inventory', 'preferences']), everything);
});

test('an error page quoting the request URL does not hand the user id to the model', async () => {
  // A gateway in front of PostgREST answering 502 with the request line in its page.
  const fetch = recordingFetch({ respond: (url) => new Response(`502 Bad Gateway: upstream timed out for GET ${url}`, { status: 502, headers: { 'content-type': 'text/plain' } }) });
  const { act } = kit.actFor({ fetch });
  const result = await act.execute('db_read', { table: 'tasks', filters: [where('completed', '=', false)] });
  assert.deepEqual([result.error.code, result.error.status], ['server_error', 502]);
  assert.ok(fetch.requests[0].url.includes(kit.ada().id), 'the request carried the user id');
  assertModelFacing(result);
});

test('refs are per user: Ben\'s act cannot reach a row Ada\'s model has a ref for', async () => {
  const { state: saved, refs, uuid } = await readContext();
  const everything = await kit.everything(['inventory']);
  // Ben's session with Ada's state (a state mixed up between users) is refused as the act is made...
  assert.throws(() => kit.actFor({ user: kit.ben(), state: saved }), { code: 'state_of_another_user' });
  // ...and with her user taken out of it, the refs resolve and RLS answers.
  const { user: _ada, ...state } = typeof saved === 'string' ? JSON.parse(saved) : saved;
  const { act, fetch } = kit.actFor({ user: kit.ben(), state });
  const result = await act.execute('db_update', { table: 'inventory', filters: [where('id', '=', refs.inventory)], data: { quantity: 0 } });
  assert.equal(result.error, null);
  assert.deepEqual([result.data, result.count], [[], 0]);
  assert.ok(result.query.notes.some((note) => note.includes('may belong to another user')));
  assert.equal(new URL(fetch.requests[0].url).searchParams.get('user_id'), `eq.${kit.ben().id}`);
  assertModelFacing(result);
  assert.equal((await db(`/inventory?id=eq.${uuid('inventory')}&select=id`)).length, 1);
  assert.deepEqual(await kit.everything(['inventory']), everything);
});
