// The main job until the local stack lands: one Act turn's worth of tool
// calls through the core, printed as the model and the server would see them.
// With arguments it builds one request: node scripts/demo.mjs db_read '{"table":"inventory"}'
import { readFile } from 'node:fs/promises';
import { loadCore } from '../web/src/index.node.js';

const USER_ID = '6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11';
const options = { baseUrl: process.env.SUPABASE_URL ?? 'http://127.0.0.1:3000', userId: USER_ID, apiKey: 'anon-key' };

const core = await loadCore();
const registry = core.createRegistry();

function show(title, tool, params) {
  const { data, error } = core.buildRequest(tool, params, { registry, ...options });
  console.log(`\n## ${title}\n${tool} ${JSON.stringify(params)}`);
  if (error) {
    console.log(`→ error ${error.code} at ${error.path || '(params)'}: ${error.message}`);
    if (error.hint) console.log(`  hint: ${error.hint}`);
    return;
  }
  console.log(`→ ${data.method} ${decodeURIComponent(data.url)}`);
  if (data.headers.Prefer) console.log(`  Prefer: ${data.headers.Prefer}`);
  if (data.body) console.log(`  body: ${data.body}`);
}

if (process.argv.length > 2) {
  show('request', process.argv[2], JSON.parse(process.argv[3] ?? '{}'));
  process.exit(0);
}

const rows = JSON.parse(await readFile(new URL('../examples/recipes-response.json', import.meta.url), 'utf8'));
const { data: seen } = registry.translateRows('recipes', rows);
console.log('## What the model sees of a PostgREST response (UUIDs → refs, user_id dropped)');
console.log(JSON.stringify(seen, null, 2));

show('Read by refs', 'db_read', { table: 'recipes', filters: [{ field: 'id', op: 'in', value: ['recipe_1', 'recipe_2'] }] });
show('Exclusion the right way (not_in with several refs)', 'db_read', {
  table: 'recipes',
  filters: [{ field: 'id', op: 'not_in', value: ['recipe_2'] }],
  columns: ['name', 'recipe_ingredients(name, quantity)'],
});
show('Values that try to widen the query stay one value', 'db_read', {
  table: 'inventory',
  or_filters: [
    { field: 'name', op: 'ilike', value: '%milk,id.not.is.null%' },
    { field: 'name', op: '=', value: 'x),user_id.neq.null,and(id.is.null' },
  ],
});
show('Update by ref', 'db_update', { table: 'recipes', filters: [{ field: 'id', op: '=', value: 'recipe_1' }], data: { servings: 6 } });
const { data: generated } = registry.registerGenerated('recipes', { name: 'Thai Basil Chicken', instructions: ['Stir-fry.'] });
show(`Save generated content (${generated})`, 'db_create', { table: 'recipes', data: { id: generated, name: 'Thai Basil Chicken', instructions: ['Stir-fry.'] } });

console.log('\n# Mistakes real models make, and the errors they get back');
show('Invented ref', 'db_delete', { table: 'recipes', filters: [{ field: 'id', op: '=', value: 'recipe_9' }] });
show('Padded UUID', 'db_read', { table: 'recipes', filters: [{ field: 'id', op: '=', value: 'c69607bb-0000-0000-0000-000000000000' }] });
show('Ref of another table', 'db_create', { table: 'meal_plans', data: { date: '2026-11-23', meal_type: 'dinner', recipe_id: 'ing_1' } });
show('Invented operator', 'db_read', { table: 'recipes', filters: [{ field: 'name', op: 'excludes', value: 'cod' }] });
show('Delete without a filter', 'db_delete', { table: 'inventory', filters: [] });
show('Spoofed owner', 'db_create', { table: 'inventory', data: { name: 'milk', quantity: 1, unit: 'l', user_id: '00000000-0000-4000-8000-000000000000' } });

console.log('\n## Registry state kept for the next turn');
console.log(JSON.stringify(registry.toJSON()));
