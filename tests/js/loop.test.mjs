// The Act loop end to end: the scripted model (a real OpenAI-compatible
// server on 127.0.0.1) makes the mistakes real models make, the real
// executor runs the tool calls against the local stack (PGlite + PostgREST),
// and the database is checked directly afterwards. Every mistake ends in a
// correct execution after feedback or in a clean `blocked`, never in a wrong
// write.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/src/index.node.js';
import { createChatModel } from '../../web/src/llm/index.js';
import { runStep, runTurn, runTurnEvents } from '../../web/src/loop/index.js';
import { startStack } from '../../db/local-stack.mjs';
import { startScriptedModel } from './support/scripted-model.mjs';
import { askUser, blocked, stepComplete, toolCall, where } from './support/decisions.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const core = await loadCore();

let stack;
let ada;
let ben;

before(async () => {
  stack = await startStack();
  [ada, ben] = stack.users;
});
after(() => stack?.stop());

const newAct = (user = ada, state) =>
  core.createAct({ restUrl: stack.url, apiKey: stack.anonKey, accessToken: user.token, userId: user.id, state });

/** PostgREST straight, as `user`: the ground truth the loop is checked against. */
async function rest(user, pathAndQuery) {
  const response = await fetch(`${stack.url}/${pathAndQuery}`, {
    headers: { apikey: stack.anonKey, authorization: `Bearer ${user.token}` },
  });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}

// Nothing the loop sends has a UUID: the assembled prompts, the feedback on
// rejected answers, the plan and reply prompts. Only the model's own earlier
// answers (role assistant), sent back with the feedback, may quote one.
function assertNoUuidInPrompts(server) {
  for (const { body } of server.requests) {
    for (const message of body.messages.filter((entry) => entry.role !== 'assistant')) {
      assert.doesNotMatch(message.content, UUID, `${message.role} message has a UUID`);
    }
  }
}

async function withModel(script, run) {
  const server = await startScriptedModel(script);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'scripted', retryDelayMs: 10, maxRetries: 2 });
    const result = await run(model, server);
    assertNoUuidInPrompts(server);
    return result;
  } finally {
    await server.stop();
  }
}

/** runStep with the events kept; `last` holds the latest tool result for scripts that react to it. */
function stepRunner(act, model, options = {}) {
  const events = [];
  const last = { data: null, error: null };
  const run = (step) =>
    runStep({
      core,
      act,
      model,
      step,
      context: { userMessage: step.description },
      ...options,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'result') Object.assign(last, { data: event.data, error: event.error });
      },
    });
  return { run, events, last };
}

// The feedback the model got for its n-th answer (0-based) in this step.
const feedbackAfter = (server, requestIndex) => server.requests[requestIndex].body.messages.at(-1).content;

test('an operator the schema does not have → the error and hint go back → the corrected read runs', async () => {
  await withModel(
    [
      toolCall('db_read', { table: 'inventory', filters: [where('location', 'not_equals', 'fridge')] }),
      toolCall('db_read', { table: 'inventory', filters: [where('location', '!=', 'fridge')] }),
      stepComplete('Found the items outside the fridge'),
    ],
    async (model, server) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: 'Read inventory outside the fridge', type: 'read' });
      assert.equal(result.status, 'complete');
      assert.deepEqual(result.rejected.map((item) => item.reason), ['tool_error']);
      assert.match(feedbackAfter(server, 1), /ERROR[\s\S]*not_equals[\s\S]*Hint:/);
      const [refused, executed] = result.queries;
      assert.ok(refused.error);
      assert.equal(executed.error, null);
      const truth = await rest(ada, 'inventory?select=id&location=neq.fridge');
      assert.equal(executed.data.length, truth.length);
      assert.ok(executed.data.every((row) => row.location !== 'fridge'));
    },
  );
});

test('not_ilike on a non-text column → feedback → not_ilike on the name excludes the rows it should', async () => {
  await withModel(
    [
      toolCall('db_read', { table: 'inventory', filters: [where('expiry_date', 'not_ilike', '%2020%')] }),
      toolCall('db_read', { table: 'inventory', filters: [where('name', 'not_ilike', '%milk%')] }),
      stepComplete('Everything but milk'),
    ],
    async (model) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: 'Read inventory that is not milk', type: 'read' });
      assert.equal(result.status, 'complete');
      assert.equal(result.rejected.length, 1);
      const rows = result.queries.at(-1).data;
      assert.ok(rows.length > 0);
      assert.ok(rows.every((row) => !/milk/i.test(row.name)));
    },
  );
});

test('invented and truncated UUIDs are refused before any request; the update by ref changes only that row', async () => {
  const rowsBefore = await rest(ada, 'inventory?select=name,quantity&order=name');
  let milkRef = null;
  const script = [
    toolCall('db_read', { table: 'inventory', filters: [where('name', '=', 'milk')] }),
    () => stepComplete('Found the milk', null, 'milk'),
    toolCall('db_update', { table: 'inventory', filters: [where('id', '=', 'c69607bb-0000-0000-0000-000000000000')], data: { quantity: 250 } }),
    toolCall('db_update', { table: 'inventory', filters: [where('id', '=', '..c69607bb')], data: { quantity: 250 } }),
    () => toolCall('db_update', { table: 'inventory', filters: [where('id', '=', milkRef)], data: { quantity: 250 } }),
    stepComplete('Milk set to 250 ml'),
    'Your milk is now 250 ml.',
  ];
  await withModel(script, async (model, server) => {
    const result = await runTurn({
      core,
      act: newAct(),
      model,
      turn: {
        userMessage: 'I used most of the milk, 250 ml left',
        steps: [
          { description: 'Read the milk in inventory', type: 'read' },
          { description: 'Set the milk quantity to 250', type: 'write' },
        ],
      },
      onEvent: (event) => {
        // `name = milk` is fuzzy (coconut milk comes back too): pick the row as a model would.
        if (event.type === 'result' && event.tool === 'db_read') milkRef = event.data.find((row) => row.name === 'milk').id;
      },
    });
    assert.equal(result.status, 'done', JSON.stringify(result.error));
    assert.match(milkRef, /^inv_\d+$/);
    const write = result.steps[1];
    assert.deepEqual(write.rejected.map((item) => item.reason), ['tool_error', 'tool_error']);
    assert.match(feedbackAfter(server, 3), /invented_uuid[\s\S]*Hint: .*inv_1 \(milk\)/);
    assert.match(feedbackAfter(server, 4), /not_a_ref/);
    assert.equal(write.queries.at(-1).error, null);
    assert.equal(result.reply, 'Your milk is now 250 ml.');
  });
  const afterRows = await rest(ada, 'inventory?select=name,quantity&order=name');
  assert.deepEqual(
    afterRows,
    rowsBefore.map((row) => (row.name === 'milk' ? { ...row, quantity: 250 } : row)),
  );
});

test('unknown refs and refs of another table → the model gives up with blocked; nothing is deleted', async () => {
  const rowsBefore = await rest(ada, 'inventory?select=id');
  await withModel(
    [
      toolCall('db_delete', { table: 'inventory', filters: [where('id', '=', 'inv_999')] }),
      toolCall('db_delete', { table: 'inventory', filters: [where('id', 'in', ['recipe_1'])] }),
      blocked('I do not know which inventory item to delete'),
    ],
    async (model, server) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: 'Delete the old yogurt', type: 'write' });
      assert.equal(result.status, 'blocked');
      assert.equal(result.blocked.reason_code, 'TOOL_FAILURE');
      assert.ok(result.queries.every((record) => record.error));
      assert.match(feedbackAfter(server, 1), /inv_999/);
    },
  );
  assert.equal((await rest(ada, 'inventory?select=id')).length, rowsBefore.length);
});

test('the same mistake past maxRetries: the loop ends the step blocked itself', async () => {
  const rowsBefore = await rest(ada, 'inventory?select=id');
  const bad = toolCall('db_delete', { table: 'inventory', filters: [where('id', '=', 'inv_42')] });
  await withModel([bad, bad, bad, bad], async (model, server) => {
    const { run, events } = stepRunner(newAct(), model, { maxRetries: 3 });
    const result = await run({ description: 'Delete item 42', type: 'write' });
    assert.equal(result.status, 'blocked');
    assert.equal(result.blocked.reason_code, 'TOOL_FAILURE');
    assert.match(result.blocked.details, /gave up after 3 corrections/);
    assert.equal(server.used, 4);
    assert.deepEqual(events.filter((event) => event.type === 'retry').map((event) => event.retriesLeft), [2, 1, 0]);
  });
  assert.equal((await rest(ada, 'inventory?select=id')).length, rowsBefore.length);
});

test('"" for a null foreign key is saved as NULL at once, with no correction needed', async () => {
  const notes = `picnic ${Date.now()}`;
  await withModel(
    [
      toolCall('db_create', { table: 'meal_plans', data: { date: '2031-05-04', meal_type: 'lunch', recipe_id: '', notes } }),
      stepComplete('Planned the picnic lunch'),
    ],
    async (model) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: 'Add a picnic lunch on 2031-05-04 with no recipe', type: 'write' });
      assert.equal(result.status, 'complete');
      assert.deepEqual(result.rejected, []);
      assert.equal(result.queries.length, 1);
      assert.equal(result.queries[0].data.recipe_id, null);
    },
  );
  const rows = await rest(ada, `meal_plans?select=recipe_id,meal_type&notes=eq.${encodeURIComponent(notes)}`);
  assert.deepEqual(rows, [{ recipe_id: null, meal_type: 'lunch' }]);
});

test('`in` with a scalar → feedback → the list form', async () => {
  await withModel(
    [
      toolCall('db_read', { table: 'recipes', filters: [where('cuisine', 'in', 'indian')], columns: ['name', 'cuisine'] }),
      toolCall('db_read', { table: 'recipes', filters: [where('cuisine', 'in', ['indian', 'thai'])], columns: ['name', 'cuisine'] }),
      stepComplete('Indian and Thai recipes'),
    ],
    async (model) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: 'Read Indian and Thai recipes', type: 'read' });
      assert.equal(result.status, 'complete');
      assert.equal(result.rejected.length, 1);
      const rows = result.queries.at(-1).data;
      const truth = await rest(ada, 'recipes?select=id&cuisine=in.(indian,thai)');
      assert.equal(rows.length, truth.length);
      assert.ok(rows.every((row) => ['indian', 'thai'].includes(row.cuisine)));
    },
  );
});

test('empty params (null, {}) are answered, not looped on', async () => {
  await withModel(
    [toolCall('db_read', null), { action: 'tool_call', tool: 'db_read', params: {} }, toolCall('db_read', { table: 'tasks' }), stepComplete('Read the tasks')],
    async (model, server) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: 'Read my tasks', type: 'read' });
      assert.equal(result.status, 'complete');
      assert.equal(result.rejected.length, 2);
      assert.equal(server.used, 4);
      assert.equal(result.queries.at(-1).error, null);
    },
  );
});

test('delete without a real filter is refused (no filter, id is_not_null); the model ends blocked; nothing is deleted', async () => {
  const rowsBefore = await rest(ada, 'inventory?select=id');
  await withModel(
    [
      toolCall('db_delete', { table: 'inventory', filters: [] }),
      toolCall('db_delete', { table: 'inventory', filters: [where('id', 'is_not_null')] }),
      blocked('Deleting everything needs a confirmation', 'INSUFFICIENT_INFO'),
    ],
    async (model) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: 'Clear the inventory', type: 'write' });
      assert.equal(result.status, 'blocked');
      assert.equal(result.rejected.length, 2);
      assert.ok(result.queries.every((record) => record.error));
    },
  );
  assert.equal((await rest(ada, 'inventory?select=id')).length, rowsBefore.length);
});

test('update without a filter is refused; the corrected update by ref touches one row', async () => {
  const rowsBefore = await rest(ada, 'inventory?select=name,quantity&order=name');
  const found = { ref: null };
  await withModel(
    [
      toolCall('db_update', { table: 'inventory', filters: null, data: { quantity: 6 } }),
      toolCall('db_read', { table: 'inventory', filters: [where('name', '=', 'egg')] }),
      () => toolCall('db_update', { table: 'inventory', filters: [where('id', '=', found.ref)], data: { quantity: 6 } }),
      stepComplete('Eggs set to 6'),
    ],
    async (model) => {
      const act = newAct();
      const result = await runStep({
        core,
        act,
        model,
        step: { description: 'Set the eggs to 6', type: 'write' },
        onEvent: (event) => {
          if (event.type === 'result' && event.tool === 'db_read') found.ref = event.data[0].id;
        },
      });
      assert.equal(result.status, 'complete');
      assert.equal(result.rejected.length, 1);
    },
  );
  const afterRows = await rest(ada, 'inventory?select=name,quantity&order=name');
  assert.deepEqual(afterRows, rowsBefore.map((row) => (row.name === 'egg' ? { ...row, quantity: 6 } : row)));
});

test("a spoofed user_id is refused with a reason; the corrected calls stay within the user's own rows", async () => {
  const name = `spoofed item ${Date.now()}`;
  await withModel(
    [
      toolCall('db_create', { table: 'shopping_list', data: { name, quantity: 1, unit: 'piece', user_id: ben.id } }),
      toolCall('db_create', { table: 'shopping_list', data: { name, quantity: 1, unit: 'piece' } }),
      stepComplete('Added'),
    ],
    async (model, server) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: `Add ${name} to the shopping list`, type: 'write' });
      assert.equal(result.status, 'complete');
      assert.deepEqual(result.queries.map((record) => record.error?.code ?? null), ['system_column', null]);
      assert.match(feedbackAfter(server, 1), /user_id holds the row's owner, the signed-in user/);
    },
  );
  assert.equal((await rest(ada, `shopping_list?select=name&name=eq.${encodeURIComponent(name)}`)).length, 1);
  assert.equal((await rest(ben, `shopping_list?select=name&name=eq.${encodeURIComponent(name)}`)).length, 0);

  await withModel(
    [
      toolCall('db_read', { table: 'recipes', filters: [where('user_id', '=', ben.id)], columns: ['name', 'description'] }),
      toolCall('db_read', { table: 'recipes', columns: ['name', 'description'] }),
      stepComplete('Read the recipes I can see'),
    ],
    async (model) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: "Read Ben's recipes", type: 'read' });
      assert.equal(result.status, 'complete');
      assert.equal(result.queries[0].error.code, 'system_column');
      const rows = result.queries[1].data;
      assert.deepEqual(rows.map((row) => row.name).sort(), (await rest(ada, 'recipes?select=name')).map((row) => row.name).sort());
      assert.ok(rows.every((row) => !/Ben's version/.test(String(row.description))));
    },
  );
});

test('malformed JSON and prose are fed back until a valid decision comes', async () => {
  await withModel(
    ['{"action": "tool_call", "tool": "db_read", "params": {"table": "inventory"', 'Sure! Let me look at your freezer.', toolCall('db_read', { table: 'inventory', filters: [where('location', '=', 'freezer')] }), stepComplete('Freezer read')],
    async (model, server) => {
      const { run } = stepRunner(newAct(), model);
      const result = await run({ description: 'Read the freezer', type: 'read' });
      assert.equal(result.status, 'complete');
      assert.deepEqual(result.rejected.map((item) => item.reason), ['malformed_decision', 'malformed_decision']);
      assert.match(feedbackAfter(server, 1), /not a valid decision/);
      assert.equal(server.requests[1].body.messages.at(-2).role, 'assistant');
      assert.ok(result.queries.at(-1).data.every((row) => row.location === 'freezer'));
    },
  );
});

test('a write in a read step is refused without running', async () => {
  const rowsBefore = await rest(ada, 'inventory?select=id');
  await withModel(
    [
      toolCall('db_delete', { table: 'inventory', filters: [where('location', '=', 'fridge')] }),
      toolCall('db_read', { table: 'inventory', filters: [where('location', '=', 'fridge')] }),
      stepComplete('Fridge read'),
    ],
    async (model) => {
      const { run, events } = stepRunner(newAct(), model);
      const result = await run({ description: 'Read the fridge', type: 'read' });
      assert.equal(result.status, 'complete');
      assert.equal(result.rejected.length, 1);
      assert.equal(events.filter((event) => event.type === 'tool_call').length, 1);
    },
  );
  assert.equal((await rest(ada, 'inventory?select=id')).length, rowsBefore.length);
});

test('the tool-call limit ends the step cleanly; a repeated identical call is not run twice', async () => {
  const fridge = toolCall('db_read', { table: 'inventory', filters: [where('location', '=', 'fridge')] });
  await withModel(
    [fridge, fridge, toolCall('db_read', { table: 'inventory', filters: [where('location', '=', 'pantry')] }), toolCall('db_read', { table: 'tasks' })],
    async (model, server) => {
      const { run } = stepRunner(newAct(), model, { maxToolCalls: 2 });
      const result = await run({ description: 'Read the fridge and pantry', type: 'read' });
      assert.equal(result.status, 'limit_reached');
      assert.match(result.summary, /limit of 2 tool calls/);
      assert.deepEqual(result.rejected.map((item) => item.reason), ['repeated_call']);
      assert.equal(result.queries.length, 2);
      assert.equal(server.used, 3);
    },
  );
});

test('generate → gen_recipe_1 → a write step saves it and links its ingredients; a second save is refused', async () => {
  const name = `Loop Basil Chicken ${Date.now()}`;
  const recipe = { name, cuisine: 'thai', difficulty: 'easy', servings: 2, instructions: ['Fry the chicken.', 'Add basil.'] };
  const ingredients = [
    { name: 'chicken thigh', quantity: 500, unit: 'g' },
    { name: 'thai basil', quantity: 1, unit: 'bunch' },
  ];
  await withModel(
    [
      stepComplete('Generated one recipe', { recipes: [{ ...recipe, recipe_ingredients: ingredients }] }),
      toolCall('db_create', { table: 'recipes', data: { id: 'gen_recipe_1', ...recipe } }),
      toolCall('db_create', { table: 'recipe_ingredients', data: ingredients.map((row) => ({ recipe_id: 'gen_recipe_1', ...row })) }),
      toolCall('db_create', { table: 'recipes', data: { id: 'gen_recipe_1', ...recipe, servings: 4 } }),
      stepComplete('Saved the recipe with its ingredients'),
      `Saved ${name}.`,
    ],
    async (model, server) => {
      const result = await runTurn({
        core,
        act: newAct(),
        model,
        turn: {
          userMessage: 'Make me a quick Thai basil chicken and save it',
          steps: [
            { description: 'Generate a Thai basil chicken recipe', type: 'generate' },
            { description: 'Save the generated recipe and its ingredients', type: 'write' },
          ],
        },
      });
      assert.equal(result.status, 'done', JSON.stringify(result.error));
      assert.deepEqual(result.steps[0].generated.map((item) => item.ref), ['gen_recipe_1']);
      assert.match(server.requests[1].body.messages[1].content, /gen_recipe_1/);
      const write = result.steps[1];
      assert.deepEqual(write.queries.map((record) => record.error === null), [true, true, false]);
      assert.deepEqual(write.rejected.map((item) => item.reason), ['tool_error']);
      assert.equal(write.queries[2].error.code, 'already_saved');
      assert.match(feedbackAfter(server, 4), /already_saved[\s\S]*db_update/);
      assert.equal(result.reply, `Saved ${name}.`);
      assert.doesNotThrow(() => JSON.stringify(result.state));
    },
  );
  const saved = await rest(ada, `recipes?select=name,recipe_ingredients(name,quantity)&name=eq.${encodeURIComponent(name)}`);
  assert.equal(saved.length, 1);
  assert.deepEqual(saved[0].recipe_ingredients.map((row) => row.name).sort(), ['chicken thigh', 'thai basil']);
});

test('a generate step revises its pending gen_ recipe; the write step reads the revision from the registry and saves it by name', async () => {
  const stamp = Date.now();
  const recipe = { name: `Loop Basil Chicken ${stamp}`, cuisine: 'thai', servings: 2, instructions: ['Fry the chicken.', 'Add basil.'] };
  const spicy = { ...recipe, name: `Spicy Loop Basil Chicken ${stamp}`, flavor_tags: ['spicy'], instructions: [...recipe.instructions, 'Add bird chilies.'] };
  let readBack = null;
  await withModel(
    [
      stepComplete('Generated one recipe', { recipes: [recipe] }),
      stepComplete('Made it spicier', { gen_recipe_1: spicy }),
      toolCall('db_read', { table: 'recipes', filters: [where('id', '=', 'gen_recipe_1')] }),
      toolCall('db_create', { table: 'recipes', data: spicy }),
      stepComplete('Saved the spicy version'),
      'Saved.',
    ],
    async (model, server) => {
      const result = await runTurn({
        core,
        act: newAct(),
        model,
        turn: {
          userMessage: 'Make me a Thai basil chicken, make it spicier, and save it',
          steps: [
            { description: 'Generate a Thai basil chicken recipe', type: 'generate' },
            { description: 'Make the generated recipe spicier', type: 'generate' },
            { description: 'Save the recipe', type: 'write' },
          ],
        },
        onEvent: (event) => {
          if (event.type === 'result' && event.tool === 'db_read') readBack = event.data;
        },
      });
      assert.equal(result.status, 'done', JSON.stringify(result.error));
      assert.deepEqual(result.steps[1].generated, [{ ref: 'gen_recipe_1', table: 'recipes', content: { id: 'gen_recipe_1', ...spicy } }]);
      assert.match(server.requests[1].body.messages[1].content, /gen_recipe_1/);
      assert.match(server.requests[2].body.messages[1].content, new RegExp(spicy.name));
      assert.equal(readBack.length, 1);
      assert.equal(readBack[0].name, spicy.name);
      assert.equal(result.steps[2].queries[0].query.source, 'generated');
      assert.deepEqual(result.steps[2].queries[1].query.notes, ['saved gen_recipe_1 as ' + result.steps[2].queries[1].data.id]);
    },
  );
  const saved = await rest(ada, `recipes?select=name,flavor_tags,instructions&name=ilike.*${encodeURIComponent(`Loop Basil Chicken ${stamp}`)}`);
  assert.deepEqual(saved, [{ name: spicy.name, flavor_tags: ['spicy'], instructions: spicy.instructions }]);
});

test('state between turns is one JSON value: turn 2 runs in a new act from it and deletes by a turn-1 ref', async () => {
  let spinachRef = null;
  const turn1 = await withModel(
    [toolCall('db_read', { table: 'inventory', filters: [where('name', '=', 'spinach')] }), stepComplete('Found the spinach'), 'You have 150 g of spinach.'],
    async (model) => {
      const events = [];
      for await (const event of runTurnEvents({ core, act: newAct(), model, turn: { userMessage: 'Do I have spinach?', steps: [{ description: 'Read spinach in inventory', type: 'read' }] } })) {
        events.push(event);
        if (event.type === 'result') spinachRef = event.data[0].id;
      }
      assert.deepEqual(
        events.map((event) => event.type),
        ['turn_started', 'plan', 'step_started', 'prompt', 'decision', 'tool_call', 'query', 'result', 'prompt', 'decision', 'step_done', 'reply', 'turn_done'],
      );
      return events.at(-1).result;
    },
  );
  assert.equal(turn1.status, 'done');
  const stored = JSON.stringify(turn1.state);
  const state = JSON.parse(stored);

  await withModel(
    [() => toolCall('db_delete', { table: 'inventory', filters: [where('id', '=', spinachRef)] }), stepComplete('Deleted the spinach'), 'Removed the spinach.'],
    async (model, server) => {
      const result = await runTurn({
        core,
        act: newAct(ada, state.registry),
        model,
        state: stored,
        turn: { userMessage: 'It went bad, remove it', steps: [{ description: 'Delete the spinach', type: 'write' }] },
      });
      assert.equal(result.status, 'done', JSON.stringify(result.error));
      assert.equal(result.state.turn, 2);
      assert.match(server.requests[0].body.messages[1].content, /Do I have spinach\?/);
      assert.deepEqual(result.state.conversation.map((message) => message.content), ['Do I have spinach?', 'You have 150 g of spinach.', 'It went bad, remove it', 'Removed the spinach.']);
    },
  );
  assert.deepEqual(await rest(ada, 'inventory?select=name&name=eq.spinach'), []);
});

test('regression: a turn whose final reply fails is an error, not done; its steps and state are kept', async () => {
  await withModel([stepComplete('Nothing to change')], async (model) => {
    const failingReply = async () => ({ data: null, error: { code: 'http_error', path: '', message: 'the model answered 500', hint: '' } });
    const result = await runTurn({
      core,
      act: newAct(),
      model,
      replyTurn: failingReply,
      turn: { userMessage: 'anything to do?', steps: [{ description: 'Check nothing', type: 'analyze' }] },
    });
    assert.equal(result.status, 'error');
    assert.equal(result.error.code, 'http_error');
    assert.equal(result.reply, null);
    assert.deepEqual(result.steps.map((step) => step.status), ['complete']);
    assert.equal(result.state.turn, 1);
  });
});

test('ask_user ends the turn with the question; later steps do not run', async () => {
  await withModel([askUser('Which recipe do you mean, the original or the weeknight version?')], async (model, server) => {
    const result = await runTurn({
      core,
      act: newAct(),
      model,
      turn: {
        userMessage: 'Delete butter chicken',
        steps: [
          { description: 'Find the butter chicken recipe', type: 'read' },
          { description: 'Delete it', type: 'write' },
        ],
      },
    });
    assert.equal(result.status, 'ask_user');
    assert.equal(result.question, 'Which recipe do you mean, the original or the weeknight version?');
    assert.equal(result.reply, result.question);
    assert.equal(result.steps.length, 1);
    assert.equal(server.used, 1);
  });
});

test('cancelling as a write is about to run: the turn ends aborted, the write never reaches the database', async () => {
  const name = `cancelled ${Date.now()}`;
  const controller = new AbortController();
  await withModel([toolCall('db_create', { table: 'shopping_list', data: { name, quantity: 1, unit: 'piece' } })], async (model) => {
    const result = await runTurn({
      core,
      act: newAct(),
      model,
      signal: controller.signal,
      turn: { userMessage: `add ${name}`, steps: [{ description: `Add ${name}`, type: 'write' }] },
      onEvent: (event) => {
        if (event.type === 'tool_call') controller.abort();
      },
    });
    assert.equal(result.status, 'aborted');
    assert.equal(result.error.code, 'aborted');
    assert.deepEqual(result.steps[0].queries, []);
  });
  assert.deepEqual(await rest(ada, `shopping_list?select=name&name=eq.${encodeURIComponent(name)}`), []);
});

test('the model failing mid-turn: status error, and the state keeps the row already written', async () => {
  const name = `batteries ${Date.now()}`;
  const failing = { status: 500, body: { error: { message: 'upstream overloaded' } } };
  await withModel([toolCall('db_create', { table: 'shopping_list', data: { name, quantity: 4, unit: 'piece' } }), failing, failing, failing], async (model) => {
    const result = await runTurn({ core, act: newAct(), model, turn: { userMessage: `add ${name}`, steps: [{ description: `Add ${name}`, type: 'write' }] } });
    assert.equal(result.status, 'error');
    assert.equal(result.error.code, 'http_error');
    assert.equal(result.steps[0].queries[0].error, null);
    const created = result.steps[0].queries[0].data;
    const ref = (Array.isArray(created) ? created[0] : created).id;
    assert.ok(result.state.registry.refs.some((entry) => entry.ref === ref));
  });
  assert.equal((await rest(ada, `shopping_list?select=name&name=eq.${encodeURIComponent(name)}`)).length, 1);
});
