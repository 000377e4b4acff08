// User-level scenarios on the inventory and the read-only ingredient catalog,
// as the tool calls a model makes for a plain request, run by createAct
// against the real local stack and checked by reading the database back as
// the user with an independent query.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { where } from '../support/decisions.mjs';
import { catalog, db, kit } from './kit.mjs';
import { added, isoDay, ok, pick, refused, uuidOf } from '../support/scenario.mjs';

const enc = encodeURIComponent;


/** Reads an inventory item by name as a model would; returns the row the model sees. */
async function itemNamed(act, name) {
  const read = ok(await act.execute('db_read', { table: 'inventory', filters: [where('name', '=', name)] }));
  const row = read.data.find((r) => r.name === name);
  assert.ok(row, `${name} is in the inventory: ${JSON.stringify(read.data.map((r) => r.name))}`);
  return row;
}

test('"what\'s in my fridge?": the fridge rows with catalog fields, nothing of Ben\'s', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'inventory', filters: [where('location', '=', 'fridge')] }));
  const truth = await db('/inventory?location=eq.fridge&select=name,quantity,unit&order=name');
  assert.deepEqual(pick(result.data, 'name', 'quantity', 'unit'), pick(truth, 'name', 'quantity', 'unit'));
  const egg = result.data.find((row) => row.name === 'egg');
  assert.match(egg.ingredient_id, /^ing_\d+$/);
  assert.equal(egg.ingredients.parent_category, 'protein', 'the catalog fields come along');
  const benFridge = await db('/inventory?location=eq.fridge&select=name', kit.ben());
  assert.ok(benFridge.some((row) => !truth.some((t) => t.name === row.name)), 'Ben has items Ada does not');
  assert.ok(result.data.every((row) => truth.some((t) => t.name === row.name)));
});

test('"what expires in the next 5 days?": a date range ordered by expiry', async () => {
  const { act } = kit.actFor();
  const result = ok(
    await act.execute('db_read', {
      table: 'inventory',
      filters: [where('expiry_date', '>=', isoDay(0)), where('expiry_date', '<=', isoDay(5))],
      order_by: 'expiry_date',
      columns: ['name', 'expiry_date'],
    }),
  );
  const truth = await db(`/inventory?expiry_date=gte.${isoDay(0)}&expiry_date=lte.${isoDay(5)}&select=name,expiry_date&order=expiry_date,name`);
  assert.deepEqual(result.data.map((row) => row.expiry_date), truth.map((row) => row.expiry_date));
  assert.deepEqual(result.data.map((row) => row.name).sort(), truth.map((row) => row.name).sort());
  assert.ok(truth.length >= 3);
  assert.match(kit.core.renderQuery(result.query).data, /Filters: expiry_date >= \d{4}-\d\d-\d\d, expiry_date <= \d{4}-\d\d-\d\d \| Columns: name, expiry_date \| Order: expiry_date asc/);
});

test('"anything in the garage?": an empty read is an answer, with count 0', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'inventory', filters: [where('location', '=', 'garage')] }));
  assert.deepEqual([result.data, result.count, result.query.source], [[], 0, 'database']);
  assert.match(kit.core.renderQuery(result.query).data, /^Outcome: 0 records found$/m);
});

test('"how much chiken do I have?": a typo falls back to the name match and finds nothing', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'inventory', filters: [where('name', '=', 'chiken')] }));
  assert.deepEqual(result.data, []);
  assert.ok(result.query.notes.some((note) => note.includes('no catalog entry is named "chiken"')), result.query.notes.join('\n'));
  const plural = ok(await act.execute('db_read', { table: 'inventory', filters: [where('name', '=', 'Chicken Thighs')] }));
  assert.deepEqual(plural.data.map((row) => row.name), ['chicken thigh'], 'the right spelling, plural and capitalised, finds it');
});

test('"I used 2 eggs": read the eggs, then set the new quantity by ref', async () => {
  const { act } = kit.actFor();
  const egg = await itemNamed(act, 'egg');
  const before = await db('/inventory?select=id,name,quantity&order=id');
  const result = ok(await act.execute('db_update', { table: 'inventory', filters: [where('id', '=', egg.id)], data: { quantity: egg.quantity - 2 } }));
  assert.deepEqual([result.data[0].id, result.data[0].quantity, result.count], [egg.id, egg.quantity - 2, 1]);
  const uuid = uuidOf(act, egg.id);
  assert.deepEqual(
    await db('/inventory?select=id,name,quantity&order=id'),
    before.map((row) => (row.id === uuid ? { ...row, quantity: egg.quantity - 2 } : row)),
  );
});

test('"set the rice to 1.5 kg": update by the exact name changes that row only', async () => {
  const { act } = kit.actFor();
  const before = await db('/inventory?select=name,quantity&order=name');
  const result = ok(await act.execute('db_update', { table: 'inventory', filters: [where('name', '=', 'rice')], data: { quantity: 1500 } }));
  assert.deepEqual(pick(result.data, 'name', 'quantity'), [{ name: 'rice', quantity: 1500 }]);
  assert.deepEqual(await db('/inventory?select=name,quantity&order=name'), before.map((row) => (row.name === 'rice' ? { ...row, quantity: 1500 } : row)));
});

test('"I used the last eggs" written as an update by name: writes match names exactly, so "eggs" changes nothing and says so', async () => {
  const { act } = kit.actFor();
  const before = await db('/inventory?select=id,quantity&order=id');
  const result = ok(await act.execute('db_update', { table: 'inventory', filters: [where('name', '=', 'eggs')], data: { quantity: 0 } }));
  assert.deepEqual([result.data, result.count], [[], 0]);
  assert.ok(result.query.notes.some((note) => note.includes('no row matched')));
  assert.deepEqual(await db('/inventory?select=id,quantity&order=id'), before);
  const milk = ok(await act.execute('db_delete', { table: 'inventory', filters: [where('name', '=', 'Milk')] }));
  assert.deepEqual(milk.data, [], 'no case folding either: coconut milk and milk stay');
  assert.equal((await db('/inventory?name=ilike.*milk*&select=id')).length, 2);
});

test('"note on all the cans that they are in the left cupboard": one update for a batch of refs', async () => {
  const { act } = kit.actFor();
  const cans = ok(await act.execute('db_read', { table: 'inventory', filters: [where('unit', '=', 'can')] }));
  assert.ok(cans.data.length >= 3);
  const refs = cans.data.map((row) => row.id);
  const before = await db('/inventory?select=id,notes&order=id');
  const result = ok(await act.execute('db_update', { table: 'inventory', filters: [where('id', 'in', refs)], data: { notes: 'left cupboard' } }));
  assert.deepEqual(result.data.map((row) => row.id).sort(), [...refs].sort());
  const changed = new Set(refs.map((ref) => uuidOf(act, ref)));
  assert.deepEqual(await db('/inventory?select=id,notes&order=id'), before.map((row) => (changed.has(row.id) ? { ...row, notes: 'left cupboard' } : row)));
});

test('"I bought milk, put it in the fridge": one new row linked to the catalog', async () => {
  const { act } = kit.actFor();
  const before = await db('/inventory?select=id');
  const result = ok(
    await act.execute('db_create', { table: 'inventory', data: { name: 'milk', quantity: 1000, unit: 'ml', location: 'fridge', purchase_date: isoDay(0), expiry_date: isoDay(7) } }),
  );
  assert.match(result.data.id, /^inv_\d+$/);
  assert.ok(result.query.notes.some((note) => /"milk" linked to catalog ing_\d+ \(milk\)/.test(note)), result.query.notes.join('\n'));
  const milk = await catalog('milk');
  const rows = added(before, await db('/inventory?select=id,name,quantity,unit,location,ingredient_id,category,purchase_date,expiry_date,user_id'));
  assert.deepEqual(rows.map(({ id, ...row }) => row), [
    { name: 'milk', quantity: 1000, unit: 'ml', location: 'fridge', ingredient_id: milk.id, category: milk.category, purchase_date: isoDay(0), expiry_date: isoDay(7), user_id: kit.ada().id },
  ]);
});

test('"I bought chicken thighs, rice and carrots": a batch of distinct items keeps every field', async () => {
  const { act } = kit.actFor();
  const before = await db('/inventory?select=id');
  ok(
    await act.execute('db_create', {
      table: 'inventory',
      data: [
        { name: 'chicken thighs', quantity: 600, unit: 'g', location: 'fridge' },
        { name: 'rice', quantity: 1000, unit: 'g', location: 'pantry' },
        { name: 'carrots', quantity: 6, unit: 'piece', location: 'fridge' },
      ],
    }),
  );
  const rows = added(before, await db('/inventory?select=id,name,quantity,unit,location,ingredient_id'));
  const [thigh, rice, carrot] = await Promise.all(['chicken thigh', 'rice', 'carrot'].map(catalog));
  assert.deepEqual(pick(rows, 'name', 'quantity', 'unit', 'location', 'ingredient_id'), [
    { name: 'carrots', quantity: 6, unit: 'piece', location: 'fridge', ingredient_id: carrot.id },
    { name: 'chicken thighs', quantity: 600, unit: 'g', location: 'fridge', ingredient_id: thigh.id },
    { name: 'rice', quantity: 1000, unit: 'g', location: 'pantry', ingredient_id: rice.id },
  ]);
});

test('"I got 6 lemons, no wait, 7 lemons, and some feta": the duplicate is dropped, the last kept', async () => {
  const { act } = kit.actFor();
  const before = await db('/inventory?select=id');
  const result = ok(
    await act.execute('db_create', {
      table: 'inventory',
      data: [
        { name: 'lemons', quantity: 6, unit: 'piece', location: 'fridge' },
        { name: 'Lemon', quantity: 7, unit: 'piece', location: 'fridge' },
        { name: 'feta', quantity: 200, unit: 'g', location: 'fridge' },
      ],
    }),
  );
  assert.equal(result.data.length, 2);
  const rows = added(before, await db('/inventory?select=id,name,quantity,ingredient_id'));
  const [lemon, feta] = await Promise.all([catalog('lemon'), catalog('feta')]);
  assert.deepEqual(pick(rows, 'name', 'quantity', 'ingredient_id'), [
    { name: 'Lemon', quantity: 7, ingredient_id: lemon.id },
    { name: 'feta', quantity: 200, ingredient_id: feta.id },
  ]);
});

test('"throw out the spinach": delete by ref, and the ref is known to be gone', async () => {
  const { act, fetch } = kit.actFor();
  const spinach = await itemNamed(act, 'spinach');
  const uuid = uuidOf(act, spinach.id);
  const result = ok(await act.execute('db_delete', { table: 'inventory', filters: [where('id', '=', spinach.id)] }));
  assert.deepEqual(result.data.map((row) => row.id), [spinach.id]);
  assert.deepEqual(await db(`/inventory?id=eq.${uuid}&select=id`), []);
  fetch.reset();
  refused(await act.execute('db_update', { table: 'inventory', filters: [where('id', '=', spinach.id)], data: { quantity: 1 } }), 'deleted_ref', fetch);
});

test('"empty the freezer except the peas": delete by filter with not_in', async () => {
  const { act } = kit.actFor();
  const peas = await itemNamed(act, 'frozen peas');
  const outside = await db('/inventory?location=neq.freezer&select=id,quantity&order=id');
  const freezer = await db('/inventory?location=eq.freezer&select=name');
  assert.ok(freezer.length >= 3);
  const result = ok(await act.execute('db_delete', { table: 'inventory', filters: [where('location', '=', 'freezer'), where('id', 'not_in', [peas.id])] }));
  assert.equal(result.count, freezer.length - 1);
  assert.deepEqual(await db('/inventory?location=eq.freezer&select=name'), [{ name: 'frozen peas' }]);
  assert.deepEqual(await db('/inventory?location=neq.freezer&select=id,quantity&order=id'), outside);
});

test('"remove everything expired": only rows past their date, only the user\'s', async () => {
  const { act } = kit.actFor();
  const today = isoDay(0);
  const expired = await db(`/inventory?expiry_date=lt.${today}&select=name`);
  assert.ok(expired.length >= 1, 'the seed has an expired item');
  const fresh = await db(`/inventory?or=(expiry_date.gte.${today},expiry_date.is.null)&select=id,quantity&order=id`);
  const benBefore = await db('/inventory?select=id&order=id', kit.ben());
  const result = ok(await act.execute('db_delete', { table: 'inventory', filters: [where('expiry_date', '<', today)] }));
  assert.deepEqual(result.data.map((row) => row.name).sort(), expired.map((row) => row.name).sort());
  assert.deepEqual(await db(`/inventory?expiry_date=lt.${today}&select=id`), []);
  assert.deepEqual(await db(`/inventory?or=(expiry_date.gte.${today},expiry_date.is.null)&select=id,quantity&order=id`), fresh, 'everything else is kept');
  assert.deepEqual(await db('/inventory?select=id&order=id', kit.ben()), benBefore);
});

test('"what dairy do you know about?": the shared catalog reads like any table, refs included', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'ingredients', filters: [where('parent_category', '=', 'dairy')], order_by: 'name', columns: ['name', 'aliases'] }));
  const truth = await db('/ingredients?parent_category=eq.dairy&select=name,aliases&order=name');
  assert.deepEqual(result.data.map(({ name, aliases }) => ({ name, aliases })), truth);
  assert.ok(result.data.every((row) => /^ing_\d+$/.test(row.id)));
  const alias = ok(await act.execute('db_read', { table: 'ingredients', filters: [where('aliases', 'contains', ['fresh coriander'])], columns: ['name'] }));
  assert.deepEqual(alias.data.map((row) => row.name), ['cilantro']);
  const none = ok(await act.execute('db_read', { table: 'ingredients', filters: [where('name', '=', 'yuzu kosho')] }));
  assert.deepEqual(none.data, []);
});

test('"add yuzu to the ingredient list": the catalog cannot be written, by any tool', async () => {
  const everything = await kit.everything(['ingredients']);
  const { act, fetch } = kit.actFor();
  refused(await act.execute('db_create', { table: 'ingredients', data: { name: 'yuzu', family: 'citrus' } }), 'read_only_table', fetch);
  refused(await act.execute('db_update', { table: 'ingredients', filters: [where('name', '=', 'lemon')], data: { category: 'x' } }), 'read_only_table', fetch);
  refused(await act.execute('db_delete', { table: 'ingredients', filters: [where('name', '=', 'lemon')] }), 'read_only_table', fetch);
  assert.deepEqual(await kit.everything(['ingredients']), everything);
});

test('mistakes on the inventory: a recipe ref, a pasted UUID of a real row, an unknown column', async () => {
  const { act: reader } = kit.actFor();
  const recipes = ok(await reader.execute('db_read', { table: 'recipes', filters: [where('name', '=', 'Shakshuka')], columns: ['name'] }));
  const recipeRef = recipes.data[0].id;
  const everything = await kit.everything(['inventory', 'recipes']);

  const { act, fetch } = kit.actFor({ state: reader.registry.toJSON() });
  const wrong = refused(await act.execute('db_update', { table: 'inventory', filters: [where('id', '=', recipeRef)], data: { quantity: 0 } }), 'ref_type_mismatch', fetch);
  assert.match(wrong.error.message, new RegExp(`${recipeRef}.*recipes.*inventory`));
  const shelf = refused(await act.execute('db_update', { table: 'inventory', filters: [where('name', '=', 'butter')], data: { shelf: 'top' } }), 'unknown_column', fetch);
  assert.match(shelf.error.hint, /location/);
  // The recipe's real UUID, pasted where an inventory row is expected: the registry knows whose it is.
  const recipeUuid = uuidOf(reader, recipeRef);
  refused(await act.execute('db_delete', { table: 'inventory', filters: [where('id', '=', recipeUuid)] }), 'ref_type_mismatch', fetch, { allow: [recipeUuid] });
  assert.deepEqual(await kit.everything(['inventory', 'recipes']), everything, 'nothing was written');
});
