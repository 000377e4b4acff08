// User-level scenarios on the shopping list, as the tool calls a model makes
// for a plain request, run by createAct against the real local stack and
// checked by reading the database back as the user with an independent
// query. Every result is also checked for UUIDs in what the model sees.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { where } from '../support/decisions.mjs';
import { catalog, db, kit } from './kit.mjs';
import { added, assertModelFacing, ok, pick, refused, unique, uuidOf } from '../support/scenario.mjs';

const enc = encodeURIComponent;


/** Reads one shopping-list row by name as a model would, and returns its ref. */
async function refByName(act, name) {
  const read = ok(await act.execute('db_read', { table: 'shopping_list', filters: [where('name', '=', name)] }));
  const row = read.data.find((r) => r.name === name);
  assert.ok(row, `${name} is on the list: ${JSON.stringify(read.data.map((r) => r.name))}`);
  return row.id;
}

test('"add milk to my shopping list": one row, linked to the catalog, owned by the user', async () => {
  const { act } = kit.actFor();
  const before = await db('/shopping_list?select=id');
  const result = ok(await act.execute('db_create', { table: 'shopping_list', data: { name: 'milk', quantity: 2, unit: 'l', source: 'manual' } }));
  assert.match(result.data.id, /^shop_\d+$/);
  assert.match(result.data.ingredient_id, /^ing_\d+$/);
  assert.equal(result.data.name, 'milk');
  assert.equal(result.count, 1);
  const milk = await catalog('milk');
  const rows = added(before, await db('/shopping_list?select=id,name,quantity,unit,ingredient_id,category,is_purchased,user_id'));
  assert.deepEqual(pick(rows, 'name', 'quantity', 'unit', 'ingredient_id', 'category', 'is_purchased', 'user_id'), [
    { name: 'milk', quantity: 2, unit: 'l', ingredient_id: milk.id, category: milk.category, is_purchased: false, user_id: kit.ada().id },
  ]);
  assert.equal(rows[0].id, uuidOf(act, result.data.id));
  assert.equal((await db(`/shopping_list?id=eq.${rows[0].id}&select=id`, kit.ben())).length, 0, "Ben does not see Ada's row");
});

test('"add creme fraîche to my list": a name typed with half its accents is linked to the catalog entry', async () => {
  const { act } = kit.actFor();
  const before = await db('/shopping_list?select=id');
  const result = ok(await act.execute('db_create', { table: 'shopping_list', data: { name: 'creme fraîche', quantity: 200, unit: 'g' } }));
  const creme = await catalog('crème fraîche');
  assert.match(result.data.ingredient_id, /^ing_\d+$/);
  assert.ok(result.query.notes.some((note) => note.includes('crème fraîche')), result.query.notes.join('\n'));
  const rows = added(before, await db('/shopping_list?select=id,name,ingredient_id,category'));
  assert.deepEqual(pick(rows, 'name', 'ingredient_id', 'category'), [{ name: 'creme fraîche', ingredient_id: creme.id, category: creme.category }]);
  assertModelFacing(result);
});

test('"add everything for the party": a batch of 60 items is looked up in the catalog in several requests and linked', async () => {
  const { act, fetch } = kit.actFor();
  const before = await db('/shopping_list?select=id');
  const party = unique('party');
  const items = Array.from({ length: 58 }, (_, i) => ({ name: `${party} snack ${i}`, quantity: i + 1 }));
  items.push({ name: 'creme fraîche', quantity: 1 }, { name: 'milk', quantity: 2, unit: 'l' });
  const result = ok(await act.execute('db_create', { table: 'shopping_list', data: items }));
  assert.equal(result.count, 60);
  const lookups = fetch.requests.filter((request) => new URL(request.url).pathname === '/ingredients');
  assert.ok(lookups.length > 1, `${lookups.length} catalog lookups`);
  for (const request of lookups) assert.ok(request.url.length < 6000, `lookup URL of ${request.url.length} bytes`);
  const rows = added(before, await db('/shopping_list?select=id,name,quantity,ingredient_id'));
  assert.equal(rows.length, 60);
  const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
  assert.equal(byName[`${party} snack 57`].quantity, 58);
  assert.equal(byName['creme fraîche'].ingredient_id, (await catalog('crème fraîche')).id);
  assert.equal(byName.milk.ingredient_id, (await catalog('milk')).id);
  assertModelFacing(result);
});

test('"add bread, butter and eggs to my shopping list": a batch of distinct items keeps every field', async () => {
  const { act } = kit.actFor();
  const before = await db('/shopping_list?select=id');
  const result = await act.execute('db_create', {
    table: 'shopping_list',
    data: [
      { name: 'bread', quantity: 1, unit: 'loaf' },
      { name: 'butter', quantity: 250, unit: 'g' },
      { name: 'eggs', quantity: 12, unit: 'piece' },
    ],
  });
  ok(result);
  assert.equal(result.data.length, 3);
  const [bread, butter, egg] = await Promise.all(['bread', 'butter', 'egg'].map(catalog));
  const rows = added(before, await db('/shopping_list?select=id,name,quantity,unit,ingredient_id,user_id'));
  assert.deepEqual(pick(rows, 'name', 'quantity', 'unit', 'ingredient_id', 'user_id'), [
    { name: 'bread', quantity: 1, unit: 'loaf', ingredient_id: bread.id, user_id: kit.ada().id },
    { name: 'butter', quantity: 250, unit: 'g', ingredient_id: butter.id, user_id: kit.ada().id },
    { name: 'eggs', quantity: 12, unit: 'piece', ingredient_id: egg.id, user_id: kit.ada().id },
  ]);
});

test('"put bananas on the list, oh and one more banana, and bay leaves": duplicates in a batch become one row, the last kept', async () => {
  const { act } = kit.actFor();
  const before = await db('/shopping_list?select=id');
  const result = ok(
    await act.execute('db_create', {
      table: 'shopping_list',
      data: [
        { name: 'bananas', quantity: 6, unit: 'piece' },
        { name: 'banana', quantity: 1, unit: 'piece' },
        { name: 'bay leaves', quantity: 1, unit: 'jar' },
      ],
    }),
  );
  assert.equal(result.data.length, 2);
  assert.ok(result.query.notes.some((note) => note.includes('1 duplicate row(s)')), result.query.notes.join('\n'));
  const [banana, bay] = await Promise.all([catalog('banana'), catalog('bay leaf')]);
  const rows = added(before, await db('/shopping_list?select=id,name,quantity,unit,ingredient_id'));
  assert.deepEqual(pick(rows, 'name', 'quantity', 'unit', 'ingredient_id'), [
    { name: 'banana', quantity: 1, unit: 'piece', ingredient_id: banana.id },
    { name: 'bay leaves', quantity: 1, unit: 'jar', ingredient_id: bay.id },
  ]);
});

test('"what\'s left to buy?": the unbought items, exactly as the database has them', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'shopping_list', filters: [where('is_purchased', '=', false)], order_by: 'name' }));
  const truth = await db('/shopping_list?is_purchased=is.false&select=name&order=name');
  assert.deepEqual(result.data.map((row) => row.name), truth.map((row) => row.name));
  assert.equal(result.count, truth.length);
  assert.ok(result.data.every((row) => row.is_purchased === false && /^shop_\d+$/.test(row.id)));
});

test('"is tamarnd paste on my list?": a typo finds nothing and says why; nothing else comes back', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'shopping_list', filters: [where('name', '=', 'tamarnd paste')] }));
  assert.deepEqual(result.data, []);
  assert.equal(result.count, 0);
  assert.ok(result.query.notes.some((note) => note.includes('no catalog entry is named "tamarnd paste"')), result.query.notes.join('\n'));
  assert.deepEqual(result.query.effective.filters, [{ field: 'name', op: 'ilike', value: '*tamarnd paste*' }]);
  assert.match(kit.core.renderQuery(result.query).data, /Outcome: 0 records found/);
  assert.equal((await db('/shopping_list?name=ilike.*tamarind*&select=name')).length, 1, 'the real item is there under its right name');
});

test('"make that 6 limes": update one row by its ref', async () => {
  const { act } = kit.actFor();
  const ref = await refByName(act, 'lime');
  const before = await db('/shopping_list?select=id,quantity&order=id');
  const result = ok(await act.execute('db_update', { table: 'shopping_list', filters: [where('id', '=', ref)], data: { quantity: 6 } }));
  assert.deepEqual(pick(result.data, 'id', 'name', 'quantity'), [{ id: ref, name: 'lime', quantity: 6 }]);
  const uuid = uuidOf(act, ref);
  assert.deepEqual(await db('/shopping_list?select=id,quantity&order=id'), before.map((row) => (row.id === uuid ? { ...row, quantity: 6 } : row)));
});

test('"I bought the thai basil and the red curry paste": one update for a batch of refs changes exactly those rows', async () => {
  const { act } = kit.actFor();
  const refs = [await refByName(act, 'thai basil'), await refByName(act, 'red curry paste')];
  const before = await db('/shopping_list?select=id,name,is_purchased&order=id');
  const result = ok(await act.execute('db_update', { table: 'shopping_list', filters: [where('id', 'in', refs)], data: { is_purchased: true } }));
  assert.deepEqual(result.data.map((row) => row.id).sort(), [...refs].sort());
  assert.equal(result.count, 2);
  const changed = new Set(refs.map((ref) => uuidOf(act, ref)));
  assert.deepEqual(
    await db('/shopping_list?select=id,name,is_purchased&order=id'),
    before.map((row) => (changed.has(row.id) ? { ...row, is_purchased: true } : row)),
  );
});

test('"take the oat milk off, it\'s the barista one": update by the exact name, then delete by ref', async () => {
  const { act } = kit.actFor();
  const name = 'oat milk, barista edition';
  const updated = ok(await act.execute('db_update', { table: 'shopping_list', filters: [where('name', '=', name)], data: { notes: 'not needed' } }));
  assert.equal(updated.count, 1, 'a comma in the name stays one value');
  const ref = updated.data[0].id;
  assert.deepEqual(await db(`/shopping_list?name=eq.${enc(name)}&select=notes`), [{ notes: 'not needed' }]);
  const before = await db('/shopping_list?select=id');
  const deleted = ok(await act.execute('db_delete', { table: 'shopping_list', filters: [where('id', '=', ref)] }));
  assert.deepEqual(deleted.data.map((row) => row.name), [name]);
  assert.deepEqual(await db(`/shopping_list?name=eq.${enc(name)}&select=id`), []);
  assert.equal((await db('/shopping_list?select=id')).length, before.length - 1);
});

test('"remove the Pad Thai things except the rice noodles": delete by filter with not_in keeps exactly the exception', async () => {
  const { act } = kit.actFor();
  const keep = await refByName(act, 'rice noodles');
  const source = 'Pad Thai with Shrimp';
  const padThai = await db(`/shopping_list?source=eq.${enc(source)}&select=name&order=name`);
  assert.ok(padThai.length >= 3);
  const others = await db(`/shopping_list?source=neq.${enc(source)}&select=id,name,quantity&order=id`);
  const result = ok(await act.execute('db_delete', { table: 'shopping_list', filters: [where('source', '=', source), where('id', 'not_in', [keep])] }));
  assert.deepEqual(result.data.map((row) => row.name).sort(), padThai.map((row) => row.name).filter((name) => name !== 'rice noodles'));
  assert.deepEqual(await db(`/shopping_list?source=eq.${enc(source)}&select=name`), [{ name: 'rice noodles' }]);
  assert.deepEqual(await db(`/shopping_list?source=neq.${enc(source)}&select=id,name,quantity&order=id`), others, 'nothing else changed');
});

test('"is rice* on my list?": a literal * in a name matches only that name', async () => {
  const { act } = kit.actFor();
  const name = unique('rice* (brown, the good one)');
  ok(await act.execute('db_create', { table: 'shopping_list', data: { name, quantity: 1, unit: 'bag' } }));
  const result = ok(await act.execute('db_read', { table: 'shopping_list', filters: [where('name', '=', 'rice*')] }));
  assert.deepEqual(result.data.map((row) => row.name), [name], 'rice noodles must not match rice*');
});

// The whole list (70 seeded rows) is more than one call changes by default
// (maxAffected 50, docs/safety-controls.md): these scenarios raise it.
const WHOLE_LIST = { maxAffected: 200 };

test('"mark the shopping list as bought": every open item of the user, and only those', async () => {
  const { act } = kit.actFor(WHOLE_LIST);
  const open = await db('/shopping_list?is_purchased=is.false&select=id&order=id');
  assert.ok(open.length >= 3);
  const benBefore = await db('/shopping_list?select=id,is_purchased&order=id', kit.ben());
  const result = ok(await act.execute('db_update', { table: 'shopping_list', filters: [where('is_purchased', '=', false)], data: { is_purchased: true } }));
  assert.equal(result.count, open.length);
  assert.deepEqual(await db('/shopping_list?is_purchased=is.false&select=id'), []);
  assert.deepEqual(await db('/shopping_list?select=id,is_purchased&order=id', kit.ben()), benBefore, "Ben's list is untouched");
});

test('"clear out what I bought": delete by filter removes the bought rows and reports each', async () => {
  const { act } = kit.actFor(WHOLE_LIST);
  const bought = await db('/shopping_list?is_purchased=is.true&select=name&order=name');
  assert.ok(bought.length >= 1);
  const result = ok(await act.execute('db_delete', { table: 'shopping_list', filters: [where('is_purchased', '=', true)] }));
  assert.deepEqual(result.data.map((row) => row.name).sort(), bought.map((row) => row.name).sort());
  assert.deepEqual(await db('/shopping_list?select=id'), []);
  const again = ok(await act.execute('db_delete', { table: 'shopping_list', filters: [where('is_purchased', '=', true)] }));
  assert.deepEqual([again.data, again.count], [[], 0]);
  assert.ok(again.query.notes.some((note) => note.includes('no row matched')));
});

test('"clear my shopping list except the limes": not_in alone is the filter', async () => {
  const { act } = kit.actFor(WHOLE_LIST);
  for (const name of ['lime', 'dish soap', 'paper towels']) ok(await act.execute('db_create', { table: 'shopping_list', data: { name, quantity: 1 } }));
  const keep = await refByName(act, 'lime');
  const count = (await db('/shopping_list?select=id')).length;
  assert.ok(count >= 3);
  const benBefore = await db('/shopping_list?select=id&order=id', kit.ben());
  const result = ok(await act.execute('db_delete', { table: 'shopping_list', filters: [where('id', 'not_in', [keep])] }));
  assert.equal(result.count, count - 1);
  assert.deepEqual(await db('/shopping_list?select=id,name'), [{ id: uuidOf(act, keep), name: 'lime' }]);
  assert.deepEqual(await db('/shopping_list?select=id&order=id', kit.ben()), benBefore);
});

test('mistakes on the shopping list are refused before any request: an inventory ref, a pasted UUID, a misspelt column', async () => {
  const { act: reader } = kit.actFor();
  const inv = ok(await reader.execute('db_read', { table: 'inventory', filters: [where('location', '=', 'pantry')], limit: 1 }));
  const state = reader.registry.toJSON();
  const everything = await kit.everything(['shopping_list']);

  const { act, fetch } = kit.actFor({ state });
  refused(await act.execute('db_update', { table: 'shopping_list', filters: [where('id', '=', inv.data[0].id)], data: { is_purchased: true } }), 'ref_type_mismatch', fetch);
  const invented = '11111111-2222-3333-4444-555555555555';
  const pasted = await act.execute('db_delete', { table: 'shopping_list', filters: [where('id', '=', invented)] });
  refused(pasted, 'invented_uuid', fetch, { allow: [invented] });
  const column = refused(await act.execute('db_create', { table: 'shopping_list', data: { name: 'soap', quantity: 1, purchased: true } }), 'unknown_column', fetch);
  assert.equal(column.error.path, 'data.purchased');
  assert.match(column.error.hint, /is_purchased/);
  assertModelFacing(column);
  assert.deepEqual(await kit.everything(['shopping_list']), everything, 'nothing was written');
});
