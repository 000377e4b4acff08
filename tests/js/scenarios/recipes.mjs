// User-level scenarios on recipes and their ingredients, including generated
// (gen_) recipes saved with their ingredients linked by gen_ ref, run by
// createAct against the real local stack and read back as the user.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { where } from '../support/decisions.mjs';
import { added, assertModelFacing, ok, pick, refused, unique, uuidOf } from '../support/scenario.mjs';
import { catalog, db, kit } from './kit.mjs';

const enc = encodeURIComponent;

/** Reads one recipe by (fuzzy) name as a model would; the row the model sees, with its ingredients. */
async function recipeNamed(act, name, exact = name) {
  const read = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', name)] }));
  const row = read.data.find((r) => r.name === exact);
  assert.ok(row, `${exact} among ${JSON.stringify(read.data.map((r) => r.name))}`);
  return row;
}

/** Creates `names` as new recipes of the user (one batch) and returns the rows the model sees. */
async function createRecipes(act, rows) {
  const result = ok(await act.execute('db_create', { table: 'recipes', data: rows }));
  assert.equal(result.data.length, rows.length);
  return result.data;
}

test('"save that recipe you just made": the gen_ recipe and its ingredients, linked by the gen_ ref', async () => {
  const { act, fetch } = kit.actFor();
  const name = unique('Lemon Herb Chicken');
  const content = {
    name,
    cuisine: 'mediterranean',
    difficulty: 'easy',
    servings: 2,
    prep_time_minutes: 15,
    cook_time_minutes: 25,
    flavor_tags: ['tangy', 'light'],
    instructions: ['Marinate the chicken in lemon, garlic and thyme.', 'Roast at 200 °C for 25 minutes.'],
  };
  const ingredients = [
    { name: 'chicken thighs', quantity: 500, unit: 'g' },
    { name: 'lemon', quantity: 1, unit: 'piece' },
    { name: 'thyme', quantity: 4, unit: 'sprig', is_optional: true },
  ];
  const { data: gen } = act.registry.registerGenerated('recipes', { ...content, recipe_ingredients: ingredients });
  assert.equal(gen, 'gen_recipe_1');

  const recipe = ok(await act.execute('db_create', { table: 'recipes', data: { id: gen, ...content } }));
  assert.match(recipe.data.id, /^recipe_\d+$/);
  assert.deepEqual(recipe.query.notes, [`saved ${gen} as ${recipe.data.id}`]);
  const children = ok(await act.execute('db_create', { table: 'recipe_ingredients', data: ingredients.map((row) => ({ recipe_id: gen, ...row })) }));
  assert.ok(children.data.every((row) => row.recipe_id === recipe.data.id && row._recipe_id_label === name));

  const recipeUuid = uuidOf(act, recipe.data.id);
  const [thigh, lemon, thyme] = await Promise.all(['chicken thigh', 'lemon', 'thyme'].map(catalog));
  const [saved] = await db(`/recipes?id=eq.${recipeUuid}&select=name,cuisine,servings,flavor_tags,instructions,user_id,recipe_ingredients(name,quantity,unit,is_optional,ingredient_id,user_id)`);
  assert.deepEqual(
    { ...saved, recipe_ingredients: pick(saved.recipe_ingredients, 'name', 'quantity', 'unit', 'is_optional', 'ingredient_id', 'user_id') },
    {
      name,
      cuisine: 'mediterranean',
      servings: 2,
      flavor_tags: ['tangy', 'light'],
      instructions: content.instructions,
      user_id: kit.ada().id,
      recipe_ingredients: [
        { name: 'chicken thighs', quantity: 500, unit: 'g', is_optional: false, ingredient_id: thigh.id, user_id: kit.ada().id },
        { name: 'lemon', quantity: 1, unit: 'piece', is_optional: false, ingredient_id: lemon.id, user_id: kit.ada().id },
        { name: 'thyme', quantity: 4, unit: 'sprig', is_optional: true, ingredient_id: thyme.id, user_id: kit.ada().id },
      ],
    },
  );

  fetch.reset();
  const again = refused(await act.execute('db_create', { table: 'recipes', data: { id: gen, ...content } }), 'already_saved', fetch);
  assert.match(again.error.message, new RegExp(`${gen} was already saved as ${recipe.data.id}`));
  assert.equal((await db(`/recipes?name=eq.${enc(name)}&select=id`)).length, 1, 'saved once');
});

test('"plan the recipe you just made for Saturday" before it is saved: refused, nothing written', async () => {
  const { act, fetch } = kit.actFor();
  const { data: gen } = act.registry.registerGenerated('recipes', { name: unique('Unsaved Stew'), instructions: ['Simmer.'] });
  const everything = await kit.everything(['meal_plans', 'recipe_ingredients']);
  const plan = refused(await act.execute('db_create', { table: 'meal_plans', data: { date: '2031-03-01', meal_type: 'dinner', recipe_id: gen } }), 'pending_ref', fetch);
  assert.match(plan.error.hint, /save it first with db_create on recipes/);
  refused(await act.execute('db_create', { table: 'recipe_ingredients', data: [{ recipe_id: gen, name: 'onion' }] }), 'pending_ref', fetch);
  const read = ok(await act.execute('db_read', { table: 'recipes', filters: [where('id', '=', gen)] }));
  assert.equal(read.query.source, 'generated');
  assert.equal(fetch.requests.length, 0);
  assert.deepEqual(await kit.everything(['meal_plans', 'recipe_ingredients']), everything);
});

test('"save both salads": a batch of two distinct recipes keeps every field', async () => {
  const { act } = kit.actFor();
  const before = await db('/recipes?select=id');
  const names = [unique('Fattoush'), unique('Panzanella')];
  const rows = await createRecipes(act, [
    { name: names[0], cuisine: 'lebanese', servings: 4, instructions: ['Toast the pita.', 'Toss with sumac dressing.'], tags: ['salad'] },
    { name: names[1], cuisine: 'italian', difficulty: 'easy', instructions: ['Tear the bread.', 'Toss with tomatoes.'] },
  ]);
  assert.deepEqual(rows.map((row) => row.name), names);
  const saved = added(before, await db('/recipes?select=id,name,cuisine,servings,difficulty,tags,instructions'));
  assert.deepEqual(pick(saved, 'name', 'cuisine', 'servings', 'difficulty', 'tags', 'instructions'), [
    { name: names[0], cuisine: 'lebanese', servings: 4, difficulty: null, tags: ['salad'], instructions: ['Toast the pita.', 'Toss with sumac dressing.'] },
    { name: names[1], cuisine: 'italian', servings: null, difficulty: 'easy', tags: [], instructions: ['Tear the bread.', 'Toss with tomatoes.'] },
  ]);
});

test('"add salt twice, for the dough and the filling": a batch with duplicate ingredients keeps both (no de-duplication on recipe ingredients)', async () => {
  const { act } = kit.actFor();
  const [recipe] = await createRecipes(act, [{ name: unique('Spinach Börek'), instructions: ['Make the dough.', 'Fill and bake.'] }]);
  const result = ok(
    await act.execute('db_create', {
      table: 'recipe_ingredients',
      data: [
        { recipe_id: recipe.id, name: 'salt', quantity: 1, unit: 'tsp', notes: 'dough' },
        { recipe_id: recipe.id, name: 'salt', quantity: 0.5, unit: 'tsp', notes: 'filling' },
      ],
    }),
  );
  assert.equal(result.data.length, 2);
  const salt = await catalog('salt');
  const rows = await db(`/recipe_ingredients?recipe_id=eq.${uuidOf(act, recipe.id)}&select=name,quantity,notes,ingredient_id&order=notes`);
  assert.deepEqual(rows, [
    { name: 'salt', quantity: 1, notes: 'dough', ingredient_id: salt.id },
    { name: 'salt', quantity: 0.5, notes: 'filling', ingredient_id: salt.id },
  ]);
});

test('"add a pinch of chili flakes to the carbonara": one ingredient linked to the recipe by ref and to the catalog', async () => {
  const { act } = kit.actFor();
  const carbonara = await recipeNamed(act, 'carbonara', 'Spaghetti Carbonara');
  const before = carbonara.recipe_ingredients.length;
  const result = ok(await act.execute('db_create', { table: 'recipe_ingredients', data: { recipe_id: carbonara.id, name: 'chili flakes', quantity: 1, unit: 'pinch', is_optional: true } }));
  assert.deepEqual([result.data.recipe_id, result.data._recipe_id_label], [carbonara.id, 'Spaghetti Carbonara']);
  const flakes = await catalog('chili flakes');
  const rows = await db(`/recipe_ingredients?recipe_id=eq.${uuidOf(act, carbonara.id)}&select=name,ingredient_id,is_optional,category`);
  assert.equal(rows.length, before + 1);
  assert.deepEqual(rows.find((row) => row.name === 'chili flakes'), { name: 'chili flakes', ingredient_id: flakes.id, is_optional: true, category: flakes.category });
});

test('"use greek yogurt instead of the cream in the butter chicken": update an ingredient by ref, relinked to the catalog', async () => {
  const { act } = kit.actFor();
  const recipe = await recipeNamed(act, 'Butter Chicken');
  const cream = recipe.recipe_ingredients.find((row) => row.name === 'heavy cream');
  const result = ok(await act.execute('db_update', { table: 'recipe_ingredients', filters: [where('id', '=', cream.id)], data: { name: 'greek yogurt', unit: 'g' } }));
  assert.equal(result.data[0].id, cream.id);
  assert.ok(result.query.notes.some((note) => /"greek yogurt" linked to catalog ing_\d+ \(greek yogurt\)/.test(note)), result.query.notes.join('\n'));
  const yogurt = await catalog('greek yogurt');
  assert.deepEqual(await db(`/recipe_ingredients?id=eq.${uuidOf(act, cream.id)}&select=name,unit,quantity,ingredient_id,category`), [
    { name: 'greek yogurt', unit: 'g', quantity: 120, ingredient_id: yogurt.id, category: yogurt.category },
  ]);
});

test('"rename my pasta recipe to Weeknight Carbonara": an empty read, a better one, then update by ref', async () => {
  const { act } = kit.actFor();
  const pasta = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', 'pasta')], columns: ['name'] }));
  assert.deepEqual(pasta.data, [], 'no recipe is called pasta');
  const carbonara = await recipeNamed(act, 'spaghetti', 'Spaghetti Carbonara');
  const ingredientsBefore = await db(`/recipe_ingredients?recipe_id=eq.${uuidOf(act, carbonara.id)}&select=id,name&order=id`);
  const result = ok(await act.execute('db_update', { table: 'recipes', filters: [where('id', '=', carbonara.id)], data: { name: 'Weeknight Carbonara' } }));
  assert.equal(result.data[0].name, 'Weeknight Carbonara');
  assert.deepEqual(await db(`/recipes?id=eq.${uuidOf(act, carbonara.id)}&select=name`), [{ name: 'Weeknight Carbonara' }]);
  assert.deepEqual(await db('/recipes?name=eq.Spaghetti%20Carbonara&select=id'), []);
  assert.deepEqual(await db(`/recipe_ingredients?recipe_id=eq.${uuidOf(act, carbonara.id)}&select=id,name&order=id`), ingredientsBefore, 'the ingredients stay');
  const meals = ok(await act.execute('db_read', { table: 'meal_plans', filters: [where('recipe_id', '=', carbonara.id)] }));
  assert.ok(meals.data.length >= 1 && meals.data.every((row) => row._recipe_id_label === 'Weeknight Carbonara'), 'labels follow the new name');
});

test('"Shakshuka serves 4 now": update by the exact name', async () => {
  const { act } = kit.actFor();
  const before = await db('/recipes?select=name,servings&order=name');
  const result = ok(await act.execute('db_update', { table: 'recipes', filters: [where('name', '=', 'Shakshuka')], data: { servings: 4 } }));
  assert.deepEqual(pick(result.data, 'name', 'servings'), [{ name: 'Shakshuka', servings: 4 }]);
  assert.deepEqual(await db('/recipes?select=name,servings&order=name'), before.map((row) => (row.name === 'Shakshuka' ? { ...row, servings: 4 } : row)));
});

test('"tag all my Thai recipes as weeknight": one update for a batch of refs', async () => {
  const { act } = kit.actFor();
  const thai = ok(await act.execute('db_read', { table: 'recipes', filters: [where('cuisine', '=', 'thai')], columns: ['name', 'occasions'] }));
  assert.ok(thai.data.length >= 2);
  const refs = thai.data.map((row) => row.id);
  const before = await db('/recipes?select=id,occasions&order=id');
  const result = ok(await act.execute('db_update', { table: 'recipes', filters: [where('id', 'in', refs)], data: { occasions: ['weeknight'] } }));
  assert.deepEqual(result.data.map((row) => row.id).sort(), [...refs].sort());
  const changed = new Set(refs.map((ref) => uuidOf(act, ref)));
  assert.deepEqual(await db('/recipes?select=id,occasions&order=id'), before.map((row) => (changed.has(row.id) ? { ...row, occasions: ['weeknight'] } : row)));
});

test('"delete the duplicate recipe": two same-named rows, the later one deleted by ref with its ingredients', async () => {
  const { act } = kit.actFor();
  const name = unique('Banana Bread');
  const row = { name, instructions: ['Mash the bananas.', 'Bake 1 hour.'] };
  const [first, second] = await createRecipes(act, [row, row]);
  ok(
    await act.execute('db_create', {
      table: 'recipe_ingredients',
      data: [
        { recipe_id: first.id, name: 'banana', quantity: 3 },
        { recipe_id: second.id, name: 'banana', quantity: 3 },
      ],
    }),
  );
  const found = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', name)], order_by: 'created_at' }));
  assert.deepEqual(found.data.map((r) => r.id), [first.id, second.id], 'the same refs come back');
  const deleted = ok(await act.execute('db_delete', { table: 'recipes', filters: [where('id', '=', second.id)] }));
  assert.deepEqual(deleted.data.map((r) => r.id), [second.id]);
  assert.deepEqual(await db(`/recipes?name=eq.${enc(name)}&select=id,recipe_ingredients(name)`), [{ id: uuidOf(act, first.id), recipe_ingredients: [{ name: 'banana' }] }]);
  assert.deepEqual(await db(`/recipe_ingredients?recipe_id=eq.${uuidOf(act, second.id)}&select=id`), [], 'its ingredients went with it');
});

test('"delete my test recipes except the good one": delete by filter with not_in', async () => {
  const { act } = kit.actFor();
  const tag = unique('test-batch').replace(/ /g, '-');
  const rows = await createRecipes(
    act,
    ['Trial Dal', 'Trial Curry', 'Trial Pilaf'].map((name) => ({ name: unique(name), tags: [tag], instructions: ['Cook.'] })),
  );
  const keep = rows[1];
  const others = await db(`/recipes?tags=not.cs.{${tag}}&select=id&order=id`);
  const result = ok(await act.execute('db_delete', { table: 'recipes', filters: [where('tags', 'contains', [tag]), where('id', 'not_in', [keep.id])] }));
  assert.deepEqual(result.data.map((r) => r.id).sort(), [rows[0].id, rows[2].id].sort());
  assert.deepEqual(await db(`/recipes?tags=cs.{${tag}}&select=name`), [{ name: keep.name }]);
  assert.deepEqual(await db(`/recipes?tags=not.cs.{${tag}}&select=id&order=id`), others);
});

test('"delete the recipes I imported from that blog": delete by filter', async () => {
  const { act } = kit.actFor();
  const blog = `https://example.com/${unique('blog').replace(/ /g, '-')}`;
  await createRecipes(act, [
    { name: unique('Blog Focaccia'), source_url: blog, instructions: ['Proof.', 'Bake.'] },
    { name: unique('Blog Brownies'), source_url: blog, instructions: ['Melt.', 'Bake.'] },
  ]);
  const others = await db('/recipes?or=(source_url.is.null,source_url.neq.' + enc(blog) + ')&select=id&order=id');
  const result = ok(await act.execute('db_delete', { table: 'recipes', filters: [where('source_url', '=', blog)] }));
  assert.equal(result.count, 2);
  assert.deepEqual(await db(`/recipes?source_url=eq.${enc(blog)}&select=id`), []);
  assert.deepEqual(await db('/recipes?select=id&order=id'), others);
});

test('"remove the optional ingredients from the chili": delete by filter on a child table', async () => {
  const { act } = kit.actFor();
  const chili = await recipeNamed(act, 'chili', 'Chili con Carne');
  const uuid = uuidOf(act, chili.id);
  const optional = await db(`/recipe_ingredients?recipe_id=eq.${uuid}&is_optional=is.true&select=name`);
  assert.deepEqual(optional, [{ name: 'dark chocolate' }]);
  const required = await db(`/recipe_ingredients?recipe_id=eq.${uuid}&is_optional=is.false&select=id&order=id`);
  const result = ok(await act.execute('db_delete', { table: 'recipe_ingredients', filters: [where('recipe_id', '=', chili.id), where('is_optional', '=', true)] }));
  assert.deepEqual(result.data.map((row) => row.name), ['dark chocolate']);
  assert.deepEqual(await db(`/recipe_ingredients?recipe_id=eq.${uuid}&select=id&order=id`), required);
  const elsewhere = await db('/recipe_ingredients?is_optional=is.true&select=name');
  assert.ok(elsewhere.length >= 3, 'other recipes keep their optional ingredients');
});

test('"the chili needs 6 cloves of garlic, and the spices are optional; drop the cumin": ingredients by name, by a batch of refs, by ref', async () => {
  const { act } = kit.actFor();
  const chili = await recipeNamed(act, 'chili', 'Chili con Carne');
  const uuid = uuidOf(act, chili.id);
  const before = await db(`/recipe_ingredients?recipe_id=eq.${uuid}&select=id,name,quantity,is_optional&order=id`);
  const garlic = ok(
    await act.execute('db_update', { table: 'recipe_ingredients', filters: [where('recipe_id', '=', chili.id), where('name', '=', 'garlic')], data: { quantity: 6 } }),
  );
  assert.deepEqual(pick(garlic.data, 'name', 'quantity'), [{ name: 'garlic', quantity: 6 }]);
  const spices = chili.recipe_ingredients.filter((row) => ['chili powder', 'cumin'].includes(row.name));
  assert.equal(spices.length, 2);
  ok(await act.execute('db_update', { table: 'recipe_ingredients', filters: [where('id', 'in', spices.map((row) => row.id))], data: { is_optional: true } }));
  const cumin = spices.find((row) => row.name === 'cumin');
  const dropped = ok(await act.execute('db_delete', { table: 'recipe_ingredients', filters: [where('id', '=', cumin.id)] }));
  assert.deepEqual(dropped.data.map((row) => row.id), [cumin.id]);
  const expected = before
    .filter((row) => row.name !== 'cumin')
    .map((row) => (row.name === 'garlic' ? { ...row, quantity: 6 } : row.name === 'chili powder' ? { ...row, is_optional: true } : row));
  assert.deepEqual(await db(`/recipe_ingredients?recipe_id=eq.${uuid}&select=id,name,quantity,is_optional&order=id`), expected);
});

test('"strip the lentil soup down to lentils and stock": delete every ingredient of a recipe except two', async () => {
  const { act } = kit.actFor();
  const soup = await recipeNamed(act, 'lentil soup', 'Red Lentil Soup');
  const keep = soup.recipe_ingredients.filter((row) => ['red lentils', 'vegetable stock'].includes(row.name));
  assert.equal(keep.length, 2);
  const result = ok(
    await act.execute('db_delete', { table: 'recipe_ingredients', filters: [where('recipe_id', '=', soup.id), where('id', 'not_in', keep.map((row) => row.id))] }),
  );
  assert.equal(result.count, soup.recipe_ingredients.length - 2);
  const left = await db(`/recipe_ingredients?recipe_id=eq.${uuidOf(act, soup.id)}&select=name&order=name`);
  assert.deepEqual(left, [{ name: 'red lentils' }, { name: 'vegetable stock' }]);
});

test('"which recipes use chickpeas?": ingredient rows by catalog name, each labelled with its recipe', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'recipe_ingredients', filters: [where('name', '=', 'chickpeas')] }));
  const truth = await db('/recipe_ingredients?name=ilike.*chickpea*&select=recipes(name)');
  assert.ok(truth.length >= 1);
  assert.deepEqual(result.data.map((row) => row._recipe_id_label).sort(), truth.map((row) => row.recipes.name).sort());
  assert.ok(result.data.every((row) => /^recipe_\d+$/.test(row.recipe_id)));
});

test('"what can I cook in 20 minutes or less?": a numeric filter, ordered, ingredients included', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'recipes', filters: [where('cook_time_minutes', '<=', 20)], order_by: 'cook_time_minutes' }));
  const truth = await db('/recipes?cook_time_minutes=lte.20&select=name,cook_time_minutes,recipe_ingredients(id)&order=cook_time_minutes');
  assert.deepEqual(result.data.map((row) => row.cook_time_minutes), truth.map((row) => row.cook_time_minutes));
  assert.deepEqual(result.data.map((row) => row.name).sort(), truth.map((row) => row.name).sort());
  for (const row of result.data) {
    assert.equal(row.recipe_ingredients.length, truth.find((t) => t.name === row.name).recipe_ingredients.length, row.name);
  }
});

test('"something cozy with lentils": semantic search ranks the user\'s own recipes', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'recipes', filters: [where('_semantic', 'similar', 'cozy lentil soup')], columns: ['name'], limit: 3 }));
  assert.equal(result.data[0].name, 'Red Lentil Soup');
  const own = new Set((await db('/recipes?select=name')).map((row) => row.name));
  assert.ok(result.data.every((row) => own.has(row.name)));
  assert.ok(result.query.notes.some((note) => note.startsWith('semantic search for "cozy lentil soup" ranked')));
});

test('"show me the butter chiken recipe": a typo is an empty answer, not every recipe', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', 'butter chiken')] }));
  assert.deepEqual([result.data, result.count], [[], 0]);
  assert.deepEqual(result.query.effective.filters, [{ field: 'name', op: 'ilike', value: '*butter chiken*' }]);
});

test('"the 100% rye" and "mac, cheese": % and a comma in a name are literal', async () => {
  const { act } = kit.actFor();
  const rye = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', '100%')], columns: ['name'] }));
  assert.deepEqual(rye.data.map((row) => row.name), ['100% Rye Sourdough']);
  assert.deepEqual(rye.query.effective.filters, [{ field: 'name', op: 'ilike', value: '*100\\%*' }]);
  const mac = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', 'mac, cheese')], columns: ['name'] }));
  assert.deepEqual(mac.data.map((row) => row.name), ['Mac, Cheese & Peas']);
  const pie = ok(await act.execute('db_update', { table: 'recipes', filters: [where('name', '=', "Grandma's Apple Pie")], data: { servings: 10 } }));
  assert.equal(pie.count, 1);
  assert.deepEqual(await db(`/recipes?name=eq.${enc("Grandma's Apple Pie")}&select=servings`), [{ servings: 10 }]);
});

test('"show me the creme brulee and the pho": a name typed without its accents finds the recipe', async () => {
  const { act } = kit.actFor();
  const creme = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', 'creme brulee')], columns: ['name'] }));
  assert.deepEqual(creme.data.map((row) => row.name), ['Crème Brûlée']);
  const pho = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', 'pho')], columns: ['name'] }));
  assert.deepEqual(pho.data.map((row) => row.name), ['Phở Gà']);
  assert.deepEqual(pho.query.effective.filters, [{ field: 'name', op: 'ilike', value: '*pho*' }]);
  assert.match(pho.query.notes[0], /ignoring case and accents/);
  for (const typed of ['CRÈME brûlée', 'crême brulée', 'phở gà', 'PHO GA']) {
    const found = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', typed)], columns: ['name'] }));
    assert.equal(found.data.length, 1, typed);
  }
  for (const other of ['pha', 'creme brulee tart', 'phở bò']) {
    const none = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', other)], columns: ['name'] }));
    assert.deepEqual(none.data, [], other);
  }
  // A model's own ilike means what it says: accents count.
  const exact = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', 'ilike', '%creme%')], columns: ['name'] }));
  assert.deepEqual(exact.data, []);
});

test('"save the weeknight version as a variant of the Shakshuka": a self reference by ref', async () => {
  const { act } = kit.actFor();
  const shakshuka = await recipeNamed(act, 'Shakshuka');
  const name = unique('Green Shakshuka');
  const result = ok(await act.execute('db_create', { table: 'recipes', data: { name, parent_recipe_id: shakshuka.id, instructions: ['Wilt the greens.', 'Crack in the eggs.'] } }));
  assert.deepEqual([result.data.parent_recipe_id, result.data._parent_recipe_id_label], [shakshuka.id, 'Shakshuka']);
  assert.deepEqual(await db(`/recipes?name=eq.${enc(name)}&select=parent_recipe_id`), [{ parent_recipe_id: uuidOf(act, shakshuka.id) }]);
});

test('mistakes on recipes: ingredients nested in the recipe, no instructions, a flavor outside the list, an inventory ref as recipe_id', async () => {
  const { act: reader } = kit.actFor();
  const inv = ok(await reader.execute('db_read', { table: 'inventory', filters: [where('location', '=', 'pantry')], limit: 1, columns: ['name'] }));
  const everything = await kit.everything(['recipes', 'recipe_ingredients']);
  const { act, fetch } = kit.actFor({ state: reader.registry.toJSON() });
  const nested = refused(
    await act.execute('db_create', { table: 'recipes', data: { name: 'Nested', instructions: ['x'], recipe_ingredients: [{ name: 'egg' }] } }),
    'unknown_column',
    fetch,
  );
  assert.equal(nested.error.path, 'data.recipe_ingredients');
  const missing = refused(await act.execute('db_create', { table: 'recipes', data: { name: 'No Steps' } }), 'missing_column', fetch);
  assert.match(missing.error.message, /instructions is required/);
  const flavor = refused(await act.execute('db_create', { table: 'recipes', data: { name: 'Hot', instructions: ['x'], flavor_tags: ['hot'] } }), 'invalid_value', fetch);
  assert.deepEqual([flavor.error.path, flavor.error.hint], ['data.flavor_tags[0]', 'use one of: spicy, mild, savory, sweet, tangy, rich, light, umami, other']);
  refused(await act.execute('db_create', { table: 'recipe_ingredients', data: { recipe_id: inv.data[0].id, name: 'salt' } }), 'ref_type_mismatch', fetch);
  refused(await act.execute('db_update', { table: 'recipes', filters: [where('id', '=', 'recipe_99')], data: { servings: 1 } }), 'unknown_ref', fetch);
  assertModelFacing(flavor);
  assert.deepEqual(await kit.everything(['recipes', 'recipe_ingredients']), everything, 'nothing was written');
});
