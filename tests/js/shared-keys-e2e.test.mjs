// A one-to-one table whose key is its parent's (recipe_nutrition.id
// references recipes.id), as Supabase apps keep details, settings and
// profiles: in the local stack, the pulled domain, one signed-in user. The
// model creates a recipe, then its nutrition row with the recipe's ref as the
// key, reads both, and changes the nutrition row by its own ref. Each row
// keeps a ref of its own table and its own label; no UUID reaches the model.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startStack } from '../../db/local-stack.mjs';
import { loadCore, pullDomain } from '../../web/src/index.node.js';
import { rest } from './support/stack.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const BOUNDED = { timeout: 180_000 };

const MIGRATION = `
create table public.recipes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null
);
create table public.recipe_nutrition (
  id uuid primary key references public.recipes (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  kcal integer not null
);
alter table public.recipes enable row level security;
alter table public.recipe_nutrition enable row level security;
create policy "own recipes" on public.recipes for all to authenticated using (auth.uid() = user_id) with check (auth.uid() = user_id);
create policy "own nutrition" on public.recipe_nutrition for all to authenticated using (auth.uid() = user_id) with check (auth.uid() = user_id);
`;

let dir;
let stack;
let act;
let core;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alfred-shared-keys-'));
  mkdirSync(join(dir, 'migrations'));
  writeFileSync(join(dir, 'migrations', '20261128120000_recipes.sql'), MIGRATION);
  stack = await startStack({ migrations: join(dir, 'migrations'), users: [{ email: 'cook@example.com', password: 'cook-password' }] });
  core = await loadCore();
  const pulled = await pullDomain({ url: stack.supabaseUrl, apiKey: stack.serviceKey, catalog: stack.catalog, core, name: 'recipes' });
  assert.equal(pulled.error, null, JSON.stringify(pulled.error));
  const [cook] = stack.users;
  act = (await loadCore({ domain: pulled.data })).createAct({ url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: cook.token, domain: pulled.data });
}, BOUNDED);

after(async () => {
  act?.registry.delete();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A tool result the model reads: the call succeeded and shows no UUID. */
async function modelReads(tool, params) {
  const text = await act.callToolText(tool, JSON.stringify(params));
  const result = JSON.parse(text);
  assert.equal(result.ok, true, text);
  assert.doesNotMatch(text, UUID);
  return result;
}

test('a row keyed by its parent\'s key gets its own ref and label, and the model changes it by that ref', BOUNDED, async () => {
  const created = await modelReads('db_create', { table: 'recipes', data: { name: 'Dal' } });
  const recipe = created.rows[0].id;
  assert.match(recipe, /^recipe_\d+$/);

  const nutrition = await modelReads('db_create', { table: 'recipe_nutrition', data: { id: recipe, kcal: 300 } });
  const nutritionRef = nutrition.rows[0].id;
  assert.notEqual(nutritionRef, recipe, 'the nutrition row has a ref of its own table');
  assert.equal(nutritionRef.split('_')[0], act.domain.tables.recipe_nutrition.ref);

  const recipes = await modelReads('db_read', { table: 'recipes' });
  assert.deepEqual(recipes.rows.map((row) => [row.id, row.name]), [[recipe, 'Dal']]);
  const read = await modelReads('db_read', { table: 'recipe_nutrition' });
  assert.deepEqual(read.rows.map((row) => [row.id, row.kcal]), [[nutritionRef, 300]]);
  assert.equal(act.registry.toJSON().refs.find((entry) => entry.ref === recipe).label, 'Dal', "the recipe's label is its name, not the nutrition row's");

  await modelReads('db_update', { table: 'recipe_nutrition', filters: [{ field: 'id', op: '=', value: nutritionRef }], data: { kcal: 320 } });
  const { status, body } = await rest(stack, stack.serviceKey, 'GET', '/recipe_nutrition?select=kcal');
  assert.equal(status, 200);
  assert.deepEqual(body, [{ kcal: 320 }]);

  // The recipe's ref names a row of recipes: refused for the nutrition table, with the right ref in the hint.
  const wrong = JSON.parse(await act.callToolText('db_update', JSON.stringify({ table: 'recipe_nutrition', filters: [{ field: 'id', op: '=', value: recipe }], data: { kcal: 1 } })));
  assert.equal(wrong.ok, false);
  assert.equal(wrong.error.code, 'ref_type_mismatch');
  assert.match(wrong.error.hint, new RegExp(nutritionRef));
});

test('a second nutrition row for the same recipe is a duplicate, never a success that kept the old values', BOUNDED, async () => {
  const recipe = (await modelReads('db_create', { table: 'recipes', data: { name: 'Soup' } })).rows[0].id;
  await modelReads('db_create', { table: 'recipe_nutrition', data: { id: recipe, kcal: 150 } });
  const again = JSON.parse(await act.callToolText('db_create', JSON.stringify({ table: 'recipe_nutrition', data: { id: recipe, kcal: 999 } })));
  assert.equal(again.ok, false, JSON.stringify(again));
  assert.equal(again.error.code, 'duplicate');
  const { body } = await rest(stack, stack.serviceKey, 'GET', '/recipe_nutrition?select=kcal&kcal=in.(150,999)');
  assert.deepEqual(body, [{ kcal: 150 }]);
});

test('pulled without the parent table, the key is the table\'s own again (no reference to a table the domain lacks)', BOUNDED, async () => {
  const pulled = await pullDomain({ url: stack.supabaseUrl, apiKey: stack.serviceKey, catalog: stack.catalog, core, name: 'nutrition only', overrides: { tables: { recipes: null } } });
  assert.equal(pulled.error, null, JSON.stringify(pulled.error));
  const id = pulled.data.tables.recipe_nutrition.columns.id;
  assert.equal(id.references, undefined);
  assert.equal(id.writable, false);
});
