// Registry handles through the public API: serialization between turns,
// refusal of damaged state, and use after delete().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AlfredError, loadCore } from '../../web/src/index.node.js';

const core = await loadCore();
const RECIPE = '0b6a4c1e-8f2d-4e7a-b3c5-9d1e2f3a4b5c';
const SAVED = '7d2e9f10-4c3b-4a5d-8e6f-1a2b3c4d5e6f';
const options = { userId: '5f0c8e8a-3b7e-4d2a-9c61-0a8f2b4c6d10', baseUrl: 'http://127.0.0.1:3000' };

function busyRegistry() {
  const registry = core.createRegistry();
  registry.setTurn(2);
  registry.translateRows('recipes', [{ id: RECIPE, name: 'Butter Chicken' }]);
  assert.deepEqual(registry.registerGenerated('recipes', { name: 'Thai Basil Chicken', tags: ['quick'] }), {
    data: 'gen_recipe_1',
    error: null,
  });
  assert.deepEqual(registry.promote('gen_recipe_1', SAVED, 'Thai Basil Chicken'), { data: 'recipe_2', error: null });
  registry.registerGenerated('recipes', { name: 'Dal' });
  return registry;
}

test('toJSON → createRegistry(state) → the same toJSON and the same refs', () => {
  const original = busyRegistry();
  const state = original.toJSON();
  assert.equal(state.turn, 2);
  assert.deepEqual(state.counters, { recipe: 2 });
  assert.deepEqual(state.gen_counters, { recipe: 2 });
  assert.deepEqual(
    state.refs.map((entry) => [entry.ref, entry.uuid, entry.saved_as ?? null]),
    [
      ['recipe_1', RECIPE, null],
      ['gen_recipe_1', SAVED, 'recipe_2'],
      ['recipe_2', SAVED, null],
      ['gen_recipe_2', null, null],
    ],
  );

  for (const restored of [core.createRegistry(state), core.createRegistry(JSON.stringify(state))]) {
    assert.deepEqual(restored.toJSON(), state);
    assert.equal(restored.turn, 2);
    const params = { table: 'recipes', filters: [{ field: 'id', op: 'in', value: ['recipe_1', 'gen_recipe_1'] }] };
    assert.deepEqual(
      core.buildRequest('db_read', params, { ...options, registry: restored }),
      core.buildRequest('db_read', params, { ...options, registry: original }),
    );
    restored.delete();
  }
  original.delete();
});

test('damaged or foreign state throws AlfredError instead of starting over', () => {
  const good = busyRegistry();
  const state = good.toJSON();
  good.delete();
  const cases = [
    [{ ...state, format: 'something-else' }, 'invalid_state', 'format'],
    [{ ...state, version: 99 }, 'unsupported_state_version', 'version'],
    ['{"format": "alfred-act/registry", ', 'invalid_state', ''],
  ];
  for (const [bad, code, path] of cases) {
    assert.throws(
      () => core.createRegistry(bad),
      (error) => error instanceof AlfredError && error.code === code && error.path === path && error.message !== '',
      `${code} at '${path}'`,
    );
  }
});

test('a deleted registry fails with invalid_option everywhere', () => {
  const registry = busyRegistry();
  registry.delete();
  registry.delete();
  const deleted = { code: 'invalid_option', message: 'registry was deleted', path: 'registry', hint: '' };
  assert.throws(() => registry.toJSON(), (error) => error instanceof AlfredError && error.code === 'invalid_option');
  assert.throws(() => registry.turn, AlfredError);
  assert.deepEqual(registry.translateRows('recipes', []), { data: null, error: deleted });
  assert.deepEqual(registry.registerGenerated('recipes', { name: 'Soup' }), { data: null, error: deleted });
  assert.deepEqual(core.buildRequest('db_read', { table: 'recipes' }, { ...options, registry }), {
    data: null,
    error: deleted,
  });
});

test('Symbol.dispose frees the registry', () => {
  const registry = core.createRegistry();
  registry[Symbol.dispose]();
  assert.throws(() => registry.toJSON(), AlfredError);
});

test('promote on a deleted registry reports invalid_option', () => {
  const registry = core.createRegistry();
  registry.delete();
  assert.equal(registry.promote('gen_recipe_1', SAVED).error.code, 'invalid_option');
});
