// registry.translateRows from bytes, text and values: the byte path (the
// response body copied into WASM memory) gives exactly the rows and the
// registry state of the object path, no UUID reaches the model, and bad
// input is an error value that leaves the registry untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/src/index.node.js';
import { internalsOf } from '../../web/src/core/internals.js';
import { mealPlans, recipesWithIngredients } from '../../bench/fixtures/postgrest-responses.mjs';

const core = await loadCore();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const recipes = recipesWithIngredients(150, { seed: 5 });
const plans = mealPlans(300, recipes.recipeIds.slice(0, 40), { seed: 6 });

// A session that read the recipes and then the meal plans, with `rows` made by `as`.
function session(as) {
  const registry = core.createRegistry();
  const first = registry.translateRows('recipes', as(recipes));
  const second = registry.translateRows('meal_plans', as(plans));
  return { registry, first, second };
}

test('bytes, ArrayBuffer, JSON text and parsed values give the same rows and the same registry', () => {
  const objects = session((fixture) => JSON.parse(fixture.text));
  assert.equal(objects.first.error, null);
  assert.equal(objects.second.error, null);
  for (const as of [
    (fixture) => fixture.bytes,
    (fixture) => fixture.bytes.slice().buffer,
    (fixture) => new DataView(fixture.bytes.buffer, fixture.bytes.byteOffset, fixture.bytes.byteLength),
    (fixture) => fixture.text,
  ]) {
    const other = session(as);
    assert.deepEqual(other.first, objects.first);
    assert.deepEqual(other.second, objects.second);
    assert.deepEqual(other.registry.toJSON(), objects.registry.toJSON());
    other.registry.delete();
  }
  const [recipe] = objects.first.data;
  assert.match(recipe.id, /^recipe_\d+$/);
  assert.equal('user_id' in recipe.recipe_ingredients[0], false);
  assert.equal(recipe.recipe_ingredients[0].recipe_id, recipe.id);
  // The key to the recipe the row is embedded in has no label: the recipe's name is right above it.
  assert.equal('_recipe_id_label' in recipe.recipe_ingredients[0], false);
  assert.equal(objects.registry.toJSON().refs.find((r) => r.ref === recipe.id).label, recipe.name);
  const planned = objects.second.data.find((plan) => plan.recipe_id !== null);
  assert.equal(planned._recipe_id_label, objects.registry.toJSON().refs.find((r) => r.ref === planned.recipe_id).label);
  objects.registry.delete();
});

test('no UUID survives in the model-facing text of the fixtures', () => {
  const registry = core.createRegistry();
  for (const [table, fixture] of [
    ['recipes', recipes],
    ['meal_plans', plans],
  ]) {
    assert.match(fixture.text, UUID);
    const { data: text, error } = registry.translateRowsText(table, fixture.bytes);
    assert.equal(error, null);
    assert.equal(typeof text, 'string');
    assert.doesNotMatch(text, UUID);
    assert.doesNotMatch(text, /user_id/);
    assert.deepEqual(JSON.parse(text), registry.translateRows(table, fixture.bytes).data);
  }
  registry.delete();
});

test('a response larger than WASM memory grows it (the heap view is read after the buffer is made)', async () => {
  const big = mealPlans(30000, recipes.recipeIds, { seed: 8 });
  // 8 MB: just under the largest input one call may take (8 MiB), and far
  // over the 16 MiB a new core starts with once translated.
  assert.ok(big.bytes.length > 7.5e6 && big.bytes.length <= 8 << 20, `${big.bytes.length}`);
  const roomy = await loadCore({ maxInputBytes: 8 << 20 });
  const before = internalsOf(roomy).memoryBytes;
  const registry = roomy.createRegistry();
  const { data, error } = registry.translateRows('meal_plans', big.bytes);
  assert.equal(error, null);
  assert.equal(data.length, 30000);
  assert.equal(data.at(-1).id, 'meal_30000');
  assert.ok(internalsOf(roomy).memoryBytes > before, 'the memory grew');
  registry.delete();
});

test('invalid JSON bytes, an unknown table and a bad action are errors that change nothing', () => {
  const registry = core.createRegistry();
  registry.translateRows('recipes', recipes.bytes);
  const before = registry.toJSON();
  const truncated = recipes.bytes.subarray(0, recipes.bytes.length - 1);
  const { data, error } = registry.translateRows('recipes', truncated);
  assert.equal(data, null);
  assert.equal(error.code, 'invalid_json');
  assert.equal(error.path, 'rows');
  assert.match(error.message, /^invalid JSON at byte \d+: /);
  assert.deepEqual(registry.toJSON(), before);
  assert.equal(registry.translateRows('recipes', new Uint8Array()).error.code, 'invalid_json');
  assert.equal(registry.translateRows('recipe', recipes.bytes).error.code, 'unknown_table');
  assert.equal(registry.translateRows('recipes', recipes.bytes, { action: 'linked' }).error.code, 'invalid_option');
  assert.deepEqual(registry.toJSON(), before);
  registry.delete();
});

test('the action option is recorded for top-level rows; nested rows are read', () => {
  const registry = core.createRegistry();
  const body = new TextEncoder().encode(recipes.text);
  const { data } = registry.translateRows('recipes', body, { action: 'updated' });
  const refs = new Map(registry.toJSON().refs.map((entry) => [entry.ref, entry]));
  assert.equal(refs.get(data[0].id).action, 'updated');
  assert.equal(refs.get(data[0].recipe_ingredients[0].id).action, 'read');
  registry.delete();
});
