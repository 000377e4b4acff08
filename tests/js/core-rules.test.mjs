// Rules the JavaScript package takes from the core instead of keeping a copy:
// the tool names and which tools a step type may call (TOOL_NAMES,
// STEP_TOOLS, generated at build time from the core), the ref grammar, and
// the table a registry's ref names.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { STEP_TOOLS, TOOL_NAMES, loadCore } from '../../web/src/index.node.js';
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
