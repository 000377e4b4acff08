// User-level scenarios on meal plans, tasks, the cooking log and preferences,
// run by createAct against the real local stack and read back as the user.
// The seed's plan covers the seven days from the stack's start day.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { where } from '../support/decisions.mjs';
import { added, assertModelFacing, isoDay, ok, pick, refused, unique, uuidOf } from '../support/scenario.mjs';
import { catalog, db, kit } from './kit.mjs';

const enc = encodeURIComponent;

/** The day offset (0-6) of the coming `weekday` (0 = Sunday … 6 = Saturday), by UTC date as the seed counts. */
const comingDay = (weekday) => [0, 1, 2, 3, 4, 5, 6].find((days) => new Date(`${isoDay(days)}T12:00:00Z`).getUTCDay() === weekday);

async function recipeRef(act, name, exact) {
  const read = ok(await act.execute('db_read', { table: 'recipes', filters: [where('name', '=', name)], columns: ['name'] }));
  const row = read.data.find((r) => r.name === exact);
  assert.ok(row, `${exact} among ${JSON.stringify(read.data.map((r) => r.name))}`);
  return row.id;
}

// ---- meal_plans ----------------------------------------------------------------

test('"what\'s planned this week?": a date range, ordered, with recipe labels in the same request', async () => {
  const { act, fetch } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'meal_plans', filters: [where('date', '>=', isoDay(0)), where('date', '<=', isoDay(6))], order_by: 'date' }));
  const truth = await db(`/meal_plans?date=gte.${isoDay(0)}&date=lte.${isoDay(6)}&select=date,meal_type,recipes(name)&order=date`);
  assert.equal(result.data.length, truth.length);
  const seen = (rows) => rows.map((row) => `${row.date} ${row.meal_type} ${row._recipe_id_label ?? row.recipes?.name ?? '-'}`).sort();
  assert.deepEqual(seen(result.data), seen(truth));
  assert.equal(fetch.requests.length, 1, 'one round trip: the labels come with the rows');
  const nextYear = ok(await act.execute('db_read', { table: 'meal_plans', filters: [where('date', '>=', isoDay(366))] }));
  assert.deepEqual([nextYear.data, nextYear.count], [[], 0]);
});

test('"plan the Chana Masala for dinner in two weeks, for 4": one row linked by ref', async () => {
  const { act } = kit.actFor();
  const chana = await recipeRef(act, 'chana masala', 'Chana Masala');
  const date = isoDay(14);
  const result = ok(await act.execute('db_create', { table: 'meal_plans', data: { date, meal_type: 'dinner', recipe_id: chana, servings: 4 } }));
  assert.deepEqual([result.data.recipe_id, result.data._recipe_id_label, result.data.date], [chana, 'Chana Masala', date]);
  assert.deepEqual(await db(`/meal_plans?date=eq.${date}&select=meal_type,servings,recipe_id,user_id`), [
    { meal_type: 'dinner', servings: 4, recipe_id: uuidOf(act, chana), user_id: kit.ada().id },
  ]);
});

test('"Greek salad for lunch the three days after that": a batch of distinct rows keeps every field', async () => {
  const { act } = kit.actFor();
  const salad = await recipeRef(act, 'greek salad', 'Greek Salad');
  const dates = [isoDay(15), isoDay(16), isoDay(17)];
  const result = ok(await act.execute('db_create', { table: 'meal_plans', data: dates.map((date) => ({ date, meal_type: 'lunch', recipe_id: salad, servings: 2 })) }));
  assert.equal(result.data.length, 3);
  const rows = await db(`/meal_plans?date=gte.${dates[0]}&date=lte.${dates[2]}&select=date,meal_type,servings,recipe_id&order=date`);
  assert.deepEqual(rows, dates.map((date) => ({ date, meal_type: 'lunch', servings: 2, recipe_id: uuidOf(act, salad) })));
});

test('"change dinner on Friday to the curry": find the meal and the recipe, update the meal by ref', async () => {
  const { act } = kit.actFor();
  const friday = isoDay(comingDay(5));
  const dinner = ok(await act.execute('db_read', { table: 'meal_plans', filters: [where('date', '=', friday), where('meal_type', '=', 'dinner')] }));
  assert.equal(dinner.data.length, 1);
  const curry = await recipeRef(act, 'curry', 'Thai Red Chicken Curry');
  const others = await db(`/meal_plans?or=(date.neq.${friday},meal_type.neq.dinner)&select=id,recipe_id&order=id`);
  const result = ok(await act.execute('db_update', { table: 'meal_plans', filters: [where('id', '=', dinner.data[0].id)], data: { recipe_id: curry } }));
  assert.deepEqual([result.data[0].recipe_id, result.data[0]._recipe_id_label], [curry, 'Thai Red Chicken Curry']);
  assert.deepEqual(await db(`/meal_plans?date=eq.${friday}&meal_type=eq.dinner&select=recipe_id`), [{ recipe_id: uuidOf(act, curry) }]);
  assert.deepEqual(await db(`/meal_plans?or=(date.neq.${friday},meal_type.neq.dinner)&select=id,recipe_id&order=id`), others);
});

test('"make the weekend dinners for 3": one update for a batch of refs', async () => {
  const { act } = kit.actFor();
  const weekend = [comingDay(6), comingDay(0)].map(isoDay);
  const dinners = ok(await act.execute('db_read', { table: 'meal_plans', filters: [where('date', 'in', weekend), where('meal_type', '=', 'dinner')] }));
  assert.equal(dinners.data.length, 2);
  const refs = dinners.data.map((row) => row.id);
  const before = await db('/meal_plans?select=id,servings&order=id');
  ok(await act.execute('db_update', { table: 'meal_plans', filters: [where('id', 'in', refs)], data: { servings: 3 } }));
  const changed = new Set(refs.map((ref) => uuidOf(act, ref)));
  assert.deepEqual(await db('/meal_plans?select=id,servings&order=id'), before.map((row) => (changed.has(row.id) ? { ...row, servings: 3 } : row)));
});

test('"cancel the lunch in three days": delete by filter', async () => {
  const { act } = kit.actFor();
  const day = isoDay(3);
  assert.equal((await db(`/meal_plans?date=eq.${day}&meal_type=eq.lunch&select=id`)).length, 1);
  const dinner = await db(`/meal_plans?date=eq.${day}&meal_type=eq.dinner&select=id`);
  const result = ok(await act.execute('db_delete', { table: 'meal_plans', filters: [where('date', '=', day), where('meal_type', '=', 'lunch')] }));
  assert.equal(result.count, 1);
  assert.match(result.data[0].id, /^meal_\d+$/);
  assert.deepEqual(await db(`/meal_plans?date=eq.${day}&meal_type=eq.lunch&select=id`), []);
  assert.deepEqual(await db(`/meal_plans?date=eq.${day}&meal_type=eq.dinner&select=id`), dinner);
});

test('"oats for breakfast in three weeks" sent twice in one batch: both rows are written (no de-duplication on meal plans); the model deletes one by ref', async () => {
  const { act } = kit.actFor();
  const oats = await recipeRef(act, 'oats', 'Overnight Oats');
  const date = isoDay(21);
  const row = { date, meal_type: 'breakfast', recipe_id: oats, servings: 1 };
  const result = ok(await act.execute('db_create', { table: 'meal_plans', data: [row, row] }));
  assert.equal(result.data.length, 2);
  assert.notEqual(result.data[0].id, result.data[1].id);
  assert.equal((await db(`/meal_plans?date=eq.${date}&select=id`)).length, 2);
  ok(await act.execute('db_delete', { table: 'meal_plans', filters: [where('id', '=', result.data[1].id)] }));
  assert.deepEqual(await db(`/meal_plans?date=eq.${date}&select=id`), [{ id: uuidOf(act, result.data[0].id) }]);
});

test('"breakfast tomorrow is for 2": update by date and meal type (meal plans have no name)', async () => {
  const { act } = kit.actFor();
  const before = await db('/meal_plans?select=id,date,meal_type,servings&order=id');
  const result = ok(await act.execute('db_update', { table: 'meal_plans', filters: [where('date', '=', isoDay(1)), where('meal_type', '=', 'breakfast')], data: { servings: 2 } }));
  assert.equal(result.count, 1);
  assert.deepEqual(
    await db('/meal_plans?select=id,date,meal_type,servings&order=id'),
    before.map((row) => (row.date === isoDay(1) && row.meal_type === 'breakfast' ? { ...row, servings: 2 } : row)),
  );
});

test('"drop the breakfasts except the pancakes": delete by filter with not_in, and by ref', async () => {
  const { act } = kit.actFor();
  const breakfasts = ok(await act.execute('db_read', { table: 'meal_plans', filters: [where('meal_type', '=', 'breakfast')] }));
  const pancakes = breakfasts.data.find((row) => row._recipe_id_label === 'Banana Pancakes');
  assert.ok(pancakes && breakfasts.data.length >= 2);
  const result = ok(await act.execute('db_delete', { table: 'meal_plans', filters: [where('meal_type', '=', 'breakfast'), where('id', 'not_in', [pancakes.id])] }));
  assert.equal(result.count, breakfasts.data.length - 1);
  assert.deepEqual(await db('/meal_plans?meal_type=eq.breakfast&select=id'), [{ id: uuidOf(act, pancakes.id) }]);
  ok(await act.execute('db_delete', { table: 'meal_plans', filters: [where('id', '=', pancakes.id)] }));
  assert.deepEqual(await db('/meal_plans?meal_type=eq.breakfast&select=id'), []);
});

test('mistakes on meal plans: "diner", a recipe name instead of its ref, Feb 30, a task ref as recipe', async () => {
  const { act: reader } = kit.actFor();
  const tasks = ok(await reader.execute('db_read', { table: 'tasks', limit: 1, columns: ['title'] }));
  ok(await reader.execute('db_read', { table: 'recipes', filters: [where('name', '=', 'Shakshuka')], columns: ['name'] }));
  const everything = await kit.everything(['meal_plans']);
  const { act, fetch } = kit.actFor({ state: reader.registry.toJSON() });
  const typo = refused(await act.execute('db_create', { table: 'meal_plans', data: { date: isoDay(20), meal_type: 'diner' } }), 'invalid_value', fetch);
  assert.equal(typo.error.hint, 'use one of: breakfast, lunch, dinner, snack, other');
  const byName = refused(await act.execute('db_create', { table: 'meal_plans', data: { date: isoDay(20), meal_type: 'dinner', recipe_id: 'Shakshuka' } }), 'not_a_ref', fetch);
  assert.match(byName.error.hint, /use the ref recipe_\d+/);
  refused(await act.execute('db_create', { table: 'meal_plans', data: { date: '2031-02-30', meal_type: 'dinner' } }), 'invalid_value', fetch);
  refused(await act.execute('db_update', { table: 'meal_plans', filters: [where('recipe_id', '=', tasks.data[0].id)], data: { servings: 1 } }), 'ref_type_mismatch', fetch);
  assert.deepEqual(await kit.everything(['meal_plans']), everything, 'nothing was written');
});

// ---- tasks ------------------------------------------------------------------

test('"remind me to take the salmon out tomorrow morning, for tomorrow\'s dinner": one task linked to the meal and the recipe', async () => {
  const { act } = kit.actFor();
  const dinner = ok(await act.execute('db_read', { table: 'meal_plans', filters: [where('date', '=', isoDay(1)), where('meal_type', '=', 'dinner')] }));
  const meal = dinner.data[0];
  const title = unique('Take the salmon out');
  const result = ok(await act.execute('db_create', { table: 'tasks', data: { title, due_date: isoDay(1), category: 'prep', meal_plan_id: meal.id, recipe_id: meal.recipe_id } }));
  assert.equal(result.data.meal_plan_id, meal.id);
  assert.match(result.data._meal_plan_id_label, /\[dinner\]$/);
  assert.deepEqual(await db(`/tasks?title=eq.${enc(title)}&select=due_date,category,completed,meal_plan_id,recipe_id,user_id`), [
    { due_date: isoDay(1), category: 'prep', completed: false, meal_plan_id: uuidOf(act, meal.id), recipe_id: uuidOf(act, meal.recipe_id), user_id: kit.ada().id },
  ]);
  // "Actually, make it tonight": the same task, by its ref.
  const moved = ok(await act.execute('db_update', { table: 'tasks', filters: [where('id', '=', result.data.id)], data: { due_date: isoDay(0) } }));
  assert.deepEqual([moved.data[0].id, moved.data[0].due_date], [result.data.id, isoDay(0)]);
  assert.deepEqual(await db(`/tasks?title=eq.${enc(title)}&select=due_date`), [{ due_date: isoDay(0) }]);
});

test('"what do I need to do today?": tasks due today, open ones first', async () => {
  const { act } = kit.actFor();
  const result = ok(await act.execute('db_read', { table: 'tasks', filters: [where('due_date', '=', isoDay(0))], order_by: 'completed', columns: ['title', 'completed', 'recipe_id'] }));
  const truth = await db(`/tasks?due_date=eq.${isoDay(0)}&select=title,completed&order=completed,title`);
  assert.ok(truth.length >= 2);
  assert.deepEqual(result.data.map((row) => row.completed), truth.map((row) => row.completed));
  assert.deepEqual(result.data.map((row) => row.title).sort(), truth.map((row) => row.title).sort());
  assert.ok(result.data.filter((row) => row.recipe_id).every((row) => /^recipe_\d+$/.test(row.recipe_id) && row._recipe_id_label));
});

test('"add prep tasks: chop onions, soak beans, and chop onions": tasks are not de-duplicated, every row is written', async () => {
  const { act } = kit.actFor();
  const before = await db('/tasks?select=id');
  const titles = [unique('Chop onions'), unique('Soak beans')];
  const result = ok(
    await act.execute('db_create', {
      table: 'tasks',
      data: [
        { title: titles[0], category: 'prep', due_date: isoDay(2) },
        { title: titles[1], category: 'prep' },
        { title: titles[0], category: 'prep', due_date: isoDay(2) },
      ],
    }),
  );
  assert.equal(result.data.length, 3);
  const rows = added(before, await db('/tasks?select=id,title,category,due_date,completed'));
  assert.deepEqual(pick(rows, 'title', 'category', 'due_date', 'completed'), [
    { title: titles[0], category: 'prep', due_date: isoDay(2), completed: false },
    { title: titles[0], category: 'prep', due_date: isoDay(2), completed: false },
    { title: titles[1], category: 'prep', due_date: null, completed: false },
  ]);
});

test('"I marinated the chicken": update a task by its exact title', async () => {
  const { act } = kit.actFor();
  const title = 'Marinate chicken for butter chicken';
  const before = await db('/tasks?select=title,completed&order=title');
  const result = ok(await act.execute('db_update', { table: 'tasks', filters: [where('title', '=', title)], data: { completed: true } }));
  assert.deepEqual(pick(result.data, 'title', 'completed'), [{ title, completed: true }]);
  assert.deepEqual(await db('/tasks?select=title,completed&order=title'), before.map((row) => (row.title === title ? { ...row, completed: true } : row)));
});

test('"the prep tasks for tomorrow are done": one update for a batch of refs', async () => {
  const { act } = kit.actFor();
  const prep = ok(await act.execute('db_read', { table: 'tasks', filters: [where('category', '=', 'prep'), where('completed', '=', false)] }));
  assert.ok(prep.data.length >= 2);
  const refs = prep.data.map((row) => row.id);
  ok(await act.execute('db_update', { table: 'tasks', filters: [where('id', 'in', refs)], data: { completed: true } }));
  assert.deepEqual(await db('/tasks?category=eq.prep&completed=is.false&select=id'), []);
  assert.ok((await db('/tasks?category=neq.prep&completed=is.false&select=id')).length >= 1, 'other tasks stay open');
});

test('"clear the finished tasks, but keep the salmon one": delete by filter with not_in', async () => {
  const { act } = kit.actFor();
  const salmon = ok(await act.execute('db_read', { table: 'tasks', filters: [where('title', 'ilike', '*defrost salmon*')] }));
  assert.equal(salmon.data.length, 1);
  const done = await db('/tasks?completed=is.true&select=id');
  const open = await db('/tasks?completed=is.false&select=id,title&order=id');
  const result = ok(await act.execute('db_delete', { table: 'tasks', filters: [where('completed', '=', true), where('id', 'not_in', [salmon.data[0].id])] }));
  assert.equal(result.count, done.length - 1);
  assert.deepEqual(await db('/tasks?completed=is.true&select=title'), [{ title: 'Defrost salmon' }]);
  assert.deepEqual(await db('/tasks?completed=is.false&select=id,title&order=id'), open);
  ok(await act.execute('db_delete', { table: 'tasks', filters: [where('id', '=', salmon.data[0].id)] }));
  assert.deepEqual(await db('/tasks?completed=is.true&select=title'), []);
});

test('"I\'ve given up on cleaning tasks": delete by filter', async () => {
  const { act } = kit.actFor();
  const cleanup = await db('/tasks?category=eq.cleanup&select=title');
  assert.ok(cleanup.length >= 1);
  const others = await db('/tasks?or=(category.neq.cleanup,category.is.null)&select=id&order=id');
  const result = ok(await act.execute('db_delete', { table: 'tasks', filters: [where('category', '=', 'cleanup')] }));
  assert.deepEqual(result.data.map((row) => row.title).sort(), cleanup.map((row) => row.title).sort());
  assert.deepEqual(await db('/tasks?category=eq.cleanup&select=id'), []);
  assert.deepEqual(await db('/tasks?or=(category.neq.cleanup,category.is.null)&select=id&order=id'), others);
});

test('"save that recipe and add a task to buy its ingredients": the task is linked by the gen_ ref once the recipe is saved', async () => {
  const { act } = kit.actFor();
  const name = unique('Miso Glazed Aubergine');
  const { data: gen } = act.registry.registerGenerated('recipes', { name, instructions: ['Score the aubergine.', 'Glaze and grill.'] });
  const saved = ok(await act.execute('db_create', { table: 'recipes', data: { id: gen, name, instructions: ['Score the aubergine.', 'Glaze and grill.'] } }));
  const title = unique('Buy miso and aubergine');
  const task = ok(await act.execute('db_create', { table: 'tasks', data: { title, category: 'shopping', recipe_id: gen } }));
  assert.deepEqual([task.data.recipe_id, task.data._recipe_id_label], [saved.data.id, name]);
  const log = ok(await act.execute('db_create', { table: 'cooking_log', data: { recipe_id: gen, rating: 5, servings: 2 } }));
  assert.equal(log.data.recipe_id, saved.data.id);
  const recipeUuid = uuidOf(act, saved.data.id);
  assert.deepEqual(await db(`/tasks?title=eq.${enc(title)}&select=recipe_id`), [{ recipe_id: recipeUuid }]);
  assert.deepEqual(await db(`/cooking_log?recipe_id=eq.${recipeUuid}&select=rating,servings`), [{ rating: 5, servings: 2 }]);
});

test('mistakes on tasks: an unknown category, a misspelt column, a pasted UUID of another user\'s task', async () => {
  const everything = await kit.everything(['tasks']);
  const { act, fetch } = kit.actFor();
  const category = refused(await act.execute('db_create', { table: 'tasks', data: { title: 'Scrub the oven', category: 'cleaning' } }), 'invalid_value', fetch);
  assert.equal(category.error.hint, 'use one of: prep, shopping, cleanup, other');
  const column = refused(await act.execute('db_create', { table: 'tasks', data: { title: 'Scrub the oven', due: isoDay(3) } }), 'unknown_column', fetch);
  assert.match(column.error.hint, /due_date/);
  // A well-formed UUID the model writes is never sent: the model sees refs
  // only, and another user's row id must not reach a filter.
  const [benTask] = await db('/tasks?select=id,title,completed&limit=1', kit.ben());
  const pasted = refused(await act.execute('db_update', { table: 'tasks', filters: [where('id', '=', benTask.id)], data: { completed: true } }), 'raw_id', fetch);
  assert.equal(pasted.error.hint, 'no task refs are known yet; read tasks first to get refs');
  assert.doesNotMatch(JSON.stringify(pasted.error), new RegExp(benTask.id));
  assert.deepEqual(await kit.everything(['tasks']), everything, "nothing was written, Ben's task included");
});

// ---- cooking_log -------------------------------------------------------------

test('"I made the shakshuka tonight for 2, 4 stars": one log entry linked by ref', async () => {
  const { act } = kit.actFor();
  const shakshuka = await recipeRef(act, 'shakshuka', 'Shakshuka');
  const before = await db('/cooking_log?select=id');
  const result = ok(await act.execute('db_create', { table: 'cooking_log', data: { recipe_id: shakshuka, servings: 2, rating: 4, notes: 'more cumin next time' } }));
  assert.match(result.data.id, /^log_\d+$/);
  const rows = added(before, await db('/cooking_log?select=id,recipe_id,servings,rating,notes,cooked_at,user_id'));
  assert.equal(rows.length, 1);
  assert.deepEqual({ ...rows[0], id: undefined, cooked_at: undefined }, { id: undefined, cooked_at: undefined, recipe_id: uuidOf(act, shakshuka), servings: 2, rating: 4, notes: 'more cumin next time', user_id: kit.ada().id });
  assert.ok(Math.abs(Date.parse(rows[0].cooked_at) - Date.now()) < 5 * 60_000, 'cooked_at defaults to now');
});

test('"log last week: tacos on Monday, risotto on Tuesday; and I cooked tonight\'s planned dinner": a batch and a meal-plan link', async () => {
  const { act } = kit.actFor();
  const tacos = await recipeRef(act, 'tacos', 'Beef Tacos');
  const risotto = await recipeRef(act, 'risotto', 'Mushroom Risotto');
  const before = await db('/cooking_log?select=id');
  const batch = ok(
    await act.execute('db_create', {
      table: 'cooking_log',
      data: [
        { recipe_id: tacos, cooked_at: `${isoDay(-7)}T19:00:00Z`, servings: 4 },
        { recipe_id: risotto, cooked_at: `${isoDay(-6)}T19:30:00Z`, rating: 3 },
        { recipe_id: tacos, cooked_at: `${isoDay(-7)}T19:00:00Z`, servings: 4 },
      ],
    }),
  );
  assert.equal(batch.data.length, 3, 'a repeated entry is written too (no de-duplication on the log)');
  const tonight = ok(await act.execute('db_read', { table: 'meal_plans', filters: [where('date', '=', isoDay(0)), where('meal_type', '=', 'dinner')] }));
  const meal = tonight.data[0];
  const linked = ok(await act.execute('db_create', { table: 'cooking_log', data: { recipe_id: meal.recipe_id, from_meal_plan_id: meal.id, servings: meal.servings } }));
  assert.deepEqual([linked.data.from_meal_plan_id, linked.data.recipe_id], [meal.id, meal.recipe_id]);
  const rows = added(before, await db('/cooking_log?select=id,recipe_id,from_meal_plan_id,servings,rating,cooked_at'));
  const tacoEntry = { cooked_at: `${isoDay(-7)}T19:00:00+00:00`, recipe_id: uuidOf(act, tacos), from_meal_plan_id: null, servings: 4, rating: null };
  assert.deepEqual(pick(rows, 'cooked_at', 'recipe_id', 'from_meal_plan_id', 'servings', 'rating').slice(0, 3), [
    tacoEntry,
    tacoEntry,
    { cooked_at: `${isoDay(-6)}T19:30:00+00:00`, recipe_id: uuidOf(act, risotto), from_meal_plan_id: null, servings: null, rating: 3 },
  ]);
  // "Oops, the tacos are in there twice": the second entry goes, by its ref.
  const taco = batch.data.filter((row) => row.recipe_id === tacos);
  ok(await act.execute('db_delete', { table: 'cooking_log', filters: [where('id', '=', taco[1].id)] }));
  assert.deepEqual(await db(`/cooking_log?recipe_id=eq.${uuidOf(act, tacos)}&select=id`), [{ id: uuidOf(act, taco[0].id) }]);
  assert.ok(rows.some((row) => row.from_meal_plan_id === uuidOf(act, meal.id) && row.servings === meal.servings));
});

test('"the carbonara was actually 5 stars": read the log by recipe ref, update by ref', async () => {
  const { act } = kit.actFor();
  const carbonara = await recipeRef(act, 'carbonara', 'Weeknight Carbonara');
  const entries = ok(await act.execute('db_read', { table: 'cooking_log', filters: [where('recipe_id', '=', carbonara)] }));
  assert.equal(entries.data.length, 1);
  assert.equal(entries.data[0]._recipe_id_label, 'Weeknight Carbonara');
  ok(await act.execute('db_update', { table: 'cooking_log', filters: [where('id', '=', entries.data[0].id)], data: { rating: 5 } }));
  assert.deepEqual(await db(`/cooking_log?recipe_id=eq.${uuidOf(act, carbonara)}&select=rating`), [{ rating: 5 }]);
});

test('"last week\'s dinners were all for 4": one update for a batch of refs', async () => {
  const { act } = kit.actFor();
  const week = ok(await act.execute('db_read', { table: 'cooking_log', filters: [where('cooked_at', '>=', `${isoDay(-8)}T00:00:00Z`), where('cooked_at', '<', `${isoDay(-5)}T00:00:00Z`)] }));
  assert.ok(week.data.length >= 2);
  const refs = week.data.map((row) => row.id);
  const before = await db('/cooking_log?select=id,servings&order=id');
  ok(await act.execute('db_update', { table: 'cooking_log', filters: [where('id', 'in', refs)], data: { servings: 4 } }));
  const changed = new Set(refs.map((ref) => uuidOf(act, ref)));
  assert.deepEqual(await db('/cooking_log?select=id,servings&order=id'), before.map((row) => (changed.has(row.id) ? { ...row, servings: 4 } : row)));
});

test('"forget everything I logged before this week, except the chana masala": delete by filter with not_in', async () => {
  const { act } = kit.actFor();
  const since = `${isoDay(-5)}T00:00:00Z`;
  const old = ok(await act.execute('db_read', { table: 'cooking_log', filters: [where('cooked_at', '<', since)] }));
  assert.ok(old.data.length >= 2);
  const recent = await db(`/cooking_log?cooked_at=gte.${since}&select=id&order=id`);
  const chana = await recipeRef(act, 'chana masala', 'Chana Masala');
  const keep = ok(await act.execute('db_read', { table: 'cooking_log', filters: [where('recipe_id', '=', chana)] }));
  const result = ok(await act.execute('db_delete', { table: 'cooking_log', filters: [where('cooked_at', '<', since), where('id', 'not_in', keep.data.map((row) => row.id))] }));
  assert.deepEqual(result.data.map((row) => row.id).sort(), old.data.map((row) => row.id).filter((id) => !keep.data.some((k) => k.id === id)).sort());
  assert.deepEqual(await db(`/cooking_log?cooked_at=gte.${since}&select=id&order=id`), recent);
  assert.equal((await db(`/cooking_log?cooked_at=lt.${since}&select=id`)).length, keep.data.filter((row) => row.cooked_at < since).length);
});

test('"delete the log entries I never rated": delete by filter on a null column', async () => {
  const { act } = kit.actFor();
  const unrated = await db('/cooking_log?rating=is.null&select=id');
  assert.ok(unrated.length >= 1);
  const rated = await db('/cooking_log?rating=not.is.null&select=id,rating&order=id');
  const result = ok(await act.execute('db_delete', { table: 'cooking_log', filters: [where('rating', 'is_null')] }));
  assert.equal(result.count, unrated.length);
  assert.deepEqual(await db('/cooking_log?select=id,rating&order=id'), rated);
});

test('"log it with 9 stars": the database refuses the rating; the error is typed, nothing is written', async () => {
  const everything = await kit.everything(['cooking_log']);
  const { act, fetch } = kit.actFor();
  const result = await act.execute('db_create', { table: 'cooking_log', data: { rating: 9, notes: 'best ever' } });
  assert.deepEqual([result.error.code, result.error.status, result.error.dbCode, result.data], ['check_violation', 400, '23514', null]);
  assert.equal(fetch.requests.length, 1, 'the database decides');
  assertModelFacing(result);
  assert.deepEqual(await kit.everything(['cooking_log']), everything);
});

// ---- preferences --------------------------------------------------------------

test('"I\'m allergic to peanuts too": read the one preferences row, update it by ref', async () => {
  const { act } = kit.actFor();
  const prefs = ok(await act.execute('db_read', { table: 'preferences' }));
  assert.equal(prefs.data.length, 1);
  const [row] = prefs.data;
  assert.match(row.id, /^pref_\d+$/);
  const result = ok(await act.execute('db_update', { table: 'preferences', filters: [where('id', '=', row.id)], data: { allergies: [...row.allergies, 'peanuts'] } }));
  assert.deepEqual(result.data[0].allergies, ['tree nuts', 'peanuts']);
  assert.deepEqual(await db('/preferences?select=allergies'), [{ allergies: ['tree nuts', 'peanuts'] }]);
  assert.deepEqual(await db('/preferences?select=allergies', kit.ben()), [{ allergies: [] }]);
});

test('"butter is a staple, I always have it": a uuid[] column written with catalog refs', async () => {
  const { act } = kit.actFor();
  const butter = ok(await act.execute('db_read', { table: 'ingredients', filters: [where('name', '=', 'butter')], columns: ['name'] }));
  const prefs = ok(await act.execute('db_read', { table: 'preferences', columns: ['assumed_staples'] }));
  const staples = prefs.data[0].assumed_staples;
  assert.ok(staples.length >= 3 && staples.every((ref) => /^ing_\d+$/.test(ref)), JSON.stringify(staples));
  const before = (await db('/preferences?select=assumed_staples'))[0].assumed_staples;
  const result = ok(await act.execute('db_update', { table: 'preferences', filters: [where('id', '=', prefs.data[0].id)], data: { assumed_staples: [...staples, butter.data[0].id] } }));
  assert.deepEqual(result.data[0].assumed_staples, [...staples, butter.data[0].id]);
  assert.deepEqual((await db('/preferences?select=assumed_staples'))[0].assumed_staples, [...before, (await catalog('butter')).id]);
});

test('"set up my preferences" when they exist: one row per user, a batch of two is refused whole', async () => {
  const everything = await kit.everything(['preferences']);
  const { act } = kit.actFor();
  const one = await act.execute('db_create', { table: 'preferences', data: { household_adults: 3 } });
  assert.deepEqual([one.error.code, one.error.status, one.error.dbCode], ['duplicate', 409, '23505']);
  assertModelFacing(one);
  const two = await act.execute('db_create', { table: 'preferences', data: [{ household_adults: 3 }, { household_adults: 3 }] });
  assert.equal(two.error.code, 'duplicate');
  assertModelFacing(two);
  const { act: tidy, fetch } = kit.actFor();
  const all = refused(await tidy.execute('db_update', { table: 'preferences', filters: [], data: { household_adults: 3 } }), 'missing_filter', fetch);
  assert.match(all.error.hint, /pref_/);
  const column = refused(await tidy.execute('db_update', { table: 'preferences', filters: [where('cooking_skill_level', '=', 'intermediate')], data: { favourite_cuisines: ['thai'] } }), 'unknown_column', fetch);
  assert.match(column.error.hint, /favorite_cuisines/);
  assert.deepEqual(await kit.everything(['preferences']), everything, 'nothing was written');
});

test('"reset my preferences": delete by ref, then create them fresh', async () => {
  const { act } = kit.actFor();
  const prefs = ok(await act.execute('db_read', { table: 'preferences', columns: ['household_adults'] }));
  ok(await act.execute('db_delete', { table: 'preferences', filters: [where('id', '=', prefs.data[0].id)] }));
  assert.deepEqual(await db('/preferences?select=id'), []);
  const created = ok(await act.execute('db_create', { table: 'preferences', data: { favorite_cuisines: ['thai'], cooking_skill_level: 'advanced' } }));
  assert.notEqual(created.data.id, prefs.data[0].id, 'a new row, a new ref');
  assert.deepEqual(await db('/preferences?select=favorite_cuisines,cooking_skill_level,household_adults,allergies,user_id'), [
    { favorite_cuisines: ['thai'], cooking_skill_level: 'advanced', household_adults: 1, allergies: null, user_id: kit.ada().id },
  ]);
  assert.equal((await db('/preferences?select=id', kit.ben())).length, 1);
});
