// Multi-step requests through the whole loop (runTurn): a scripted model (a
// real OpenAI-compatible server on 127.0.0.1) decides from the prompt it is
// sent, reading refs and values from the rows shown there the way a model
// does, and the database is read back afterwards. No message the loop sends
// to the model carries a UUID.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChatModel } from '../../../web/src/llm/index.js';
import { runTurn } from '../../../web/src/loop/index.js';
import { stepComplete, toolCall, where } from '../support/decisions.mjs';
import { UUID, assertModelFacing, isoDay, ok, promptArtifact, promptRows, unique, userPrompt, uuidOf } from '../support/scenario.mjs';
import { startScriptedModel } from '../support/scripted-model.mjs';
import { db, kit } from './kit.mjs';

const enc = encodeURIComponent;

/**
 * Runs `run(model, server)` against a scripted model; checks every prompt the
 * loop sent for UUIDs. A script function that throws (it did not find what it
 * looked for in the prompt) fails the test with its own error.
 */
async function withModel(script, run) {
  const thrown = [];
  const guarded = script.map((entry) =>
    typeof entry === 'function'
      ? async (body, index) => {
          try {
            return await entry(body, index);
          } catch (error) {
            thrown.push(error);
            throw error;
          }
        }
      : entry,
  );
  const server = await startScriptedModel(guarded);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'scripted', retryDelayMs: 10, maxRetries: 0 });
    let result;
    try {
      result = await run(model, server);
    } catch (error) {
      throw thrown[0] ?? error;
    }
    if (thrown.length > 0) throw thrown[0];
    for (const { body } of server.requests) {
      for (const message of body.messages.filter((entry) => entry.role !== 'assistant')) {
        assert.doesNotMatch(message.content, UUID, `a ${message.role} message has a UUID`);
      }
    }
    return result;
  } finally {
    await server.stop();
  }
}

/** runTurn with the given steps (none: the model plans); every executed call's result is checked for UUIDs. */
async function turn(model, act, userMessage, steps, options = {}) {
  const result = await runTurn({ core: kit.core, act, model, turn: { userMessage, steps }, ...options });
  for (const step of result.steps) for (const record of step.queries) assertModelFacing(record);
  return result;
}

test('"what\'s in my fridge?": planned by the model, read, answered; the prompt showed exactly the fridge rows', async () => {
  let shown = null;
  await withModel(
    [
      { steps: [{ description: 'Read the inventory items in the fridge', type: 'read' }] },
      toolCall('db_read', { table: 'inventory', filters: [where('location', '=', 'fridge')] }),
      (body) => {
        shown = promptRows(userPrompt(body)).filter((row) => row.ref.startsWith('inv_'));
        return stepComplete(`${shown.length} items in the fridge`);
      },
      'You have milk, eggs and more in the fridge.',
    ],
    async (model, server) => {
      const { act } = kit.actFor();
      const result = await turn(model, act, "what's in my fridge?", undefined);
      assert.equal(result.status, 'done', JSON.stringify(result.error));
      assert.equal(server.used, 4);
      assert.deepEqual(result.steps.map((step) => [step.type, step.status]), [['read', 'complete']]);
      assert.equal(result.reply, 'You have milk, eggs and more in the fridge.');
    },
  );
  const truth = await db('/inventory?location=eq.fridge&select=name,quantity');
  assert.deepEqual(shown.map((row) => `${row.name} ${row.quantity}`).sort(), truth.map((row) => `${row.name} ${row.quantity}`).sort());
});

test('"I used 2 eggs": a read step finds them, the write step sets the quantity it read minus two', async () => {
  const [before] = await db('/inventory?name=eq.egg&select=quantity');
  await withModel(
    [
      toolCall('db_read', { table: 'inventory', filters: [where('name', '=', 'eggs')] }),
      stepComplete('Found the eggs', null, 'the eggs are in the step data'),
      (body) => {
        const egg = promptRows(userPrompt(body)).find((row) => row.name === 'egg');
        return toolCall('db_update', { table: 'inventory', filters: [where('id', '=', egg.ref)], data: { quantity: Number(egg.quantity) - 2 } });
      },
      stepComplete('Eggs updated'),
      'Done: two eggs fewer.',
    ],
    async (model) => {
      const { act } = kit.actFor();
      const result = await turn(model, act, 'I used 2 eggs', [
        { description: 'Read the eggs in the inventory', type: 'read' },
        { description: 'Take 2 off the egg quantity', type: 'write' },
      ]);
      assert.equal(result.status, 'done', JSON.stringify(result.error));
      assert.deepEqual(result.steps[1].rejected, []);
    },
  );
  assert.deepEqual(await db('/inventory?name=eq.egg&select=quantity'), [{ quantity: before.quantity - 2 }]);
});

test('"plan dinners for the week from what expires first": inventory by expiry, recipes, one batch of meal plans', async () => {
  const dates = [isoDay(30), isoDay(31), isoDay(32)];
  let chosen = null;
  await withModel(
    [
      toolCall('db_read', { table: 'inventory', filters: [where('expiry_date', '>=', isoDay(0))], order_by: 'expiry_date' }),
      stepComplete('Inventory by expiry'),
      toolCall('db_read', { table: 'recipes', columns: ['name', 'recipe_ingredients(name)'] }),
      stepComplete('All recipes with their ingredients'),
      (body) => {
        // What a model does: walk the items in expiry order, take a recipe that uses each.
        const rows = promptRows(userPrompt(body));
        const items = rows.filter((row) => row.ref.startsWith('inv_') && row.expiry_date).sort((a, b) => a.expiry_date.localeCompare(b.expiry_date));
        const recipes = rows.filter((row) => row.ref.startsWith('recipe_') && row.children);
        chosen = [];
        for (const item of items) {
          const recipe = recipes.find((r) => !chosen.includes(r) && r.children.some((ri) => ri.name === item.name));
          if (recipe) chosen.push(recipe);
          if (chosen.length === 3) break;
        }
        return toolCall('db_create', { table: 'meal_plans', data: chosen.map((recipe, i) => ({ date: dates[i], meal_type: 'dinner', recipe_id: recipe.ref, servings: 2 })) });
      },
      stepComplete('Planned three dinners'),
      'Three dinners planned around what expires first.',
    ],
    async (model) => {
      const { act } = kit.actFor();
      const result = await turn(model, act, 'Plan dinners for the week from what expires first', [
        { description: 'Read the inventory, soonest expiry first', type: 'read' },
        { description: 'Read the recipes with their ingredients', type: 'read' },
        { description: 'Save three dinners that use what expires first', type: 'write' },
      ]);
      assert.equal(result.status, 'done', JSON.stringify(result.error));
      assert.equal(chosen.length, 3);
      const planned = await db(`/meal_plans?date=in.(${dates.join(',')})&select=date,meal_type,servings,recipe_id&order=date`);
      assert.deepEqual(planned, dates.map((date, i) => ({ date, meal_type: 'dinner', servings: 2, recipe_id: uuidOf(act, chosen[i].ref) })));
    },
  );
  // The first dinner uses the soonest-expiring item any recipe uses, by the database's own dates.
  const items = await db(`/inventory?expiry_date=gte.${isoDay(0)}&select=name,expiry_date&order=expiry_date`);
  const uses = await db('/recipe_ingredients?select=name,recipes(name)');
  const first = items.find((item) => uses.some((use) => use.name === item.name));
  const [planned] = await db(`/meal_plans?date=eq.${dates[0]}&select=recipes(name)`);
  assert.ok(
    uses.some((use) => use.recipes.name === planned.recipes.name && items.some((item) => item.expiry_date === first.expiry_date && item.name === use.name)),
    `${planned.recipes.name} uses an item expiring ${first.expiry_date}`,
  );
});

test('"make me a quick dal" then "save that recipe you just made and plan it for Saturday": two turns, one state', async () => {
  const name = unique('Quick Tadka Dal');
  const recipe = { name, cuisine: 'indian', servings: 2, instructions: ['Simmer the lentils.', 'Pour over the tadka.'] };
  const ingredients = [
    { name: 'red lentils', quantity: 200, unit: 'g' },
    { name: 'cumin', quantity: 1, unit: 'tsp' },
    { name: 'ghee', quantity: 1, unit: 'tbsp' },
  ];
  const saturday = isoDay(40 + ((6 - new Date(`${isoDay(40)}T12:00:00Z`).getUTCDay() + 7) % 7));
  const { act: first } = kit.actFor();
  const one = await withModel(
    [stepComplete('Generated a dal recipe', { recipes: [{ ...recipe, recipe_ingredients: ingredients }] }), `Here is ${name}.`],
    (model) => turn(model, first, 'Make me a quick dal', [{ description: 'Generate a quick dal recipe', type: 'generate' }]),
  );
  assert.equal(one.status, 'done', JSON.stringify(one.error));
  assert.deepEqual(one.steps[0].generated.map((item) => item.ref), ['gen_recipe_1']);
  const stored = JSON.parse(JSON.stringify(one.state));
  assert.deepEqual(await db(`/recipes?name=eq.${enc(name)}&select=id`), [], 'generated, not saved');

  const { act: second } = kit.actFor({ state: stored.registry });
  const two = await withModel(
    [
      (body) => {
        const { recipe_ingredients, ...row } = promptArtifact(userPrompt(body), 'gen_recipe_1');
        return toolCall('db_create', { table: 'recipes', data: { id: 'gen_recipe_1', ...row } });
      },
      (body) => {
        const artifact = promptArtifact(userPrompt(body), 'gen_recipe_1');
        return toolCall('db_create', { table: 'recipe_ingredients', data: artifact.recipe_ingredients.map((row) => ({ recipe_id: 'gen_recipe_1', ...row })) });
      },
      toolCall('db_create', { table: 'meal_plans', data: { date: saturday, meal_type: 'dinner', recipe_id: 'gen_recipe_1', servings: 2 } }),
      stepComplete('Saved the dal and planned it'),
      'Saved and planned for Saturday.',
    ],
    (model) => turn(model, second, 'Save that recipe you just made and plan it for Saturday', [{ description: 'Save the generated recipe with its ingredients and plan it for Saturday dinner', type: 'write' }], { state: stored }),
  );
  assert.equal(two.status, 'done', JSON.stringify(two.error));
  assert.deepEqual(two.steps[0].rejected, []);
  assert.equal(two.state.turn, 2);
  const [saved] = await db(`/recipes?name=eq.${enc(name)}&select=id,servings,instructions,recipe_ingredients(name,quantity,unit),meal_plans(date,meal_type)`);
  assert.deepEqual(
    { ...saved, id: undefined, recipe_ingredients: saved.recipe_ingredients.sort((a, b) => a.name.localeCompare(b.name)) },
    {
      id: undefined,
      servings: 2,
      instructions: recipe.instructions,
      recipe_ingredients: [...ingredients].sort((a, b) => a.name.localeCompare(b.name)),
      meal_plans: [{ date: saturday, meal_type: 'dinner' }],
    },
  );
  assert.equal(saved.id, uuidOf(second, 'gen_recipe_1'));
});

test('"delete the duplicate recipe": the model finds both rows in the prompt and deletes the newer by ref', async () => {
  const name = unique('Cheese Scones');
  const { act: setup } = kit.actFor();
  for (let copy = 0; copy < 2; copy += 1) {
    ok(await setup.execute('db_create', { table: 'recipes', data: { name, instructions: ['Rub in the butter.'] } }));
  }
  const [older, newer] = await db(`/recipes?name=eq.${enc(name)}&select=id,created_at&order=created_at`);
  assert.ok(older.created_at < newer.created_at);
  await withModel(
    [
      toolCall('db_read', { table: 'recipes', filters: [where('name', '=', name)], order_by: 'created_at', columns: ['name', 'created_at'] }),
      (body) => {
        const copies = promptRows(userPrompt(body)).filter((row) => row.name === name);
        assert.equal(copies.length, 2);
        return toolCall('db_delete', { table: 'recipes', filters: [where('id', '=', copies.at(-1).ref)] });
      },
      stepComplete('Deleted the duplicate'),
      'Deleted the duplicate scones recipe.',
    ],
    async (model) => {
      const { act } = kit.actFor();
      const result = await turn(model, act, 'Delete the duplicate recipe', [{ description: `Find the two ${name} recipes and delete the newer one`, type: 'write' }]);
      assert.equal(result.status, 'done', JSON.stringify(result.error));
    },
  );
  assert.deepEqual(await db(`/recipes?name=eq.${enc(name)}&select=id`), [{ id: older.id }]);
});

test('repeated empty reads end the step instead of asking the model again', async () => {
  await withModel(
    [
      toolCall('db_read', { table: 'inventory', filters: [where('name', '=', 'chiken')] }),
      toolCall('db_read', { table: 'inventory', filters: [where('name', '=', 'chikn')] }),
      toolCall('db_read', { table: 'inventory', filters: [where('name', '=', 'chickn')] }),
      stepComplete('No chicken found'),
    ],
    async (model, server) => {
      const { act } = kit.actFor();
      const result = await turn(model, act, 'how much chiken do I have?', [{ description: 'Read the chicken in the inventory', type: 'read' }], { replyTurn: null });
      assert.deepEqual(result.steps[0].queries.map((record) => record.data), [[], []]);
      assert.equal(result.steps[0].status, 'complete');
      assert.match(result.steps[0].summary, /inventory/);
      assert.equal(server.used, 2, 'the model is not asked a third time');
    },
  );
});
