// Rules the JavaScript package takes from the core instead of keeping a copy:
// the tool names and which tools a step type may call (TOOL_NAMES,
// STEP_TOOLS, generated at build time from the core), the ref grammar, and
// the table a registry's ref names.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { AlfredError, STEP_TOOLS, TOOL_NAMES, kitchen, loadCore, restUrl } from '../../web/src/index.node.js';
import { FILTER_OPS, NAME_RULES, OUTCOME_UNKNOWN_HINT } from '../../web/dist/core-rules.mjs';
import { deriveDomain } from '../../web/src/pull/index.js';
import { artifactsOf, registerArtifacts } from '../../web/src/loop/artifacts.js';
import { coreRules, moduleText, typesText } from '../../scripts/generate-core-rules.mjs';
import { ROOT } from './support/paths.mjs';

const core = await loadCore();

// PostgREST's description of one table `things`: an id, an owner and a text column `name`.
function openApiWith(name) {
  return {
    swagger: '2.0',
    definitions: {
      things: {
        required: ['id'],
        properties: {
          id: { format: 'uuid', type: 'string', description: 'Note:\nThis is a Primary Key.<pk/>' },
          owner_id: { format: 'uuid', type: 'string' },
          [name]: { format: 'text', type: 'string' },
        },
        type: 'object',
      },
    },
  };
}

test('TOOL_NAMES and STEP_TOOLS are the core\'s, and web/dist/core-rules.mjs is current', async () => {
  assert.deepEqual(STEP_TOOLS, core.stepTools);
  assert.deepEqual(TOOL_NAMES, ['db_read', 'db_create', 'db_update', 'db_delete', 'db_call', 'db_aggregate']);
  // The kitchen demo has no functions: db_call is offered where a domain has some.
  assert.deepEqual(TOOL_NAMES.filter((tool) => tool !== 'db_call'), core.toolDefinitions().map((tool) => tool.name));
  assert.ok(Object.isFrozen(STEP_TOOLS) && Object.isFrozen(STEP_TOOLS.write) && Object.isFrozen(TOOL_NAMES));
  assert.equal(readFileSync(join(ROOT, 'web/dist/core-rules.mjs'), 'utf8'), moduleText(await coreRules()), 'run scripts/build.sh');
  assert.equal(readFileSync(join(ROOT, 'web/dist/core-rules.d.mts'), 'utf8'), typesText(await coreRules()), 'run scripts/build.sh');
});

test('the ToolName, StepType and FilterOp unions are generated from the core, and web/index.d.ts uses them', () => {
  const types = readFileSync(join(ROOT, 'web/dist/core-rules.d.mts'), 'utf8');
  const members = (name) => [...types.match(new RegExp(`export type ${name} =([^;]*);`))[1].matchAll(/'([^']*)'/g)].map((match) => match[1]);
  assert.deepEqual(members('ToolName'), [...TOOL_NAMES]);
  assert.deepEqual(members('StepType'), Object.keys(STEP_TOOLS));
  assert.deepEqual(members('FilterOp'), [...FILTER_OPS.names, ...FILTER_OPS.aliases]);
  const index = readFileSync(join(ROOT, 'web/index.d.ts'), 'utf8');
  assert.match(index, /import type \{ FilterOp, StepType, ToolName \} from '\.\/dist\/core-rules\.mjs';/);
  for (const name of ['ToolName', 'StepType', 'FilterOp']) assert.doesNotMatch(index, new RegExp(`export type ${name} =`), `${name} is written out again`);
});

test('domain pull names what the core accepts: NAME_RULES are the core\'s identifier rule and PostgREST keywords', () => {
  assert.deepEqual(NAME_RULES.identifier, { first: 'abcdefghijklmnopqrstuvwxyz', rest: 'abcdefghijklmnopqrstuvwxyz0123456789_', maxLength: 63 });
  assert.deepEqual([...NAME_RULES.reservedColumns], ['select', 'columns', 'on_conflict', 'order', 'limit', 'offset', 'or', 'and', 'not']);
  // A column the core refuses by name is one domain pull leaves out, and the reverse.
  for (const name of ['ok_name', 'x'.repeat(63), 'x'.repeat(64), 'Upper', '9lives', 'order', 'not', 'na-me', 'café']) {
    const columns = { id: { type: 'uuid' }, owner_id: { type: 'uuid', writable: false }, [name]: { type: 'text' } };
    const domain = { name: 'names', owner_column: 'owner_id', tables: { things: { ref: 'thing', user_owned: true, columns } } };
    const accepted = core.validateDomain(domain).error === null;
    const pulled = deriveDomain(openApiWith(name), {}, { ownerColumn: 'owner_id' }).data?.tables?.things?.columns?.[name] !== undefined;
    assert.equal(pulled, accepted, name);
  }
});

test('OUTCOME_UNKNOWN_HINT is the core\'s hint for a write whose outcome is unknown', () => {
  assert.match(OUTCOME_UNKNOWN_HINT, /^the change may or may not have been made/);
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

test('restUrl(url) is the PostgREST root the core builds requests on for { url }', () => {
  for (const url of ['https://abcd.supabase.co', 'https://abcd.supabase.co/', 'http://127.0.0.1:54321', 'https://db.example.com/base//']) {
    const { data, error } = core.buildRequest('db_read', { table: 'ingredients' }, { url, apiKey: 'anon-key' });
    assert.equal(error, null, url);
    assert.ok(data.url.startsWith(`${restUrl(url)}/ingredients?`), `${url}: ${data.url}`);
  }
  for (const url of ['https://abcd.supabase.co/rest/v1', 'ftp://x']) {
    assert.throws(() => restUrl(url), { code: 'invalid_option' }, url);
    assert.equal(core.buildRequest('db_read', { table: 'ingredients' }, { url, apiKey: 'anon-key' }).error?.code, 'invalid_option', url);
  }
});
