// The main job's scripted session against a fresh local stack: every step
// succeeds and does what its title says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/src/index.node.js';
import { runSession, SESSION } from '../../scripts/session.mjs';
import { withStack } from './support/stack.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

test('the scripted session runs end to end against the local stack', async (t) => {
  const stack = await withStack(t);
  const core = await loadCore();
  const [ada] = stack.users;
  const act = core.createAct({ restUrl: stack.url, apiKey: stack.anonKey, accessToken: ada.token, userId: ada.id });
  const printed = [];
  const results = await runSession({ core, act, print: (line) => printed.push(line) });
  assert.equal(results.length, SESSION.length);
  for (const [i, result] of results.entries()) assert.equal(result.error ?? null, null, `step ${i + 1}: ${JSON.stringify(result.error)}`);
  const byTitle = (title) => results[SESSION.findIndex((step) => step.title.startsWith(title))];

  assert.equal(byTitle('Read the generated').query.source, 'generated');
  const saved = byTitle('Save it');
  assert.match(saved.query.notes.join('\n'), /saved gen_recipe_1 as recipe_\d+/);
  const children = byTitle('Link its ingredients');
  assert.equal(children.count, 3);
  assert.ok(children.data.every((row) => row.recipe_id === saved.data.id), 'children link to the saved recipe');
  assert.ok(children.data.every((row) => /^ing_\d+$/.test(row.ingredient_id)), 'children linked to the catalog');

  const eggs = byTitle('Use up two eggs');
  assert.equal(eggs.count, 1);
  assert.equal(eggs.data[0].quantity, 8);
  assert.equal(byTitle('Cancel that plan').count, 1);

  const fridge = byTitle('What is in the fridge?');
  const excluded = byTitle('Everything in the fridge but');
  const excludedIds = excluded.query.requested.filters[1].value;
  assert.equal(excluded.count, fridge.count - excludedIds.length);
  assert.ok(excluded.data.every((row) => !excludedIds.includes(row.id)));

  assert.doesNotMatch(JSON.stringify(results), UUID);
  assert.doesNotMatch(printed.join('\n'), UUID);
  assert.match(printed.join('\n'), /Query: Table: inventory \| Filters: location = fridge \| Limit: 100/);
});
