// The golden prompts (tests/core/golden/*.txt) checked part by part against
// sources that are not the prompt code: the templates in prompts/act, the
// kitchen domain file (domains/kitchen/domain.json) and the session the native
// test builds them from (tests/core/prompt_support.h, its rows written out
// again below by hand). The native test compares the assembled prompt with
// these files byte for byte, and ALFRED_UPDATE_GOLDEN rewrites them from the
// code: these checks are what a regenerated golden must still pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/paths.mjs';

const domain = JSON.parse(readFileSync(join(ROOT, 'domains/kitchen/domain.json'), 'utf8'));
const template = (name) => readFileSync(join(ROOT, 'prompts/act', name), 'utf8');

function golden(name) {
  const text = readFileSync(join(ROOT, 'tests/core/golden', `${name}.txt`), 'utf8');
  assert.ok(text.startsWith('=== system ===\n'), `${name}: starts with the system part`);
  const [system, user] = text.slice('=== system ===\n'.length).split('=== user ===\n');
  assert.equal(typeof user, 'string', `${name}: has a user part`);
  return { system, user };
}

// The user part's numbered sections: { heading: body }, in order.
function sections(user) {
  const found = [...user.matchAll(/^## (\d+)\. (.+)$/gm)];
  assert.deepEqual(found.map((match) => Number(match[1])), found.map((_, index) => index + 1), 'numbered 1, 2, 3, … in order');
  return Object.fromEntries(found.map((match, index) => [match[2], user.slice(match.index + match[0].length + 1, found[index + 1]?.index ?? user.length).trim()]));
}

// The four goldens of the session, step 2 of 3, and the first step of a fresh one.
const STEPS = {
  read: { templates: ['base.md', 'crud.md', 'read.md'], sections: ['Status', 'Previous Step Note', 'Task', 'Step History', 'Schema', 'Entities in Context', 'Conversation', 'Decision'] },
  write: { templates: ['base.md', 'crud.md', 'write.md'], sections: ['Status', 'Previous Step Note', 'User Preferences', 'Task', 'Step History', 'Schema', 'Entities in Context', 'Generated Artifacts', 'Conversation', 'Decision'] },
  analyze: { templates: ['base.md', 'analyze.md'], sections: ['Status', 'Previous Step Note', 'User Profile', 'User Preferences', 'Task', 'Data Available', 'Entities in Context', 'Generated Artifacts', 'Conversation', 'Decision'] },
  generate: { templates: ['base.md', 'generate.md'], sections: ['Status', 'Previous Step Note', 'User Profile', 'User Preferences', 'Task', 'Data Available', 'Schema', 'Entities in Context', 'Generated Artifacts', 'Conversation', 'Decision'] },
  empty: { templates: ['base.md', 'crud.md', 'read.md'], sections: ['Status', 'Task', 'Step History', 'Schema', 'Entities in Context', 'Conversation', 'Decision'] },
};

// What each step type may do (docs/prompt-anatomy.md): the Decision section's first rule.
const ALLOWED = {
  read: 'Allowed in a read step: `tool_call` (`db_read` only), `step_complete`, `ask_user`, `blocked`, `fail`.',
  write: 'Allowed in a write step: `tool_call` (`db_create`, `db_update`, `db_delete`, `db_read`), `step_complete`, `ask_user`, `blocked`, `fail`.',
  analyze: 'Allowed in an analyze step: `step_complete`, `ask_user`, `blocked`, `fail`. No tool calls.',
  generate: 'Allowed in a generate step: `step_complete`, `ask_user`, `blocked`, `fail`. No tool calls.',
};

const REF_PREFIXES = new Set(Object.values(domain.tables).map((table) => table.ref));
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

for (const [name, step] of Object.entries(STEPS)) {
  test(`${name}: the system part is the step's templates in order, every placeholder filled with the kitchen's refs`, () => {
    const { system } = golden(name);
    let at = 0;
    for (const file of step.templates) {
      for (const chunk of template(file).split(/\{\{\w+\}\}/).map((piece) => piece.trim()).filter(Boolean)) {
        const found = system.indexOf(chunk, at);
        assert.ok(found >= 0, `${name}: ${file}'s text ${JSON.stringify(chunk.slice(0, 80))} is in the system part, after what precedes it`);
        at = found + chunk.length;
      }
    }
    assert.doesNotMatch(system, /\{\{\w+\}\}/, 'no placeholder left');
    for (const [, generated, prefix] of system.matchAll(/`(gen_)?([a-z]+)_\d+`/g)) {
      assert.ok(REF_PREFIXES.has(prefix), `${name}: \`${generated ?? ''}${prefix}_N\` is a ref of a kitchen table`);
    }
  });

  test(`${name}: the user part's sections, status and decision rules`, () => {
    const { user } = golden(name);
    const parts = sections(user);
    assert.deepEqual(Object.keys(parts), step.sections);
    const type = name === 'empty' ? 'read' : name;
    const [position, total] = name === 'empty' ? [1, 2] : [2, 3];
    const noCalls = type === 'analyze' || type === 'generate';
    assert.equal(user.split('\n')[0], `# Act: step ${position} of ${total} (${type})${name === 'empty' ? '' : ', subdomain recipes'}`);
    assert.equal(parts.Status.split('\n').at(-1), noCalls ? `| ${position} of ${total} | ${type} (no database calls) | 2026-02-09 |` : `| ${position} of ${total} | ${type} | 0 | 2026-02-09 |`);
    assert.equal(parts.Decision.split('\n')[1], ALLOWED[type]);
    assert.doesNotMatch(user, UUID, 'no UUID reaches the model');
  });
}

for (const name of ['read', 'write', 'generate']) {
  test(`${name}: the Schema section is the kitchen domain file, table by table and column by column`, () => {
    const schema = sections(golden(name).user).Schema;
    const blocks = schema.split(/^### /m).slice(1);
    assert.deepEqual(blocks.map((block) => block.split(' ')[0]).sort(), Object.keys(domain.tables).sort(), 'every table of the domain, no other');
    for (const block of blocks) {
      const [heading, ...lines] = block.trim().split('\n');
      const tableName = heading.split(' ')[0];
      const table = domain.tables[tableName];
      const writable = table.writable !== false;
      assert.equal(heading, `${tableName} (refs ${table.ref}_N)${writable ? '' : ', read-only'}`);
      const related = lines.filter((line) => line.startsWith('- related rows: '));
      assert.deepEqual(related.map((line) => line.slice('- related rows: '.length).split(' ')[0]), Object.keys(table.relations ?? {}));
      const expected = Object.entries(table.columns)
        .filter(([column]) => column !== table.owner && !(table.hidden ?? []).includes(column))
        .map(([column, spec]) => {
          const target = spec.references && domain.tables[spec.references];
          let kind = { numeric: 'number' }[spec.type] ?? spec.type;
          if (column === 'id') kind = `ref (${table.ref}_N)`;
          else if (target && spec.type === 'uuid[]') kind = `list of refs → ${spec.references} (${target.ref}_N)`;
          else if (target) kind = `ref → ${spec.references} (${target.ref}_N)`;
          const marks = [];
          if (writable && spec.required) marks.push('required');
          if (writable && spec.writable === false) marks.push('read-only');
          if (spec.values) marks.push(`one of: ${spec.values.join(', ')}`);
          return `- ${column}: ${[kind, ...marks].join(', ')}`;
        });
      assert.deepEqual(lines.filter((line) => !line.startsWith('- related rows: ')), expected, `${name}: ${tableName}`);
    }
  });
}

// The session of tests/core/prompt_support.h: the rows each turn read, with
// the refs the registry gives them in the order they came (turn 1: two
// recipes; turn 3: the fridge, its ingredients linked; turn 4: two recipes
// with their ingredients, and a generated recipe).
const ENTITIES = {
  active: [
    '- `inv_1` | name: milk | quantity: 1 | unit: l | location: fridge | expiry_date: 2026-02-11 | ingredient_id: ing_1',
    '- `inv_2` | name: eggs | quantity: 6 | unit: pcs | location: fridge | ingredient_id: ing_2',
  ],
  recent: ['- `ing_1` (ingredients) · linked in turn 3', '- `ing_2` (ingredients) · linked in turn 3'],
  generated: ['- `gen_recipe_1`: Thai Basil Chicken (recipes) · generated, not saved'],
  memory: ['- `recipe_1`: Shakshuka (recipes) · last seen in turn 1', '- `recipe_2`: Pad Thai (recipes) · last seen in turn 1'],
};
const INDIAN_RECIPES = [
  '- `recipe_3` | name: Butter Chicken | cuisine: indian | servings: 4 | prep_time_minutes: 20 | occasions: [weeknight]',
  '  instructions:',
  '    1. Marinate the chicken in yoghurt, garlic and garam masala for at least an hour.',
  '    2. Simmer tomatoes, butter and cream until thick, then add the grilled chicken.',
  '  recipe_ingredients (2):',
  '  - `ri_1` | name: chicken thighs | quantity: 800 | unit: g',
  '  - `ri_2` | name: butter | quantity: 50 | unit: g',
  '- `recipe_4` | name: Cod Curry | cuisine: indian | servings: 2 | prep_time_minutes: 15',
  '  recipe_ingredients (1):',
  '  - `ri_3` | name: cod | quantity: 400 | unit: g',
].join('\n');

for (const name of ['read', 'write', 'analyze', 'generate']) {
  test(`${name}: the session's rows, task and conversation, as the session gave them`, () => {
    const parts = sections(golden(name).user);
    assert.equal(parts['Previous Step Note'], 'From step 1: recipe_3 and recipe_4 are the Indian recipes');
    assert.match(parts.Task, /^\*\*Your job this step:\*\* Step two of the plan\n/);
    assert.ok(parts.Task.includes('**The user\'s full request:** "What Indian dishes can I cook tonight? Save the Thai one too."'));
    assert.ok(parts.Task.endsWith('**Plan:**\n1. Read Indian recipes — done\n2. Step two of the plan — this step\n3. Reply — later'), parts.Task);
    assert.equal(parts.Conversation, [
      "- **User:** What's in my fridge?",
      '- **Assistant:** Milk and eggs.',
      '- **User:** What Indian dishes can I cook tonight? Save the Thai one too.',
    ].join('\n'));
    // The recipes step 1 read, under the step history or the data available.
    const data = parts['Step History'] ?? parts['Data Available'];
    assert.ok(data.includes(INDIAN_RECIPES), `${name}: the Indian recipes as read:\n${data}`);
    const entities = parts['Entities in Context'];
    for (const line of [...ENTITIES.active, ...ENTITIES.recent, ...ENTITIES.memory]) assert.ok(entities.includes(line), `${name}: ${line}`);
    const generated = parts['Generated Artifacts'] ?? entities;
    assert.match(generated, /gen_recipe_1/);
    assert.ok(entities.includes(ENTITIES.generated[0]), `${name}: ${ENTITIES.generated[0]}`);
    // Every ref the prompt names is one the session made.
    const known = new Set(['inv_1', 'inv_2', 'ing_1', 'ing_2', 'recipe_1', 'recipe_2', 'recipe_3', 'recipe_4', 'ri_1', 'ri_2', 'ri_3', 'gen_recipe_1']);
    for (const [ref] of golden(name).user.matchAll(/\b(?:gen_)?[a-z]+_\d+\b/g)) assert.ok(known.has(ref), `${name}: ${ref} is a ref of the session`);
  });
}

test('empty: a fresh session names no ref and says so', () => {
  const parts = sections(golden('empty').user);
  assert.doesNotMatch(golden('empty').user, /`(?:gen_)?[a-z]+_\d+`/);
  assert.match(parts.Task, /^\*\*Your job this step:\*\* Read the fridge\n/);
  assert.ok(parts.Task.includes('**The user\'s full request:** "what\'s in my fridge?"'), parts.Task);
  assert.equal(parts.Conversation, '*No earlier conversation.*');
});
