// Rules the JavaScript package takes from the core instead of keeping a copy:
// the tool names and which tools a step type may call (TOOL_NAMES,
// STEP_TOOLS, generated at build time from the core), the ref grammar, and
// the table a registry's ref names.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { AlfredError, STEP_TOOLS, TOOL_NAMES, kitchen, loadCore } from '../../web/src/index.node.js';
import { artifactsOf, registerArtifacts } from '../../web/src/loop-artifacts.js';
import { coreRules, moduleText } from '../../scripts/generate-core-rules.mjs';
import { ROOT } from './support/paths.mjs';

const core = await loadCore();

test('TOOL_NAMES and STEP_TOOLS are the core\'s, and web/dist/core-rules.mjs is current', async () => {
  assert.deepEqual(STEP_TOOLS, core.stepTools);
  assert.deepEqual(TOOL_NAMES, ['db_read', 'db_create', 'db_update', 'db_delete']);
  assert.deepEqual(TOOL_NAMES, core.toolDefinitions().map((tool) => tool.name));
  assert.ok(Object.isFrozen(STEP_TOOLS) && Object.isFrozen(STEP_TOOLS.write) && Object.isFrozen(TOOL_NAMES));
  assert.equal(readFileSync(join(ROOT, 'web/dist/core-rules.mjs'), 'utf8'), moduleText(await coreRules()), 'run scripts/build.sh');
});

test('the ToolName and StepType unions of web/index.d.ts are the core\'s tools and step types', () => {
  const types = readFileSync(join(ROOT, 'web/index.d.ts'), 'utf8');
  const members = (name) => [...types.match(new RegExp(`export type ${name} =([^;]*);`))[1].matchAll(/'([^']*)'/g)].map((match) => match[1]);
  assert.deepEqual(members('ToolName'), [...TOOL_NAMES]);
  assert.deepEqual(members('StepType'), Object.keys(STEP_TOOLS));
});

test('parseDecision accepts a tool call in a step exactly when STEP_TOOLS lists the tool', () => {
  for (const [stepType, allowed] of Object.entries(STEP_TOOLS)) {
    for (const tool of TOOL_NAMES) {
      const text = JSON.stringify({ action: 'tool_call', tool, params: { table: 'recipes' } });
      const { error } = core.parseDecision(text, { stepType });
      assert.equal(error === null, allowed.includes(tool), `${tool} in a ${stepType} step: ${error?.message}`);
    }
  }
});

test('core.parseRef answers the ref grammar; registry.tableOf the registry', () => {
  assert.deepEqual(core.parseRef('gen_recipe_2'), { generated: true, prefix: 'recipe', number: 2 });
  assert.deepEqual(core.parseRef('inv_12'), { generated: false, prefix: 'inv', number: 12 });
  for (const text of ['', 'recipes', 'recipe_0', 'gen_recipe_01', 'Recipe_1', 'gen_recipe_1 ', 42, null, 'x'.repeat(300)]) {
    assert.equal(core.parseRef(text), null, JSON.stringify(text));
  }

  const registry = core.createRegistry();
  const { data: genRef } = registry.registerGenerated('recipes', { name: 'Dal' });
  assert.equal(registry.tableOf(genRef), 'recipes');
  assert.equal(registry.tableOf('recipe_1'), null);
  registry.promote(genRef, 'c69607bb-1111-4111-8111-000000000001', 'Dal');
  assert.equal(registry.tableOf(genRef), 'recipes');
  assert.equal(registry.tableOf('recipe_1'), 'recipes');
  assert.equal(registry.tableOf(7), null);
  registry.delete();
});

test('artifacts keyed by the gen_ ref of a table whose ref prefix has an underscore are revisions', () => {
  const domain = {
    name: 'planner',
    tables: {
      meal_plans: { ref: 'meal_plan', writable: true, label: ['title'], columns: { id: { type: 'uuid', writable: false }, title: { type: 'text' } } },
    },
  };
  const planner = core.createRegistry(undefined, { domain });
  const { data: genRef, error } = planner.registerGenerated('meal_plans', { title: 'Week 1' });
  assert.equal(error, null);
  assert.equal(genRef, 'gen_meal_plan_1');
  const found = artifactsOf({ [genRef]: { title: 'Week 1, lighter' } }, domain, core);
  assert.deepEqual(found, { data: [{ ref: genRef, content: { title: 'Week 1, lighter' } }], error: null });
  assert.deepEqual(registerArtifacts(planner, found.data, domain).data, [
    { ref: genRef, table: 'meal_plans', content: { id: genRef, title: 'Week 1, lighter' } },
  ]);
  planner.delete();
});

test('a core call that throws while placing artifacts is an error value, not an exception', () => {
  const registry = core.createRegistry();
  const { data: genRef } = registry.registerGenerated('recipes', { name: 'Dal' });
  const throwing = { parseRef() { throw new AlfredError({ code: 'out_of_memory', message: 'no room' }); } };
  assert.equal(artifactsOf({ [genRef]: { name: 'Dal' } }, kitchen, throwing).error.code, 'out_of_memory');
  // A null where an artifact should be is the model's mistake, answered as one.
  for (const data of [[null], { artifacts: [null] }, null]) {
    const { error } = artifactsOf(data, kitchen, core);
    assert.ok(error === null || error.code === 'invalid_artifacts', JSON.stringify(error));
  }
  assert.equal(artifactsOf([null], kitchen, core).error.code, 'invalid_artifacts');
  registry.delete();
});
